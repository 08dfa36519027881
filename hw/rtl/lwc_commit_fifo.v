// Output FIFO with commit and rollback, the release gate of decryption.
//
// A core writes words at the write pointer; the reader sees only words up to the commit
// pointer. Encryption, hashing and every final status word are committed as written. Decrypted
// plaintext is written uncommitted and committed together with the "ok" status word once the
// full tag verified; on a tag mismatch the core rolls the write pointer back, so the plaintext
// of a forged message never reaches the output. A decrypted message must therefore fit the FIFO
// (at most 2^ADDR_BITS - 1 words of 16 bytes); a longer one stalls the core.
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
  output wire             space,      // at least one free entry
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

  assign space = used < DEPTH;
  assign rd_valid = cptr != rptr;
  assign rd_data = mem[rptr[ADDR_BITS-1:0]];

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
