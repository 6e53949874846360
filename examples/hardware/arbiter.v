// A two-client round-robin arbiter. Grants are registered: a request in
// one cycle is granted in the next, to at most one client; when both
// clients ask, the one not granted last wins.
module arbiter (
  input  wire clk,
  input  wire rst_n,
  input  wire req0,
  input  wire req1,
  output reg  gnt0,
  output reg  gnt1
);
  reg last;  // the client granted last

  wire pick0 = req0 && (!req1 || last);
  wire pick1 = req1 && !pick0;

  always @(posedge clk) begin
    if (!rst_n) begin
      gnt0 <= 1'b0;
      gnt1 <= 1'b0;
      last <= 1'b1;
    end else begin
      gnt0 <= pick0;
      gnt1 <= pick1;
      if (pick0) last <= 1'b0;
      else if (pick1) last <= 1'b1;
    end
  end
endmodule
