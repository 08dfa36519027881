// SPDX-License-Identifier: MIT OR Apache-2.0
// Ascon (AEAD128, Hash256, XOF128) stream engine: the core followed by its commit FIFO. Jobs enter on one valid/ready
// stream and leave on another, back to back: the core starts the next job while the FIFO still
// drains the previous one's output. See lwc_ascon_core.v for the word format of both streams.
module lwc_ascon_stream #(
  parameter integer ROUNDS_PER_CLOCK = 1,
  parameter integer FIFO_ADDR_BITS = 10   // 1,024 words: decrypted messages up to 16,368 bytes;
                                          // a longer one ends with status "too long"
) (
  input  wire         clk,
  input  wire         rst,
  input  wire         in_valid,
  output wire         in_ready,
  input  wire [127:0] in_data,
  input  wire [4:0]   in_bytes,
  input  wire         in_last,
  output wire         out_valid,
  input  wire         out_ready,
  output wire [127:0] out_data,
  output wire [4:0]   out_bytes,
  output wire [1:0]   out_kind,    // 0 data, 1 tag, 2 status (data[7:0] = status code)
  output wire         out_last     // the job's final word
  // All of out_* is zero while out_valid is low.
);
  wire         wr, commit, rollback, space, pending_full;
  wire [127:0] wr_data;
  wire [4:0]   wr_bytes;
  wire [1:0]   wr_kind;
  wire         wr_last;

  lwc_ascon_core #(.ROUNDS_PER_CLOCK(ROUNDS_PER_CLOCK)) core (
    .clk(clk), .rst(rst),
    .in_valid(in_valid), .in_ready(in_ready), .in_data(in_data), .in_bytes(in_bytes),
    .in_last(in_last),
    .out_wr(wr), .out_data(wr_data), .out_bytes(wr_bytes), .out_kind(wr_kind),
    .out_last(wr_last), .out_commit(commit), .out_rollback(rollback), .out_space(space),
    .out_pending_full(pending_full));

  lwc_commit_fifo #(.WIDTH(136), .ADDR_BITS(FIFO_ADDR_BITS)) fifo (
    .clk(clk), .rst(rst),
    .wr(wr), .wr_data({wr_last, wr_kind, wr_bytes, wr_data}), .commit(commit),
    .rollback(rollback), .space(space), .pending_full(pending_full),
    .rd_valid(out_valid), .rd_ready(out_ready),
    .rd_data({out_last, out_kind, out_bytes, out_data}));
endmodule
