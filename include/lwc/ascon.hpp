// SPDX-License-Identifier: MIT OR Apache-2.0
// Every Ascon algorithm in lwc: SP 800-232 (aead128, hash256, xof128, cxof128; use these), the
// legacy (Ascon v1.2) family (v12::ascon128, ascon128a, ascon80pq, hash, hasha, xof, xofa, mac,
// maca, prf, prfa, prfshort) and the v1.3 MAC/PRF definitions (v13::mac, prf, prfshort).
#pragma once

#include "ascon/aead.hpp"
#include "ascon/hash.hpp"
#include "ascon/mac.hpp"
