// Hand-written checkers for the properties of scripts/bench-sva.sh, the way
// a designer writes them without a property language: `$past`-style
// registers (a shift register of the attempts in flight) and an immediate
// assertion on a combinational `bad`, 1 in every cycle whose inputs complete
// a violation. Each has the ports of mongen's checker for the same property
// (clk; rst_n the `disable iff` reset, active low) so that the benchmark
// simulates both side by side; none has mongen's sticky `violated` flag:
// an immediate assertion fires on every violation, not the first one only.
// The registers that hold attempts in flight are cleared asynchronously by
// the reset, which is `disable iff`: a reset cancels every attempt under way.

// full_write (cv32e40p_fifo, fifo_v3):
//   @(posedge clk_i) disable iff (~rst_ni) (full_o |-> ~push_i)
module hand_full_write (
  input wire clk_i, input wire rst_ni, input wire full_o, input wire push_i,
  output wire bad
);
  assign bad = rst_ni && full_o && push_i;
`ifdef ASSERTIONS
  always @(posedge clk_i) assert (!bad);
`endif
endmodule

// a_grant (handshake.sv): disable iff (!rst_n) req && !busy |-> ##4 gnt
module hand_a_grant (
  input wire clk, input wire rst_n, input wire req, input wire busy,
  input wire gnt, output wire bad
);
  // acc[k]: a request accepted k + 1 cycles ago, with no reset since.
  reg [3:0] acc;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) acc <= 4'b0;
    else acc <= {acc[2:0], req && !busy};
  assign bad = rst_n && acc[3] && !gnt;
`ifdef ASSERTIONS
  always @(posedge clk) assert (!bad);
`endif
endmodule

// a_grant_after_busy (handshake.sv): disable iff (!rst_n) gnt |-> $past(busy)
// ($past reads the previous tick whatever the reset: no reset on past_busy,
// 0 before the first tick as §16.9.3 says).
module hand_a_grant_after_busy (
  input wire clk, input wire rst_n, input wire gnt, input wire busy,
  output wire bad
);
  reg past_busy = 1'b0;
  always @(posedge clk) past_busy <= busy;
  assign bad = rst_n && gnt && !past_busy;
`ifdef ASSERTIONS
  always @(posedge clk) assert (!bad);
`endif
endmodule

// range: @(posedge clk) disable iff (!rst_n) req |-> ##[1:3] ack
module hand_range (
  input wire clk, input wire rst_n, input wire req, input wire ack,
  output wire bad
);
  // w[k]: a request k + 1 cycles ago not yet acknowledged (in cycles 1..k).
  reg [2:0] w;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) w <= 3'b0;
    else w <= {w[1] && !ack, w[0] && !ack, req};
  assign bad = rst_n && w[2] && !ack;
`ifdef ASSERTIONS
  always @(posedge clk) assert (!bad);
`endif
endmodule

// seq: @(posedge clk) disable iff (!rst_n) req ##1 req |=> gnt
module hand_seq (
  input wire clk, input wire rst_n, input wire req, input wire gnt,
  output wire bad
);
  reg r1, r2; // req one cycle ago; req two cycles ago and one cycle ago
  always @(posedge clk or negedge rst_n)
    if (!rst_n) begin r1 <= 1'b0; r2 <= 1'b0; end
    else begin r1 <= req; r2 <= r1 && req; end
  assign bad = rst_n && r2 && !gnt;
`ifdef ASSERTIONS
  always @(posedge clk) assert (!bad);
`endif
endmodule
