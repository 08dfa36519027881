// SPDX-License-Identifier: MIT OR Apache-2.0
// Place-and-route shells for the fmax figures of hw/synth.sh: every input of a core comes from
// a register of a serial chain and every output goes to a register, folded into one pin, so the
// design needs four pins and the reported fmax is the core's own register-to-register path.
// The shells only serve the timing run; the area figures are those of the bare cores. Each
// shell instantiates the already synthesized (so already specialized) netlist of its core.

module lwc_scan_shell #(
  parameter integer IN_BITS = 8,
  parameter integer OUT_BITS = 8
) (
  input  wire                clk,
  input  wire                scan_in,
  output wire                scan_out,
  output reg  [IN_BITS-1:0]  core_in,
  input  wire [OUT_BITS-1:0] core_out
);
  reg [OUT_BITS-1:0] captured;
  always @(posedge clk) begin
    core_in <= {core_in[IN_BITS-2:0], scan_in};
    captured <= core_out;
  end
  assign scan_out = ^captured;
endmodule

module lwc_ascon_core_shell (
  input wire clk, input wire rst, input wire scan_in, output wire scan_out
);
  wire [136:0] i;
  wire [140:0] o;
  lwc_scan_shell #(.IN_BITS(137), .OUT_BITS(141)) shell (clk, scan_in, scan_out, i, o);
  lwc_ascon_core core (
    .clk(clk), .rst(rst), .in_valid(i[0]), .in_ready(o[0]), .in_data(i[128:1]),
    .in_bytes(i[133:129]), .in_last(i[134]), .out_wr(o[1]), .out_data(o[129:2]),
    .out_bytes(o[134:130]), .out_kind(o[136:135]), .out_last(o[137]), .out_commit(o[138]),
    .out_rollback(o[139]), .out_space(i[135]), .out_pending_full(i[136]));
  assign o[140] = 1'b0;
endmodule

module lwc_acorn_core_shell (
  input wire clk, input wire rst, input wire scan_in, output wire scan_out
);
  wire [136:0] i;
  wire [140:0] o;
  lwc_scan_shell #(.IN_BITS(137), .OUT_BITS(141)) shell (clk, scan_in, scan_out, i, o);
  lwc_acorn_core core (
    .clk(clk), .rst(rst), .in_valid(i[0]), .in_ready(o[0]), .in_data(i[128:1]),
    .in_bytes(i[133:129]), .in_last(i[134]), .out_wr(o[1]), .out_data(o[129:2]),
    .out_bytes(o[134:130]), .out_kind(o[136:135]), .out_last(o[137]), .out_commit(o[138]),
    .out_rollback(o[139]), .out_space(i[135]), .out_pending_full(i[136]));
  assign o[140] = 1'b0;
endmodule

// The same shell around the designers' ascon_core (github.com/rprimas/ascon-verilog), by its
// documented port list; CCW is its data-bus width (32 or 64).
module ascon_core_shell #(parameter integer CCW = 32) (
  input wire clk, input wire rst, input wire scan_in, output wire scan_out
);
  localparam integer IN_BITS = 2 * CCW + CCW / 8 + 13;
  localparam integer OUT_BITS = CCW + 12;
  wire [IN_BITS-1:0] i;
  wire [OUT_BITS-1:0] o;
  lwc_scan_shell #(.IN_BITS(IN_BITS), .OUT_BITS(OUT_BITS)) shell (clk, scan_in, scan_out, i, o);
  ascon_core core (
    .clk(clk), .rst(rst),
    .key(i[CCW-1:0]), .key_valid(i[CCW]), .bdi(i[2*CCW:CCW+1]),
    .bdi_valid(i[2*CCW+CCW/8:2*CCW+1]), .bdi_type(i[2*CCW+CCW/8+4:2*CCW+CCW/8+1]),
    .mode(i[2*CCW+CCW/8+8:2*CCW+CCW/8+5]), .bdi_eot(i[IN_BITS-3]), .bdi_eoi(i[IN_BITS-2]),
    .bdo_ready(i[IN_BITS-1]), .bdo_eoo(i[IN_BITS-4]),
    .key_ready(o[0]), .bdi_ready(o[1]), .bdo(o[CCW+1:2]), .bdo_valid(o[CCW+2]),
    .bdo_type(o[CCW+6:CCW+3]), .bdo_eot(o[CCW+7]), .auth(o[CCW+8]), .auth_valid(o[CCW+9]),
    .done(o[CCW+10]));
  assign o[OUT_BITS-1:CCW+11] = 0;
endmodule
