// SPDX-License-Identifier: MIT OR Apache-2.0
// Ascon-p rounds, combinational: ROUNDS_PER_CLOCK rounds of the NIST SP 800-232 permutation
// applied in one clock, starting at round index `first_round` (0..11; p^12 starts at 0, p^8 at 4).
// Rounds whose index would pass 11 are bypassed, so an unrolling that does not divide 8 (3 or
// 6 rounds per clock) still finishes p^8 exactly; the bypass multiplexers exist only for those
// unrollings.
//
// Lanes x0..x4 hold the state in the standard's little-endian byte order: byte 0 of a 64-bit
// lane is its least significant byte.
module lwc_ascon_rounds #(
  parameter integer ROUNDS_PER_CLOCK = 1
) (
  input  wire [319:0] state_in,      // {x4, x3, x2, x1, x0}
  input  wire [3:0]   first_round,
  output wire [319:0] state_out
);
  // Only 3 and 6 rounds per clock leave p^8 a partial last clock.
  localparam NEEDS_BYPASS = (8 % ROUNDS_PER_CLOCK) != 0;

  function [63:0] ror(input [63:0] x, input integer n);
    ror = (x >> n) | (x << (64 - n));
  endfunction

  // One round with constant index `r`: constant addition, 5-bit S-box layer, linear layer.
  function [319:0] round(input [319:0] s, input [3:0] r);
    reg [63:0] x0, x1, x2, x3, x4, t0, t1, t2, t3, t4;
    begin
      {x4, x3, x2, x1, x0} = s;
      x2 = x2 ^ {56'd0, 4'hf - r, r};
      x0 = x0 ^ x4; x4 = x4 ^ x3; x2 = x2 ^ x1;
      t0 = ~x0 & x1; t1 = ~x1 & x2; t2 = ~x2 & x3; t3 = ~x3 & x4; t4 = ~x4 & x0;
      x0 = x0 ^ t1; x1 = x1 ^ t2; x2 = x2 ^ t3; x3 = x3 ^ t4; x4 = x4 ^ t0;
      x1 = x1 ^ x0; x0 = x0 ^ x4; x3 = x3 ^ x2; x2 = ~x2;
      x0 = x0 ^ ror(x0, 19) ^ ror(x0, 28);
      x1 = x1 ^ ror(x1, 61) ^ ror(x1, 39);
      x2 = x2 ^ ror(x2, 1) ^ ror(x2, 6);
      x3 = x3 ^ ror(x3, 10) ^ ror(x3, 17);
      x4 = x4 ^ ror(x4, 7) ^ ror(x4, 41);
      round = {x4, x3, x2, x1, x0};
    end
  endfunction

  wire [319:0] stage [0:ROUNDS_PER_CLOCK];
  assign stage[0] = state_in;
  genvar k;
  generate
    for (k = 0; k < ROUNDS_PER_CLOCK; k = k + 1) begin : g_round
      wire [4:0] index = {1'b0, first_round} + k;
      wire [319:0] after = round(stage[k], index[3:0]);
      if (NEEDS_BYPASS && k > 0) begin : g_bypass
        assign stage[k + 1] = (index < 12) ? after : stage[k];
      end else begin : g_plain
        assign stage[k + 1] = after;
      end
    end
  endgenerate
  assign state_out = stage[ROUNDS_PER_CLOCK];
endmodule
