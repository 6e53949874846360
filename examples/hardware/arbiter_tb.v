// Random requests for the arbiter with its checkers, 2000 cycles after a
// reset. Compiled with ASSERTIONS defined, each checker reports its first
// violation with $error; the summary line says whether any was violated.
module arbiter_tb;
  reg clk = 1'b0;
  reg rst_n = 1'b0;
  reg req0 = 1'b0;
  reg req1 = 1'b0;
  wire gnt0, gnt1, violated;
  integer cycle;
  integer seed = 1;

  arbiter_top top (.clk(clk), .rst_n(rst_n), .req0(req0), .req1(req1),
                   .gnt0(gnt0), .gnt1(gnt1), .violated(violated));

  always #5 clk = !clk;

`ifdef DUMP
  // The waveform, for `mongen check --clock clk --reset rst_n`.
  initial begin
    $dumpfile("arbiter_tb.vcd");
    $dumpvars(0, arbiter_tb);
  end
`endif

  initial begin
    for (cycle = 0; cycle < 2000; cycle = cycle + 1) begin
      @(negedge clk);
      rst_n = cycle > 1;
      // Clients keep asking until granted, and ask again at random.
      req0 = (req0 && !gnt0) || ($random(seed) % 3 == 0);
      req1 = (req1 && !gnt1) || ($random(seed) % 2 == 0);
    end
    if (violated) $display("arbiter_tb: a property is violated");
    else $display("arbiter_tb: no violation in %0d cycles", cycle);
    $finish;
  end
endmodule
