// Simulates the read side of the FIFO with the checkers of fifo_pop.psl,
// through the formal harness mongen writes (the design with the checkers on
// its ports, which simulators take as a plain module): a write pointer that
// the write side advances now and then, reads at random, the same random
// mode on both sides, and resets in mid-run, some of them pulses between
// two clock edges. Prints each reset; the checkers print their errors and
// covers (-DASSERTIONS). Dumps the top level to fifo_tb.vcd.
module fifo_tb;
  reg rclk = 1'b0;
  reg rst_n = 1'b0;
  reg ren_in = 1'b0;
  reg [1:0] rmode = 2'd2;
  reg [1:0] wmode = 2'd2;
  reg [10:0] upae = 11'd4;
  // The write side's pointer in bytes, Gray-coded in the mode's units.
  reg [11:0] wptr = 12'd0;
  wire [1:0] unit_shift = rmode == 2'd3 ? 2'd0 : 2'd2 - rmode;
  wire [11:0] gcin = (wptr >> unit_shift) ^ (wptr >> (unit_shift + 2'd1));
  wire ren_o;
  wire [3:0] popflags;
  wire [10:0] out_raddr;
  wire [11:0] gcout;
  integer cycle;
  integer seed = 7;
  fifo_pop_props_formal dut (.ren_o(ren_o), .popflags(popflags), .out_raddr(out_raddr),
    .gcout(gcout), .rst_n(rst_n), .rclk(rclk), .ren_in(ren_in), .rmode(rmode), .wmode(wmode),
    .gcin(gcin), .upae(upae));
  always #5 rclk = !rclk;
  initial begin
    $dumpfile("fifo_tb.vcd");
    $dumpvars(1, fifo_tb);
    for (cycle = 0; cycle < 3000; cycle = cycle + 1) begin
      @(negedge rclk);
      if (cycle < 2 || $urandom(seed) % 150 == 0) begin
        if (rst_n) $display("fifo_tb: reset at %0t", $time);
        rst_n = 1'b0;
        wptr = 12'd0;
        rmode = $urandom(seed) % 4;
        wmode = rmode;
        upae = $urandom(seed) % 16;
      end else begin
        rst_n = 1'b1;
        if ($urandom(seed) % 3 == 0) wptr = wptr + (12'd4 >> rmode);
        ren_in = $urandom(seed) % 2;
        if ($urandom(seed) % 200 == 0) begin
          // A reset pulse between two edges.
          #2 $display("fifo_tb: reset at %0t", $time);
          rst_n = 1'b0;
          wptr = 12'd0;
          #1 rst_n = 1'b1;
        end
      end
    end
    $display("fifo_tb: done");
    $finish;
  end
endmodule
