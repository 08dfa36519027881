// SPDX-License-Identifier: MIT OR Apache-2.0
// Acorn-128 v3 core (CAESAR final portfolio): encryption and decryption-verification with the
// 128-bit tag, BITS_PER_CLOCK (8, 16, 32 or 64) state-update steps per clock.
//
// The same job stream as lwc_ascon_core (16-byte words, `bytes` valid, `last` on the final
// word of a sequence, an empty sequence is one word with bytes = 0):
//   header (data[1:0] = 0 encrypt, 1 decrypt), key, nonce, associated data, message, and for
//   decryption the tag.
// The same framing rules and status codes too: any other framing, a header of mode 2 or 3
// (hashing, which this core lacks; its one sequence is skipped) and a decryption longer than the
// FIFO end the job with STATUS_PROTOCOL_ERROR or STATUS_TOO_LONG, nothing uncommitted released
// and the rest of the job discarded unabsorbed (see lwc_ascon_core.v).
// A 16-byte word is consumed over 128 / BITS_PER_CLOCK clocks; the last word of a sequence
// steps only over its valid bytes (a clock per started group of BITS_PER_CLOCK / 8 bytes).
// Output words (DATA, TAG, STATUS) go to lwc_commit_fifo exactly as from the Ascon core:
// decrypted plaintext is committed only with a verified tag and rolled back otherwise.
//
// Data bits enter the state least significant bit of each byte first, as in the reference code.
// Timing depends only on lengths and on the stream handshakes.
module lwc_acorn_core #(
  parameter integer BITS_PER_CLOCK = 32
) (
  input  wire         clk,
  input  wire         rst,
  input  wire         in_valid,
  output reg          in_ready,
  input  wire [127:0] in_data,
  input  wire [4:0]   in_bytes,
  input  wire         in_last,
  output reg          out_wr,
  output reg  [127:0] out_data,
  output reg  [4:0]   out_bytes,
  output reg  [1:0]   out_kind,
  output reg          out_last,
  output reg          out_commit,
  output reg          out_rollback,
  input  wire         out_space,
  input  wire         out_pending_full   // no further uncommitted word fits the FIFO
);
  localparam integer W = BITS_PER_CLOCK;
  localparam integer BYTES = W / 8;                 // bytes stepped per clock
  localparam integer INIT_CLOCKS = 1792 / W;
  localparam integer PAD_CLOCKS = 256 / W;
  localparam integer FINAL_CLOCKS = 768 / W;
  localparam integer TAG_CLOCKS = 128 / W;          // the last ones of finalization
  localparam [1:0] MODE_ENC = 2'd0, MODE_DEC = 2'd1;
  localparam [1:0] KIND_DATA = 2'd0, KIND_TAG = 2'd1, KIND_STATUS = 2'd2;
  // Status codes; bit 0 is set by STATUS_OK alone, so a reader testing it stays safe.
  localparam [7:0] STATUS_TAG_FAIL = 8'd0, STATUS_OK = 8'd1, STATUS_PROTOCOL_ERROR = 8'd2,
                   STATUS_TOO_LONG = 8'd4;
  localparam [3:0] PH_HEADER = 4'd0, PH_KEY = 4'd1, PH_NONCE = 4'd2, PH_INIT = 4'd3,
                   PH_AD = 4'd4, PH_AD_PAD = 4'd5, PH_MSG = 4'd6, PH_MSG_PAD = 4'd7,
                   PH_FINAL = 4'd8, PH_TAG = 4'd9, PH_REPORT = 4'd10;

  reg [3:0]   phase;
  reg [1:0]   mode;
  reg [292:0] S;
  reg [127:0] key;
  reg [127:0] nonce_low;      // nonce, needed during the first 256 initialization steps
  reg [7:0]   count;          // clocks into the current fixed-length phase
  reg [4:0]   offset;         // bytes of the current input word already stepped
  reg [127:0] out_word;       // ciphertext or plaintext of the current word, so far
  reg [127:0] tag;            // keystream of the last 128 finalization steps
  reg         seq_first;      // the next word is a sequence's first (only it may be empty)
  // After a framing error the rest of the job is discarded, not absorbed; the job then ends with
  // `fail_code` (in PH_TAG for a decryption, which still takes its tag word, else PH_REPORT).
  reg         failed;
  reg [7:0]   fail_code;

  // Inputs of this clock's steps.
  reg         step;           // the state advances this clock
  reg [W-1:0] m;              // message bits (ciphertext bits when decrypting)
  reg         ca, cb, decrypting;
  reg [4:0]   step_bytes;     // how many of the BYTES groups take effect (partial last word)

  function maj(input x, input y, input z);
    maj = (x & y) ^ (x & z) ^ (y & z);
  endfunction
  function ch(input x, input y, input z);
    ch = (x & y) ^ (~x & z);
  endfunction

  // W steps of StateUpdate128; `S_next` is the state after the first step_bytes * 8 of them.
  reg [292:0] s, S_next;
  reg [W-1:0] ks;
  reg         k, f, mi;
  integer i;
  always @* begin
    s = S;
    S_next = S;
    for (i = 0; i < W; i = i + 1) begin
      s[289] = s[289] ^ s[235] ^ s[230];
      s[230] = s[230] ^ s[196] ^ s[193];
      s[193] = s[193] ^ s[160] ^ s[154];
      s[154] = s[154] ^ s[111] ^ s[107];
      s[107] = s[107] ^ s[66] ^ s[61];
      s[61]  = s[61] ^ s[23] ^ s[0];
      k = s[12] ^ s[154] ^ maj(s[235], s[61], s[193]) ^ ch(s[230], s[111], s[66]);
      mi = decrypting ? (m[i] ^ k) : m[i];
      f = s[0] ^ ~s[107] ^ maj(s[244], s[23], s[160]) ^ (ca & s[196]) ^ (cb & k) ^ mi;
      s = {f, s[292:1]};
      ks[i] = k;
      if (i % 8 == 7 && i / 8 < step_bytes) S_next = s;
    end
  end

  // The input word's bytes for this clock, and the bytes it leaves for later clocks.
  wire [127:0] in_shifted = in_data >> (8 * offset);
  wire [4:0]   bytes_left = in_bytes - offset;
  wire         word_done = bytes_left <= BYTES;     // this clock steps the word's last group
  wire [4:0]   group_bytes = word_done ? bytes_left : BYTES[4:0];
  wire [127:0] group_out = ({{(128 - W){1'b0}}, in_shifted[W-1:0] ^ ks}
                            & ~({128{1'b1}} << (8 * group_bytes))) << (8 * offset);
  wire [127:0] word_out = out_word | group_out;
  wire         tag_ok = ~|(tag ^ in_data);

  // Framing checks of the word on the input, made before its first group steps (offset 0).
  wire         single_ok = in_bytes == 5'd16 && !in_last;
  wire         seq_ok = in_last ? ((in_bytes != 0 && in_bytes <= 16) || (in_bytes == 0 && seq_first))
                                : in_bytes == 5'd16;
  // A decrypted word that would leave no FIFO entry for the status word.
  wire         too_long = phase == PH_MSG && mode == MODE_DEC && in_bytes != 0 && out_pending_full;
  wire         discard = failed || (offset == 0 && (!seq_ok || too_long));
  wire [7:0]   final_status = failed ? fail_code : !single_ok ? STATUS_PROTOCOL_ERROR
                            : tag_ok ? STATUS_OK : STATUS_TAG_FAIL;
  // Initialization input: key, nonce, then the key repeated with its first bit flipped once.
  wire [6:0]   init_bit = (count * W) % 128;
  wire [W-1:0] init_m = ((count < 128 / W) ? key : (count < 256 / W) ? nonce_low : key) >> init_bit;

  always @* begin
    in_ready = 1'b0;
    out_wr = 1'b0; out_data = 128'd0; out_bytes = 5'd0; out_kind = KIND_DATA;
    out_last = 1'b0; out_commit = 1'b0; out_rollback = 1'b0;
    step = 1'b0; m = {W{1'b0}}; ca = 1'b1; cb = 1'b1; decrypting = 1'b0;
    step_bytes = BYTES[4:0];
    case (phase)
      PH_HEADER, PH_KEY, PH_NONCE: in_ready = 1'b1;
      PH_INIT: begin
        step = 1'b1;
        m = init_m ^ ((count == 256 / W) ? {{(W - 1){1'b0}}, 1'b1} : {W{1'b0}});
      end
      PH_AD, PH_MSG: begin
        // Every group waits for output space in the message phase, so no word is stuck.
        if (in_valid && discard) begin
          in_ready = 1'b1;
          out_rollback = 1'b1;
        end else if (in_valid && (phase == PH_AD || out_space)) begin
          step = 1'b1;
          in_ready = word_done;
          m = in_shifted[W-1:0];
          step_bytes = group_bytes;
          if (phase == PH_MSG) begin
            cb = 1'b0;
            decrypting = mode == MODE_DEC;
            if (word_done && in_bytes != 0) begin
              out_wr = 1'b1;
              out_data = word_out;
              out_bytes = in_bytes;
              out_commit = mode == MODE_ENC;
            end
          end
        end
      end
      PH_AD_PAD, PH_MSG_PAD: begin
        step = 1'b1;
        m = (count == 0) ? {{(W - 1){1'b0}}, 1'b1} : {W{1'b0}};
        ca = count < 128 / W;
        cb = phase == PH_AD_PAD;
      end
      PH_FINAL: step = 1'b1;
      PH_TAG: begin
        if (mode == MODE_ENC) begin
          if (out_space) begin
            out_wr = 1'b1; out_data = tag; out_bytes = 5'd16; out_kind = KIND_TAG;
            out_last = 1'b1; out_commit = 1'b1;
          end
        end else begin
          in_ready = out_space;
          if (in_valid && out_space) begin
            out_rollback = final_status != STATUS_OK;
            out_wr = 1'b1; out_data = {120'd0, final_status}; out_kind = KIND_STATUS;
            out_last = 1'b1; out_commit = 1'b1;
          end
        end
      end
      PH_REPORT: begin
        if (out_space) begin
          out_rollback = 1'b1;
          out_wr = 1'b1; out_data = {120'd0, fail_code}; out_kind = KIND_STATUS;
          out_last = 1'b1; out_commit = 1'b1;
        end
      end
      default: ;
    endcase
  end

  always @(posedge clk) begin
    if (rst) begin
      phase <= PH_HEADER;
      count <= 8'd0;
      offset <= 5'd0;
      out_word <= 128'd0;
      failed <= 1'b0;
      fail_code <= STATUS_OK;
    end else begin
      if (step) S <= S_next;
      case (phase)
        PH_HEADER: if (in_valid) begin
          mode <= in_data[1:0];
          seq_first <= 1'b1;
          failed <= !single_ok || in_data[1];
          fail_code <= STATUS_PROTOCOL_ERROR;
          // A hashing header is framed as Ascon's: one sequence, skipped in PH_MSG.
          phase <= in_last ? PH_REPORT : in_data[1] ? PH_MSG : PH_KEY;
        end
        PH_KEY: if (in_valid) begin
          key <= in_data;
          if (!single_ok) failed <= 1'b1;
          phase <= in_last ? PH_REPORT : PH_NONCE;
        end
        PH_NONCE: if (in_valid) begin
          nonce_low <= in_data;
          S <= 293'd0;
          count <= 8'd0;
          seq_first <= 1'b1;
          if (!single_ok) failed <= 1'b1;
          phase <= in_last ? PH_REPORT : (failed || !single_ok) ? PH_AD : PH_INIT;
        end
        PH_INIT: begin
          count <= count + 1'b1;
          if (count == INIT_CLOCKS - 1) begin
            count <= 8'd0;
            phase <= PH_AD;
          end
        end
        PH_AD, PH_MSG: if (in_valid && discard) begin
          seq_first <= 1'b0;
          if (!failed) begin
            failed <= 1'b1;
            fail_code <= seq_ok ? STATUS_TOO_LONG : STATUS_PROTOCOL_ERROR;
          end
          if (in_last) begin
            seq_first <= 1'b1;
            phase <= (phase == PH_AD) ? PH_MSG : (mode == MODE_DEC) ? PH_TAG : PH_REPORT;
          end
        end else if (step) begin
          if (word_done) begin
            offset <= 5'd0;
            out_word <= 128'd0;
            seq_first <= in_last;
            if (in_last) phase <= (phase == PH_AD) ? PH_AD_PAD : PH_MSG_PAD;
          end else begin
            offset <= offset + BYTES[4:0];
            out_word <= word_out;
          end
        end
        PH_AD_PAD, PH_MSG_PAD: begin
          count <= count + 1'b1;
          if (count == PAD_CLOCKS - 1) begin
            count <= 8'd0;
            phase <= (phase == PH_AD_PAD) ? PH_MSG : PH_FINAL;
          end
        end
        PH_FINAL: begin
          count <= count + 1'b1;
          if (count >= FINAL_CLOCKS - TAG_CLOCKS) tag <= {ks, tag[127:W]};
          if (count == FINAL_CLOCKS - 1) begin
            count <= 8'd0;
            phase <= PH_TAG;
          end
        end
        PH_TAG: if (out_space && (mode == MODE_ENC || in_valid)) phase <= PH_HEADER;
        PH_REPORT: if (out_space) phase <= PH_HEADER;
        default: phase <= PH_HEADER;
      endcase
    end
  end
endmodule
