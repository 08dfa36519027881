// SPDX-License-Identifier: MIT OR Apache-2.0
// Ascon core (NIST SP 800-232): Ascon-AEAD128 encryption and decryption-verification with the
// full 128-bit tag, Ascon-Hash256 and Ascon-XOF128, one job after another.
//
// ROUNDS_PER_CLOCK (1, 2, 3, 4 or 6) rounds of Ascon-p run per clock: an AEAD block of 16 bytes
// costs ceil(8 / ROUNDS_PER_CLOCK) clocks, absorbing included, since each input word is
// absorbed in the first clock of the permutation it starts.
//
// Job input (one valid/ready stream of 16-byte words, byte i in bits 8i+7..8i, `bytes` valid):
//   header   data[1:0] = mode (0 encrypt, 1 decrypt, 2 Ascon-Hash256, 3 Ascon-XOF128),
//            data[63:32] = XOF128 output length in bytes
//   AEAD:    key, nonce, associated data, message, and for decryption the 16-byte tag
//   hash:    message
// Associated data and message are sequences of words with `last` set on the final one; every
// word but the last carries 16 bytes, the last one 1..16, and an empty sequence is one word with
// bytes = 0. The header, key, nonce and tag are single words of 16 bytes without `last`.
//
// Output goes to lwc_commit_fifo as words of kind DATA (ciphertext, plaintext, digest), TAG or
// STATUS (data[7:0] = one of the STATUS_ codes below), the job's final word flagged `last`.
// Decrypted plaintext is written uncommitted and released only with STATUS_OK; every other
// outcome rolls it back.
//
// Any other framing is a protocol error: the core rolls back what it has not committed, discards
// the rest of the job (the current sequence up to its `last`, the sequences still due and a
// decryption's tag; a `last` on a single word ends the job there) without absorbing it, and
// ends the job with STATUS_PROTOCOL_ERROR. Framing is never a guess: a word of 17-31 bytes or a
// short word before `last` would otherwise alias a different message (no padding bit) under the
// same tag. A decryption longer than the FIFO can hold ends the same way with STATUS_TOO_LONG.
// Ciphertext words of an encryption are committed as they are produced, so an encryption that
// fails its framing has released the ciphertext of the words before the faulty one, and no tag.
//
// Timing depends only on lengths and on the stream handshakes, never on key or data; the tag
// comparison ORs the differences of all 128 bits.
module lwc_ascon_core #(
  parameter integer ROUNDS_PER_CLOCK = 1
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
  localparam [1:0] MODE_ENC = 2'd0, MODE_DEC = 2'd1, MODE_HASH = 2'd2, MODE_XOF = 2'd3;
  localparam [1:0] KIND_DATA = 2'd0, KIND_TAG = 2'd1, KIND_STATUS = 2'd2;
  // Status codes; bit 0 is set by STATUS_OK alone, so a reader testing it stays safe.
  localparam [7:0] STATUS_TAG_FAIL = 8'd0, STATUS_OK = 8'd1, STATUS_PROTOCOL_ERROR = 8'd2,
                   STATUS_TOO_LONG = 8'd4;
  localparam [63:0] IV_AEAD128 = 64'h00001000808c0001;
  localparam [63:0] IV_HASH256 = 64'h0000080100cc0002;
  localparam [63:0] IV_XOF128  = 64'h0000080000cc0003;
  localparam [63:0] DOMAIN_SEP = 64'h8000000000000000;   // x4 after the associated data

  localparam [3:0] PH_HEADER = 4'd0, PH_KEY = 4'd1, PH_NONCE = 4'd2, PH_AD = 4'd3,
                   PH_AD_PAD = 4'd4, PH_MSG = 4'd5, PH_MSG_PAD = 4'd6, PH_FINAL = 4'd7,
                   PH_HASH_IN = 4'd8, PH_SQUEEZE = 4'd9, PH_REPORT = 4'd10;

  reg [3:0]   phase;
  reg [1:0]   mode;
  reg [63:0]  x0, x1, x2, x3, x4;
  reg [127:0] key;
  reg         key_pending;    // x3, x4 ^= key after initialization, folded into the next absorb
  reg         dsep_pending;   // x4 ^= domain separation bit, folded into the first message absorb
  reg         seq_first;      // the next word is a sequence's first (only it may be empty)
  // After a framing error the rest of the job is discarded, not absorbed; the job then ends with
  // `fail_code` (in PH_FINAL for a decryption, which still takes its tag word, else PH_REPORT).
  reg         failed;
  reg [7:0]   fail_code;

  // Permutation control: `running` while more rounds of the current permutation remain.
  reg         running;
  reg  [4:0]  round_index;      // 5 bits: 10 + 6 must not wrap
  reg         perm_start;     // combinational: start a permutation on perm_in this clock
  reg  [3:0]  perm_first;
  reg [319:0] perm_in;
  wire [319:0] perm_out;
  wire [4:0]  next_index = (perm_start ? {1'b0, perm_first} : round_index) + ROUNDS_PER_CLOCK;

  lwc_ascon_rounds #(.ROUNDS_PER_CLOCK(ROUNDS_PER_CLOCK)) rounds (
    .state_in(perm_start ? perm_in : {x4, x3, x2, x1, x0}),
    .first_round(perm_start ? perm_first : round_index[3:0]),
    .state_out(perm_out));

  // Hashing takes 8-byte blocks: the upper half of an input word waits in `hold`.
  reg         hold_valid;
  reg [63:0]  hold;
  reg [3:0]   hold_bytes;     // 0..8 bytes in the held half
  reg         hold_last;
  reg [31:0]  out_remaining;  // digest bytes still to squeeze
  reg         squeeze_high;   // the low half of the next output word is in `squeeze_low`
  reg [63:0]  squeeze_low;

  // Masks and padding of a partial 16-byte block of n bytes (n = 0..16).
  function [127:0] byte_mask(input [4:0] n);
    byte_mask = (n >= 16) ? {128{1'b1}} : ~({128{1'b1}} << (8 * n));
  endfunction
  function [127:0] pad_bit(input [4:0] n);   // the 0x01 byte after the data
    pad_bit = (n >= 16) ? 128'd0 : (128'd1 << (8 * n));
  endfunction

  wire [127:0] rate = {x1, x0};
  wire [127:0] mask = byte_mask(in_bytes);
  wire [127:0] msg_in = in_data & mask;
  wire [127:0] pad_in = pad_bit(in_bytes);
  wire [127:0] keystream_out = (rate ^ in_data) & mask;    // ciphertext or plaintext
  // New rate after a message block: encryption absorbs the plaintext, decryption replaces the
  // used bytes by the ciphertext; both add the padding bit of a partial block.
  wire [127:0] msg_rate = ((mode == MODE_DEC) ? ((rate & ~mask) | msg_in) : (rate ^ msg_in))
                          ^ pad_in;
  wire [127:0] pending_x34 = (key_pending ? key : 128'd0) ^ (dsep_pending ? {DOMAIN_SEP, 64'd0} : 128'd0);
  wire [127:0] tag = {x4, x3} ^ key;
  wire         tag_ok = ~|(tag ^ in_data);

  // Framing checks of the word on the input.
  wire         single_ok = in_bytes == 5'd16 && !in_last;
  wire         seq_ok = in_last ? ((in_bytes != 0 && in_bytes <= 16) || (in_bytes == 0 && seq_first))
                                : in_bytes == 5'd16;
  // A decrypted word that would leave no FIFO entry for the status word.
  wire         too_long = mode == MODE_DEC && in_bytes != 0 && out_pending_full;
  wire         msg_discard = failed || !seq_ok || too_long;
  wire [7:0]   final_status = failed ? fail_code : !single_ok ? STATUS_PROTOCOL_ERROR
                            : tag_ok ? STATUS_OK : STATUS_TAG_FAIL;

  wire [127:0] hold_mask = byte_mask({1'b0, hold_bytes});
  wire [127:0] hold_pad = pad_bit({1'b0, hold_bytes});
  wire [63:0]  hold_block = (hold & hold_mask[63:0]) ^ hold_pad[63:0];

  always @* begin
    in_ready = 1'b0;
    out_wr = 1'b0; out_data = 128'd0; out_bytes = 5'd0; out_kind = KIND_DATA;
    out_last = 1'b0; out_commit = 1'b0; out_rollback = 1'b0;
    perm_start = 1'b0; perm_first = 4'd0; perm_in = {x4, x3, x2, x1, x0};
    if (!running) begin
      case (phase)
        PH_HEADER: begin
          in_ready = 1'b1;
          if (in_valid && single_ok && in_data[1]) begin  // hash or XOF: p^12 on the initial value
            perm_start = 1'b1;
            perm_in = {256'd0, (in_data[1:0] == MODE_HASH) ? IV_HASH256 : IV_XOF128};
          end
        end
        PH_KEY: in_ready = 1'b1;
        PH_NONCE: begin
          in_ready = 1'b1;
          perm_start = in_valid && single_ok && !failed;
          perm_in = {in_data, key, IV_AEAD128};
        end
        PH_AD: begin
          in_ready = 1'b1;
          if (in_valid && !failed && seq_ok && !(seq_first && in_last && in_bytes == 0)) begin
            perm_start = 1'b1;
            perm_first = 4'd4;
            perm_in = {{x4, x3} ^ pending_x34, x2, rate ^ msg_in ^ pad_in};
          end
        end
        PH_AD_PAD: begin     // AD was a multiple of 16 bytes: absorb the padding block alone
          perm_start = 1'b1;
          perm_first = 4'd4;
          perm_in = {x4, x3, x2, x1, x0 ^ 64'd1};
        end
        PH_MSG: begin
          in_ready = msg_discard || out_space;
          if (in_valid && msg_discard) begin
            out_rollback = 1'b1;
          end else if (in_valid && out_space) begin
            out_wr = in_bytes != 0;
            out_data = keystream_out;
            out_bytes = in_bytes;
            out_commit = mode == MODE_ENC;
            perm_start = 1'b1;
            if (in_last && in_bytes != 16) begin   // last, padded block: finalization p^12
              perm_first = 4'd0;
              perm_in = {{x4, x3} ^ pending_x34 ^ {64'd0, key[127:64]}, x2 ^ key[63:0], msg_rate};
            end else begin
              perm_first = 4'd4;
              perm_in = {{x4, x3} ^ pending_x34, x2, msg_rate};
            end
          end
        end
        PH_MSG_PAD: begin    // message was a multiple of 16 bytes: padding block, finalization
          perm_start = 1'b1;
          perm_in = {x4, x3 ^ key[127:64], x2 ^ key[63:0], x1, x0 ^ 64'd1};
        end
        PH_FINAL: begin
          if (mode == MODE_ENC) begin
            if (out_space) begin
              out_wr = 1'b1; out_data = tag; out_bytes = 5'd16; out_kind = KIND_TAG;
              out_last = 1'b1; out_commit = 1'b1;
            end
          end else begin
            in_ready = out_space;
            if (in_valid && out_space) begin
              // The plaintext written so far is released with "ok", or discarded.
              out_rollback = final_status != STATUS_OK;
              out_wr = 1'b1; out_data = {120'd0, final_status}; out_kind = KIND_STATUS;
              out_last = 1'b1; out_commit = 1'b1;
            end
          end
        end
        PH_HASH_IN: begin
          if (hold_valid) begin
            perm_start = 1'b1;
            perm_in = {x4, x3, x2, x1, x0 ^ hold_block};
          end else begin
            in_ready = 1'b1;
            if (in_valid && !failed && seq_ok) begin
              perm_start = 1'b1;
              perm_in = {x4, x3, x2, x1, x0 ^ msg_in[63:0] ^ pad_in[63:0]};
            end
          end
        end
        PH_SQUEEZE: begin
          if (squeeze_high || out_remaining <= 8) begin
            if (out_space) begin
              out_wr = 1'b1;
              out_data = squeeze_high ? {x0, squeeze_low} : {64'd0, x0};
              out_bytes = (out_remaining >= 16) ? 5'd16 : out_remaining[4:0];
              out_last = out_remaining <= 16;
              out_commit = 1'b1;
              perm_start = out_remaining > 16;
            end
          end else begin
            perm_start = 1'b1;
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
  end

  always @(posedge clk) begin
    if (rst) begin
      phase <= PH_HEADER;
      running <= 1'b0;
      round_index <= 5'd0;
      hold_valid <= 1'b0;
      key_pending <= 1'b0;
      dsep_pending <= 1'b0;
      failed <= 1'b0;
      fail_code <= STATUS_OK;
    end else begin
      if (perm_start || running) begin
        {x4, x3, x2, x1, x0} <= perm_out;
        round_index <= next_index;
        running <= next_index < 12;
      end
      if (!running) begin
        case (phase)
          PH_HEADER: if (in_valid) begin
            mode <= in_data[1:0];
            out_remaining <= (in_data[1:0] == MODE_HASH) ? 32'd32 : in_data[63:32];
            squeeze_high <= 1'b0;
            seq_first <= 1'b1;
            failed <= !single_ok;
            fail_code <= STATUS_PROTOCOL_ERROR;
            phase <= in_last ? PH_REPORT : in_data[1] ? PH_HASH_IN : PH_KEY;
          end
          PH_KEY: if (in_valid) begin
            key <= in_data;
            if (!single_ok) failed <= 1'b1;
            phase <= in_last ? PH_REPORT : PH_NONCE;
          end
          PH_NONCE: if (in_valid) begin
            key_pending <= 1'b1;
            dsep_pending <= 1'b0;
            seq_first <= 1'b1;
            if (!single_ok) failed <= 1'b1;
            phase <= in_last ? PH_REPORT : PH_AD;
          end
          PH_AD: if (in_valid) begin
            seq_first <= 1'b0;
            if (perm_start) key_pending <= 1'b0;
            if (!seq_ok) failed <= 1'b1;
            if (in_last) begin
              if (in_bytes == 16 && seq_ok && !failed) phase <= PH_AD_PAD;
              else begin
                // The separation bit is added even after an empty AD.
                dsep_pending <= 1'b1;
                seq_first <= 1'b1;
                phase <= PH_MSG;
              end
            end
          end
          PH_AD_PAD: begin
            dsep_pending <= 1'b1;
            seq_first <= 1'b1;
            phase <= PH_MSG;
          end
          PH_MSG: if (in_valid && msg_discard) begin
            seq_first <= 1'b0;
            if (!failed) begin
              failed <= 1'b1;
              fail_code <= seq_ok ? STATUS_TOO_LONG : STATUS_PROTOCOL_ERROR;
            end
            if (in_last) phase <= (mode == MODE_DEC) ? PH_FINAL : PH_REPORT;
          end else if (in_valid && out_space) begin
            seq_first <= 1'b0;
            key_pending <= 1'b0;
            dsep_pending <= 1'b0;
            if (in_last) phase <= (in_bytes == 16) ? PH_MSG_PAD : PH_FINAL;
          end
          PH_MSG_PAD: phase <= PH_FINAL;
          PH_FINAL: if (out_space && (mode == MODE_ENC || in_valid)) phase <= PH_HEADER;
          PH_HASH_IN: begin
            if (hold_valid) begin
              // A held full half that ended the message still needs a padding-only block.
              if (hold_bytes == 8 && hold_last) begin
                hold <= 64'd0;
                hold_bytes <= 4'd0;
              end else begin
                hold_valid <= 1'b0;
                if (hold_last) phase <= PH_SQUEEZE;
              end
            end else if (in_valid && (failed || !seq_ok)) begin
              seq_first <= 1'b0;
              failed <= 1'b1;
              if (in_last) phase <= PH_REPORT;
            end else if (in_valid) begin
              seq_first <= 1'b0;
              if (in_bytes >= 8) begin
                hold_valid <= 1'b1;
                hold <= in_data[127:64];
                hold_bytes <= in_bytes[3:0] == 0 && in_bytes[4] ? 4'd8 : {1'b0, in_bytes[2:0]};
                hold_last <= in_last;
              end else phase <= PH_SQUEEZE;
            end
          end
          PH_SQUEEZE: begin
            if (squeeze_high || out_remaining <= 8) begin
              if (out_space) begin
                squeeze_high <= 1'b0;
                if (out_remaining <= 16) phase <= PH_HEADER;
                else out_remaining <= out_remaining - 16;
              end
            end else begin
              squeeze_low <= x0;
              squeeze_high <= 1'b1;
            end
          end
          PH_REPORT: if (out_space) phase <= PH_HEADER;
          default: phase <= PH_HEADER;
        endcase
      end
    end
  end
endmodule
