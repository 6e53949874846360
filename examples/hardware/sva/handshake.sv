// A request/grant unit with its properties written as SystemVerilog
// Assertions, the way a design team writes them for a commercial formal
// tool: a sequence, default clocking and disable iff, an assertion in an
// `always` procedure that reads an internal register, an assumption and a
// cover. `mongen compile --sv` turns them into checkers that SymbiYosys,
// Icarus and Verilator run; `mongen check --sv` checks a waveform with them.
//
// A request accepted when idle is granted four cycles later, for one cycle.
module handshake (
  input  logic clk,
  input  logic rst_n,
  input  logic req,
  output logic gnt,
  output logic busy
);
  logic [1:0] count;

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      count <= 2'd0;
      gnt   <= 1'b0;
      busy  <= 1'b0;
    end else begin
      gnt <= 1'b0;
      if (req && !busy) begin
        busy  <= 1'b1;
        count <= 2'd2;
      end else if (busy) begin
        if (count == 2'd0) begin
          gnt  <= 1'b1;
          busy <= 1'b0;
        end else begin
          count <= count - 2'd1;
        end
      end
    end

`ifdef FORMAL
  default clocking @(posedge clk); endclocking
  default disable iff (!rst_n);

  sequence accepted;
    req && !busy;
  endsequence

  // Every accepted request is granted four cycles later.
  a_grant: assert property (accepted |-> ##4 gnt);
  // A grant ends the transaction, and no grant comes without one.
  a_idle_at_grant: assert property (gnt |-> !busy);
  a_grant_after_busy: assert property (gnt |-> $past(busy));

  // The countdown never leaves its range while busy.
  always @(posedge clk)
    if (busy) a_count: assert property (count <= 2'd2);

  // The environment holds no request while the unit is busy.
  m_quiet: assume property (busy |-> !req);

  // Two grants five cycles apart are possible.
  c_back_to_back: cover property (gnt ##5 gnt);
`endif
endmodule
