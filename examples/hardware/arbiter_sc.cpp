// The arbiter of arbiter.v as a SystemC model (or, with -DBUGGY, the
// fixed-priority one of arbiter_bug.v), with the SystemC checkers that
// run.sh generates from properties.ltl, driven by random requests for
// 2000 cycles. Prints the first violation of each property.
#include <cstdio>
#include <cstdlib>

#include "prop_1_checker.h"
#include "prop_2_checker.h"
#include "prop_3_checker.h"
#include "prop_4_checker.h"
#include "prop_5_checker.h"
#include "prop_6_checker.h"

SC_MODULE(arbiter) {
  sc_core::sc_in<bool> clk, rst_n, req0, req1;
  sc_core::sc_out<bool> gnt0, gnt1;

  SC_CTOR(arbiter) : clk("clk"), rst_n("rst_n"), req0("req0"), req1("req1"), gnt0("gnt0"), gnt1("gnt1") {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }

 private:
  bool last_ = true;  // the client granted last

  void tick() {
    if (!rst_n.read()) {
      gnt0.write(false);
      gnt1.write(false);
      last_ = true;
      return;
    }
#ifdef BUGGY
    const bool pick0 = req0.read() && !req1.read();
#else
    const bool pick0 = req0.read() && (!req1.read() || last_);
#endif
    const bool pick1 = req1.read() && !pick0;
    gnt0.write(pick0);
    gnt1.write(pick1);
    if (pick0) last_ = false;
    if (pick1) last_ = true;
  }
};

int sc_main(int, char**) {
  sc_core::sc_signal<bool> clk("clk"), rst_n("rst_n"), req0("req0"), req1("req1"), gnt0("gnt0"), gnt1("gnt1");
  sc_core::sc_signal<bool> violated[6], fail[6];
  arbiter dut("dut");
  dut.clk(clk); dut.rst_n(rst_n); dut.req0(req0); dut.req1(req1); dut.gnt0(gnt0); dut.gnt1(gnt1);
  prop_1_checker c1("c1");
  c1.clk(clk); c1.rst_n(rst_n); c1.gnt0(gnt0); c1.gnt1(gnt1); c1.violated(violated[0]); c1.fail(fail[0]);
  prop_2_checker c2("c2");
  c2.clk(clk); c2.rst_n(rst_n); c2.gnt0(gnt0); c2.gnt1(gnt1); c2.req0(req0); c2.req1(req1);
  c2.violated(violated[1]); c2.fail(fail[1]);
  prop_3_checker c3("c3");
  c3.clk(clk); c3.rst_n(rst_n); c3.req0(req0); c3.gnt0(gnt0); c3.violated(violated[2]); c3.fail(fail[2]);
  prop_4_checker c4("c4");
  c4.clk(clk); c4.rst_n(rst_n); c4.req1(req1); c4.gnt1(gnt1); c4.violated(violated[3]); c4.fail(fail[3]);
  prop_5_checker c5("c5");
  c5.clk(clk); c5.rst_n(rst_n); c5.req0(req0); c5.gnt0(gnt0); c5.violated(violated[4]); c5.fail(fail[4]);
  prop_6_checker c6("c6");
  c6.clk(clk); c6.rst_n(rst_n); c6.gnt0(gnt0); c6.req0(req0); c6.violated(violated[5]); c6.fail(fail[5]);

  std::srand(1);
  bool any = false;
  int cycle = 0;
  for (; cycle < 2000; ++cycle) {
    // Inputs change while the clock is low; the checkers' outputs settle
    // before the rising edge.
    clk.write(false);
    rst_n.write(cycle > 1);
    req0.write((req0.read() && !gnt0.read()) || std::rand() % 3 == 0);
    req1.write((req1.read() && !gnt1.read()) || std::rand() % 2 == 0);
    sc_core::sc_start(1, sc_core::SC_NS);
    for (int k = 0; k < 6; ++k) {
      if (fail[k].read()) {
        std::printf("arbiter_sc: cycle %d: property %d (prop_%d_checker) violated\n", cycle, k + 1, k + 1);
        any = true;
      }
    }
    clk.write(true);
    sc_core::sc_start(1, sc_core::SC_NS);
  }
  std::printf(any ? "arbiter_sc: a property is violated\n" : "arbiter_sc: no violation in %d cycles\n", cycle);
  return 0;
}
