// SPDX-License-Identifier: MIT OR Apache-2.0
// Output FIFO with commit and rollback, the release gate of decryption.
//
// A core writes words at the write pointer; the reader sees only words up to the commit
// pointer. Encryption, hashing and every final status word are committed as written. Decrypted
// plaintext is written uncommitted and committed together with the "ok" status word once the
// full tag verified; on any other outcome the core rolls the write pointer back, so the
// plaintext of a forged message never reaches the output. The read bus is zero while rd_valid
// is low: uncommitted or rolled-back words are never driven onto it, not even as stale data.
//
// A decrypted message must fit the FIFO: at most 2^ADDR_BITS - 1 uncommitted words, leaving
// the last entry for the status word. `pending_full` tells the core that no further
// uncommitted word fits, so it ends the job with a too-long status instead of waiting for
// space that only its own commit could free.
//
// In one clock: rollback (write pointer back to the commit pointer), then write, then commit.
module lwc_commit_fifo #(
  parameter integer WIDTH = 136,
  parameter integer ADDR_BITS = 9
) (
  input  wire             clk,
  input  wire             rst,
  // write side (the core)
  input  wire             wr,
  input  wire [WIDTH-1:0] wr_data,
  input  wire             commit,
  input  wire             rollback,
  output wire             space,         // at least one free entry
  output wire             pending_full,  // uncommitted words fill all entries but one
  // read side (valid/ready stream)
  output wire             rd_valid,
  input  wire             rd_ready,
  output wire [WIDTH-1:0] rd_data
);
  localparam integer DEPTH = 1 << ADDR_BITS;
  reg [WIDTH-1:0] mem [0:DEPTH-1];
  // One extra bit distinguishes full from empty.
  reg [ADDR_BITS:0] wptr, cptr, rptr;

  wire [ADDR_BITS:0] wbase = rollback ? cptr : wptr;
  wire [ADDR_BITS:0] wnext = wbase + {{ADDR_BITS{1'b0}}, wr};
  wire [ADDR_BITS:0] used = wptr - rptr;
  wire [ADDR_BITS:0] pending = wptr - cptr;

  assign space = used < DEPTH;
  assign pending_full = pending >= DEPTH - 1;
  assign rd_valid = cptr != rptr;
  assign rd_data = rd_valid ? mem[rptr[ADDR_BITS-1:0]] : {WIDTH{1'b0}};

  always @(posedge clk) begin
    if (wr) mem[wbase[ADDR_BITS-1:0]] <= wr_data;
    if (rst) begin
      wptr <= 0;
      cptr <= 0;
      rptr <= 0;
    end else begin
      wptr <= wnext;
      if (commit) cptr <= wnext;
      if (rd_valid && rd_ready) rptr <= rptr + 1'b1;
    end
  end
endmodule
