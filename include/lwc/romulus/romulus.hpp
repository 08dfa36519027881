// SPDX-License-Identifier: MIT OR Apache-2.0
// The Romulus family (Romulus v1.3, NIST LWC final round): Romulus-N, -M and -T (AEAD) and
// Romulus-H (hash), all over SKINNY-128-384+. See each header for its section and its warnings.
#pragma once

#include "romulus_h.hpp"
#include "romulus_m.hpp"
#include "romulus_n.hpp"
#include "romulus_t.hpp"
