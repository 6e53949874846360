// Simulates handshake.sv with the checkers of its assertions, through the
// formal harness that `mongen compile --sv handshake.sv --sby handshake`
// writes (the design read without its assertions, the checkers inside it):
// random requests that respect the assumption m_quiet (none while busy),
// and resets in mid-run, some of them pulses between two clock edges.
// Prints each reset; the checkers print their errors and covers
// (-DASSERTIONS). Dumps the design's signals to handshake_tb.vcd.
module handshake_tb;
  reg clk = 1'b0;
  reg rst_n = 1'b0;
  reg req = 1'b0;
  wire gnt;
  wire busy;
  integer cycle;
  integer seed = 11;
  handshake_formal dut (.clk(clk), .rst_n(rst_n), .req(req), .gnt(gnt), .busy(busy));
  always #5 clk = !clk;
  initial begin
    $dumpfile("handshake_tb.vcd");
    $dumpvars(1, handshake_tb.dut.dut);
    for (cycle = 0; cycle < 3000; cycle = cycle + 1) begin
      @(negedge clk);
      if (cycle < 2 || $urandom(seed) % 120 == 0) begin
        if (rst_n) $display("handshake_tb: reset at %0t", $time);
        rst_n = 1'b0;
        req = 1'b0;
      end else begin
        rst_n = 1'b1;
        req = !busy && ($urandom(seed) % 2 == 0);
        if ($urandom(seed) % 200 == 0) begin
          // A reset pulse between two edges.
          #2 $display("handshake_tb: reset at %0t", $time);
          rst_n = 1'b0;
          #1 rst_n = 1'b1;
        end
      end
    end
    $display("handshake_tb: done");
    $finish;
  end
endmodule
