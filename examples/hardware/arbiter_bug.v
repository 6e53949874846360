// The same interface with a bug: fixed priority to client 1, which
// starves client 0 while client 1 keeps asking.
module arbiter (
  input  wire clk,
  input  wire rst_n,
  input  wire req0,
  input  wire req1,
  output reg  gnt0,
  output reg  gnt1
);
  always @(posedge clk) begin
    if (!rst_n) begin
      gnt0 <= 1'b0;
      gnt1 <= 1'b0;
    end else begin
      gnt0 <= req0 && !req1;
      gnt1 <= req1;
    end
  end
endmodule
