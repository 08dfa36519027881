// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc: lightweight cryptography. The whole header-only C++20 core.
#pragma once

#include "ascon.hpp"
#include "registry.hpp"
