//! What `read_str` and `read_file` find in SystemVerilog files, and the
//! errors they give: each assertion's directive equals the one the SVA
//! front end reads from the assertion written out by hand (its clock,
//! reset and enabling conditions made explicit).

use mongen_sv::{read_file, read_str, Design, Options, ReadError};
use monitor_core::formula::sva::{parse_sva_directive, parse_sva_directive_with, Signals};
use monitor_core::formula::DirectiveKind;

fn read(source: &str) -> Design {
    let design = read_str(source, "t.sv", &Options::new()).unwrap_or_else(|e| panic!("{e}"));
    if let Some(e) = design.refused.first() {
        panic!("{e}");
    }
    design
}

fn refused(source: &str) -> ReadError {
    first_error(read_str(source, "t.sv", &Options::new()))
}

/// The error of a file that is refused, or of its first assertion that
/// is.
fn first_error(read: Result<Design, ReadError>) -> ReadError {
    match read {
        Ok(d) => match d.refused.into_iter().next() {
            Some(e) => e,
            None => panic!("read {} assertions, expected an error", d.assertions.len()),
        },
        Err(e) => e,
    }
}

/// The assertion `k` of `source` is the directive `expected` (SVA text).
fn same(source: &str, k: usize, expected: &str) {
    let design = read(source);
    let got = &design.assertions[k].directive;
    let want = parse_sva_directive(expected).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.kind, want.kind, "{expected}");
    assert_eq!(got.label, want.label, "{expected}");
    assert_eq!(
        got.formula, want.formula,
        "{expected}\n(read: {})",
        design.assertions[k].text
    );
    assert_eq!(
        got.clock.as_ref().map(|c| c.to_string()),
        want.clock.as_ref().map(|c| c.to_string()),
        "{expected}"
    );
    assert_eq!(
        got.disable.as_ref().map(|d| format!("{d:?}")),
        want.disable.as_ref().map(|d| format!("{d:?}")),
        "{expected}"
    );
}

#[test]
fn module_items_with_their_declarations() {
    let src = "
module arb #(parameter N = 2) (input logic clk, rst_n, input logic [1:0] req, gnt);
  default clocking cb @(posedge clk); endclocking
  default disable iff (!rst_n);
  sequence granted(i); gnt[i] ##1 !gnt[i]; endsequence
  property served(i); req[i] |-> ##[1:4] granted(i); endproperty
  let both = req[0] && req[1];
  a_serve0: assert property (served(0));
  a_one: assert property (!(gnt[0] && gnt[1])) else $error(\"two grants; at %t\", $time);
  m_fair: assume property (both |=> !both);
  c_both: cover property (both ##1 gnt[1]);
  r_x: restrict property (!$isunknown(req));
endmodule";
    let design = read(src);
    assert_eq!(design.modules, ["arb"]);
    let labels: Vec<_> = design
        .assertions
        .iter()
        .map(|a| a.directive.label.clone().unwrap())
        .collect();
    assert_eq!(labels, ["a_serve0", "a_one", "m_fair", "c_both", "r_x"]);
    let kinds: Vec<_> = design.assertions.iter().map(|a| a.directive.kind).collect();
    assert_eq!(
        kinds,
        [
            DirectiveKind::Assert,
            DirectiveKind::Assert,
            DirectiveKind::Assume,
            DirectiveKind::Cover,
            DirectiveKind::Restrict
        ]
    );
    same(
        src,
        0,
        "a_serve0: assert property (@(posedge clk) disable iff (!rst_n) \
         req[0] |-> ##[1:4] gnt[0] ##1 !gnt[0]);",
    );
    same(
        src,
        2,
        "m_fair: assume property (@(posedge clk) disable iff (!rst_n) \
         req[0] && req[1] |=> !(req[0] && req[1]));",
    );
    assert_eq!(design.assertions[0].location.line, 8);
    assert_eq!(design.assertions[0].location.column, 3);
}

#[test]
fn procedures_give_their_clock_and_enabling_conditions() {
    let src = "
module m(input clk, rst, en, mode, a, b);
  always @(posedge clk) begin
    if (en) begin
      p1: assert property (a |=> b);
    end else if (mode)
      p2: assert property (b);
    else
      p3: assert property (a);
  end
  always_ff @(posedge clk or posedge rst)
    if (rst) ;
    else p4: assert property (disable iff (rst) a |-> b);
  always @(negedge clk) p5: assume property (!a);
endmodule";
    same(
        src,
        0,
        "p1: assert property (@(posedge clk) (en) |-> (a |=> b));",
    );
    same(
        src,
        1,
        "p2: assert property (@(posedge clk) !(en) && (mode) |-> (b));",
    );
    same(
        src,
        2,
        "p3: assert property (@(posedge clk) !(en) && !(mode) |-> (a));",
    );
    same(
        src,
        3,
        "p4: assert property (@(posedge clk) disable iff (rst) !(rst) |-> (a |-> b));",
    );
    same(src, 4, "p5: assume property (@(negedge clk) !a);");
}

#[test]
fn preprocessor_macros_and_includes() {
    let dir = std::env::temp_dir().join(format!("mongen-sv-read-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(
        dir.join("inc/props.svh"),
        "property handshake(r, a); r |-> ##[1:`MAXLAT] a; endproperty\n",
    )
    .unwrap();
    let top = dir.join("top.sv");
    std::fs::write(
        &top,
        "`include \"props.svh\"
module top(input clk, req, ack);
`ifdef FORMAL
  h: assert property (@(posedge clk) handshake(req, ack));
`endif
endmodule
",
    )
    .unwrap();
    let options = Options::new()
        .define("FORMAL", None)
        .define("MAXLAT", Some("3"))
        .include_dir(dir.join("inc"));
    let design = read_file(&top, &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(design.assertions.len(), 1);
    let want =
        parse_sva_directive("h: assert property (@(posedge clk) req |-> ##[1:3] ack);").unwrap();
    assert_eq!(design.assertions[0].directive.formula, want.formula);
    assert_eq!(design.assertions[0].location.file, top);
    assert_eq!(design.assertions[0].location.line, 4);
    // Without FORMAL, nothing; without the include directory, an error
    // naming the file and -I.
    let plain = Options::new()
        .define("MAXLAT", Some("3"))
        .include_dir(dir.join("inc"));
    assert!(read_file(&top, &plain).unwrap().assertions.is_empty());
    let err = read_file(&top, &Options::new().define("FORMAL", None)).unwrap_err();
    assert!(
        err.message().contains("props.svh") && err.message().contains("-I"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_point_into_the_file() {
    // An SVA error inside the assertion: the line and column of the
    // construct, in the file's coordinates.
    let err = refused(
        "module m(input clk, a, b);\n  x: assert property (@(posedge clk) a |-> b.triggered);\nendmodule",
    );
    let at = err.location().unwrap();
    assert_eq!(at.line, 2, "{err}");
    assert!(at.column > 40, "{err}");
    assert!(err.to_string().contains("^"), "{err}");
    // A file that ends inside a module: no position, the file named.
    let err = refused("module m(input clk);\n  initial begin\n");
    assert!(
        err.to_string().starts_with("t.sv: syntax error at the end"),
        "{err}"
    );
    // A syntax error of SystemVerilog itself.
    let err = refused("module m(input a);\n  assign = ;\nendmodule");
    assert_eq!(err.location().unwrap().line, 2, "{err}");
    // A generate loop that cannot be unrolled: refused at its bound.
    let err = refused(
        "module m(input clk, input [3:0] a);\n  for (genvar i = 0; i < W; i++) begin : g\n    assert property (@(posedge clk) a[i]);\n  end\nendmodule",
    );
    assert_eq!(err.location().unwrap().line, 2, "{err}");
    assert!(err.message().contains("generate"), "{err}");
    let err = refused(
        "module m(input clk, a);\n  initial begin\n    assert property (@(posedge clk) a);\n  end\nendmodule",
    );
    assert!(err.message().contains("initial"), "{err}");
    let err = refused(
        "module m(input clk, rst, a);\n  always @(posedge clk or posedge rst)\n    p: assert property (a);\nendmodule",
    );
    assert!(err.message().contains("cannot be inferred"), "{err}");
    let err = refused(
        "module m(input clk, c2, a);\n  always @(posedge clk)\n    p: assert property (@(posedge c2) a);\nendmodule",
    );
    assert!(err.message().contains("not its procedure's"), "{err}");
    let err = refused(
        "module m(input clk, e, a);\n  always @(posedge clk)\n    if (e) c: cover property (a);\nendmodule",
    );
    assert!(err.message().contains("cover"), "{err}");
    let err =
        refused("interface i(input clk, a);\n  assert property (@(posedge clk) a);\nendinterface");
    assert!(err.message().contains("interface"), "{err}");
}

#[test]
fn hostile_nesting_is_refused_before_parsing() {
    let deep = format!(
        "module m(input clk, a);\n  assert property (@(posedge clk) {}a{});\nendmodule",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let err = refused(&deep);
    assert!(err.message().contains("nested"), "{err}");
    assert_eq!(err.location().unwrap().line, 2);
    // Deep but within the limit: read.
    let ok = format!(
        "module m(input clk, a);\n  assert property (@(posedge clk) {}a{});\nendmodule",
        "(".repeat(200),
        ")".repeat(200)
    );
    assert_eq!(read(&ok).assertions.len(), 1);
}

#[test]
fn terminal_escapes_in_errors_are_shown_as_question_marks() {
    let err = refused("module m(input a);\n  assign \u{1b}[31m = ;\nendmodule");
    assert!(!err.to_string().contains('\u{1b}'), "{err:?}");
}

/// lowRISC's `ASSERT` macros write the reset `(!rst_ni) !== '0`, a
/// Boolean compared by case inequality with a fill literal: it is the
/// active-low reset `rst_ni`, and the reader keeps case comparisons of
/// signals.
#[test]
fn case_equality_and_fill_literals_as_lowrisc_macros_write_them() {
    let src = "
`define ASSERT(__name, __prop, __clk = clk_i, __rst = !rst_ni) \\
  __name: assert property (@(posedge __clk) disable iff ((__rst) !== '0) (__prop)) \\
    else begin $error(\"[ASSERT FAILED] [%m] %s\", `\"__name`\"); end
module arb (input logic clk_i, rst_ni, valid_o, ready_i, input logic [1:0] idx_o);
  `ASSERT(NoReadyValid_A, valid_o |-> ready_i === 1'b1)
  `ASSERT(IdxKnown_A, valid_o |-> idx_o !== '0, clk_i, !rst_ni || !valid_o)
endmodule";
    let design = read(src);
    assert_eq!(design.assertions.len(), 2);
    same(
        src,
        0,
        "NoReadyValid_A: assert property (@(posedge clk_i) disable iff (!rst_ni) \
         valid_o |-> ready_i === 1'b1);",
    );
    let d = &design.assertions[0].directive;
    assert_eq!(
        d.disable.as_ref().and_then(|d| d.signal()),
        Some(("rst_ni", monitor_core::formula::ActiveLevel::Low))
    );
    same(
        src,
        1,
        "IdxKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni || !valid_o) \
         valid_o |-> idx_o !== 0);",
    );
}

/// The design without its assertions keeps immediate assertions (a
/// tool reads them) but not their action blocks, which Yosys refuses
/// (`else $error(...)`): they become the null statement, on the same
/// lines.
#[test]
fn immediate_assertions_lose_their_action_blocks() {
    let src = "module f #(parameter DEPTH = 8) (input clk, a, b);
  initial begin
    assert (DEPTH > 0) else $error(\"DEPTH must be greater than 0.\");
    assume (DEPTH < 64) $display(\"ok\"); else
      $fatal(1, \"too deep\");
    assert #0 (DEPTH != 3) else $error(\"three\");
    assert (DEPTH != 5);
  end
  p: assert property (@(posedge clk) a |=> b) else $error(\"no b\");
endmodule
";
    let design = read(src);
    assert_eq!(design.assertions.len(), 1);
    let plain = design.without_assertions(|_| None);
    assert_eq!(plain.lines().count(), src.lines().count());
    assert!(!plain.contains('$'), "{plain}");
    assert!(plain.contains("assert (DEPTH > 0) ;"), "{plain}");
    assert!(plain.contains("assume (DEPTH < 64) ;"), "{plain}");
    assert!(plain.contains("assert #0 (DEPTH != 3) ;"), "{plain}");
    assert!(plain.contains("assert (DEPTH != 5);"), "{plain}");
    assert!(!plain.contains("property"), "{plain}");
}

/// The design's copy has its macros expanded and their definitions
/// gone: Yosys's preprocessor ends a definition at a `//` comment before
/// its `\`, and would read the rest of lowRISC's bodies as code.
#[test]
fn macro_definitions_leave_the_design_copy() {
    let src = "`define CHECK(name, prop) \\
  name: assert property (@(posedge clk) prop)
`define UNUSED(name) \\
  initial begin \\
    // Yosys ends the definition here \\
    #1ps; \\
  end
module f (input clk, a, b);
  `CHECK(p, a |=> b);
`undef UNUSED
endmodule
";
    let design = read(src);
    assert_eq!(design.assertions.len(), 1);
    let plain = design.without_assertions(|_| None);
    assert!(!plain.contains("define"), "{plain}");
    assert!(!plain.contains("undef"), "{plain}");
    assert!(!plain.contains("#1ps"), "{plain}");
    assert!(plain.contains("module f (input clk, a, b);"), "{plain}");
}

/// A `disable iff` whose case equality makes an unknown reset inactive
/// (`=== 1'b1`, or a negated `!==`) keeps the assertion checked on an x
/// reset, where mongen's reset counts an x as in reset: refused, at the
/// operator. `!== '0` (true on an x) and a compound condition are read.
#[test]
fn case_equalities_that_keep_checking_on_an_unknown_reset_are_refused() {
    for (src, column) in [
        (
            "module m(input clk, rst_ni, a); \
             assert property (@(posedge clk) disable iff ((!rst_ni) === 1'b1) a); endmodule",
            88,
        ),
        (
            "module m(input clk, rst_ni, a); default disable iff (!(rst_ni !== 1'b1)); \
             assert property (@(posedge clk) a); endmodule",
            63,
        ),
    ] {
        let e = refused(src);
        assert!(e.message().contains("in a `disable iff` condition"), "{e}");
        assert_eq!(e.location().unwrap().column, column, "{e}");
    }
    same(
        "module m(input clk, rst_ni, flush_i, a); \
         a1: assert property (@(posedge clk) disable iff ((!rst_ni || flush_i) !== '0) a); \
         endmodule",
        0,
        "a1: assert property (@(posedge clk) disable iff (!rst_ni || flush_i) a);",
    );
    let d = read(
        "module m(input clk, rst_ni, flush_i, a); default disable iff (!rst_ni || flush_i); \
         a1: assert property (@(posedge clk) a); endmodule",
    );
    let dis = d.assertions[0].directive.disable.as_ref().unwrap();
    assert_eq!(dis.signal(), None);
    assert!(!dis.synchronous);
}

fn read_with(source: &str, options: &Options) -> Design {
    read_str(source, "t.sv", options).unwrap_or_else(|e| panic!("{e}"))
}

/// Generate loops, `if` and `case` around assertions are unrolled with
/// the module's parameters (defaults, or `Options::parameter`): one
/// assertion per iteration, its genvar replaced, named as a simulator
/// names the blocks (`g[1].`, `genblk2.`, §27.6).
#[test]
fn generate_blocks_are_unrolled_with_the_parameters() {
    let src =
        "module m #(parameter N = 2, parameter MODE = 1) (input clk, rst_ni, input [3:0] req, gnt);
  localparam int LAST = N - 1;
  default clocking @(posedge clk); endclocking
  default disable iff (!rst_ni);
  for (genvar i = 0; i < N; i++) begin : g
    a_gnt: assert property (req[i] |=> gnt[i]);
    if (i == LAST) begin : last
      a_top: assert property (gnt[i] |-> req[i]);
    end
  end
  if (MODE == 0) begin
    a_zero: assert property (!gnt[0]);
  end else if (MODE == 1) begin
    a_one: assert property (gnt[0] |-> req[0]);
  end
  // (sv-parser 0.13 refuses a `begin` block as a case generate item.)
  case (N)
    1, 2: a_small: assert property (!gnt[3]);
    default: a_big: assert property (gnt[3] |-> req[3]);
  endcase
endmodule";
    let d = read(src);
    let names: Vec<String> = d
        .assertions
        .iter()
        .map(|a| format!("{}{}", a.scope, a.directive.label.as_deref().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            "g[0].a_gnt",
            "g[1].a_gnt",
            "g[1].last.a_top",
            "genblk2.a_one",
            "genblk3.a_small"
        ]
    );
    let header = "default clocking @(posedge clk); endclocking default disable iff (!rst_ni);";
    same(
        src,
        1,
        &format!("{header} a_gnt: assert property (req[1] |=> gnt[1]);"),
    );
    same(
        src,
        2,
        &format!("{header} a_top: assert property (gnt[1] |-> req[1]);"),
    );
    // -P: four iterations, the other branches.
    let d = read_with(
        src,
        &Options::new().parameter("N", "4").parameter("MODE", "0"),
    );
    let names: Vec<String> = d
        .assertions
        .iter()
        .map(|a| format!("{}{}", a.scope, a.directive.label.as_deref().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            "g[0].a_gnt",
            "g[1].a_gnt",
            "g[2].a_gnt",
            "g[3].a_gnt",
            "g[3].last.a_top",
            "genblk2.a_zero",
            "genblk3.a_big"
        ]
    );
    // The design keeps its generate constructs, without the assertions.
    let plain = d.without_assertions(|_| None);
    assert!(
        plain.contains("for (genvar i = 0; i < N; i++) begin : g"),
        "{plain}"
    );
    assert!(!plain.contains("assert"), "{plain}");
}

/// Nested loops and steps other than `++`, each genvar replaced in its
/// scope.
#[test]
fn nested_loops_and_their_steps() {
    let src = "module m (input clk, input [15:0] v);
  genvar i, j;
  generate
    for (i = 3; i >= 0; i -= 2) begin : outer
      for (j = 1; j < 4; j = j * 2) begin : inner
        p: assert property (@(posedge clk) v[j] |=> v[i]);
      end
    end
  endgenerate
endmodule";
    let d = read(src);
    let scopes: Vec<&str> = d.assertions.iter().map(|a| a.scope.as_str()).collect();
    assert_eq!(
        scopes,
        [
            "outer[3].inner[1].",
            "outer[3].inner[2].",
            "outer[1].inner[1].",
            "outer[1].inner[2]."
        ]
    );
    same(src, 1, "p: assert property (@(posedge clk) v[2] |=> v[3]);");
}

/// What cannot be unrolled exactly is refused, where it is written.
#[test]
fn generate_constructs_that_cannot_be_unrolled_are_refused() {
    for (src, says) in [
        (
            "module m #(parameter N) (input clk, a);
  for (genvar i = 0; i < N; i++) begin : g assert property (@(posedge clk) a); end
endmodule",
            "no default value",
        ),
        (
            "module m (input clk, a);
  for (genvar i = 0; i < W; i++) begin : g assert property (@(posedge clk) a); end
endmodule",
            "`W` is not a parameter",
        ),
        (
            "module m (input clk, a);
  for (genvar i = 0; i < 2; i++) assert property (@(posedge clk) a);
endmodule",
            "whose block has no name",
        ),
        (
            "module m (input clk, a);
  for (genvar i = 0; i < 2; i = i) begin : g assert property (@(posedge clk) a); end
endmodule",
            "does not end",
        ),
        (
            "module m (input clk, a);
  for (genvar i = 0; i < 100000; i++) begin : g assert property (@(posedge clk) a); end
endmodule",
            "more than 10000 generate blocks",
        ),
        (
            "module m (input clk, a);
  if (1) begin always @(posedge clk) assert property (a); end
endmodule",
            "only concurrent assertions that are items",
        ),
        (
            "module m (input clk, a);
  if (4'bx1 == 1) begin assert property (@(posedge clk) a); end
endmodule",
            "not a constant integer",
        ),
    ] {
        let e = refused(src);
        assert!(e.message().contains(says), "{says}: {e}");
        assert!(e.location().is_some(), "{e}");
    }
    // A generate construct without assertions is not evaluated.
    let d = read(
        "module m #(parameter N) (input clk, a);
  for (genvar i = 0; i < N; i++) begin : g wire w = a; end
  assert property (@(posedge clk) a);
endmodule",
    );
    assert_eq!(d.assertions.len(), 1);
}

/// The assertion `k` of `design` is the directive `expected` read with
/// the declarations `signals` given by hand.
fn same_with(design: &Design, k: usize, expected: &str, signals: &Signals) {
    let got = &design.assertions[k].directive;
    let want = parse_sva_directive_with(expected, signals).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got.label, want.label, "{expected}");
    assert_eq!(
        got.formula, want.formula,
        "{expected}\n(read: {})",
        design.assertions[k].text
    );
    assert_eq!(
        got.clock.as_ref().map(|c| c.to_string()),
        want.clock.as_ref().map(|c| c.to_string()),
        "{expected}"
    );
}

/// The widths of a module's ports, variables, nets and packed types,
/// computed with its parameters, are given to the SVA front end: the
/// reductions, `$onehot0`, bit selects and comparisons of vectors read
/// as with the same declarations given by hand.
#[test]
fn vector_signals_are_read_with_their_declared_widths() {
    let src = "
module m #(parameter int unsigned N = 4, localparam int unsigned IdxW = unsigned'($clog2(N)),
           parameter type data_t = logic [2*N-1:0])
  (input logic clk, rst_n, input logic [N-1:0] req, output logic [N-1:0] gnt,
   input wire [7:0] data, output data_t out);
  typedef logic [IdxW-1:0] idx_t;
  idx_t idx;
  logic [3:0] cnt, cnt_q;
  bit signed [7:0] delta;
  int count;
  a_red: assert property (@(posedge clk) |req |-> ##1 |gnt);
  a_one: assert property (@(posedge clk) $onehot0(gnt));
  a_bit: assert property (@(posedge clk) gnt[2] |-> req[2] && !gnt[3]);
  a_past: assert property (@(posedge clk) !(|req) |=> $past(cnt) == cnt);
  a_stable: assert property (@(posedge clk) $stable(data) && $stable(out));
  a_count: assert property (@(posedge clk) $countones(req) <= 1 && &idx |-> delta < 0);
  a_int: assert property (@(posedge clk) $stable(count) |-> cnt_q != cnt);
endmodule";
    let signals = Signals::new()
        .scalar("clk")
        .scalar("rst_n")
        .vector("req", 3, 0)
        .vector("gnt", 3, 0)
        .vector("data", 7, 0)
        .vector("out", 7, 0)
        .vector("idx", 1, 0)
        .vector("cnt", 3, 0)
        .vector("cnt_q", 3, 0)
        .signed_vector("delta", 7, 0)
        .signed_vector("count", 31, 0);
    let design = read(src);
    assert_eq!(design.assertions.len(), 7);
    for (k, expected) in [
        "a_red: assert property (@(posedge clk) |req |-> ##1 |gnt);",
        "a_one: assert property (@(posedge clk) $onehot0(gnt));",
        "a_bit: assert property (@(posedge clk) gnt[2] |-> req[2] && !gnt[3]);",
        "a_past: assert property (@(posedge clk) !(|req) |=> $past(cnt) == cnt);",
        "a_stable: assert property (@(posedge clk) $stable(data) && $stable(out));",
        "a_count: assert property (@(posedge clk) $countones(req) <= 1 && &idx |-> delta < 0);",
        "a_int: assert property (@(posedge clk) $stable(count) |-> cnt_q != cnt);",
    ]
    .into_iter()
    .enumerate()
    {
        same_with(&design, k, expected, &signals);
        // Without the widths, the front end refuses these or reads them
        // otherwise; but `|v` is `v != 0` and `v[2]` the bit at any
        // width.
        if k <= 2 {
            continue;
        }
        assert_ne!(
            parse_sva_directive(expected)
                .map(|d| d.formula)
                .ok()
                .as_ref(),
            Some(&design.assertions[k].directive.formula),
            "{expected}"
        );
    }
}

/// Non-ANSI ports and their nets, with a parameter's default and with
/// `-P`: the widths follow the parameter.
#[test]
fn parameters_and_overrides_change_the_widths() {
    let src = "
module n(clk, a, b);
  parameter W = 3;
  localparam int unsigned H = W + 1;
  input clk;
  input [W-1:0] a;
  output [H-1:0] b;
  wire [H-1:0] b;
  assert property (@(posedge clk) &a |=> $onehot(b));
endmodule";
    let expected = "assert property (@(posedge clk) &a |=> $onehot(b));";
    let by_default = read(src);
    same_with(
        &by_default,
        0,
        expected,
        &Signals::new()
            .scalar("clk")
            .vector("a", 2, 0)
            .vector("b", 3, 0),
    );
    let given = read_with(src, &Options::new().parameter("W", "5"));
    same_with(
        &given,
        0,
        expected,
        &Signals::new()
            .scalar("clk")
            .vector("a", 4, 0)
            .vector("b", 5, 0),
    );
    assert_ne!(
        by_default.assertions[0].directive.formula,
        given.assertions[0].directive.formula
    );
}

/// A signal whose width mongen cannot compute (a range of an unknown
/// name, a struct, several packed dimensions, an unpacked array, two
/// declarations that disagree, a local variable) is left out: its
/// vector uses are refused, pointing at the signal.
#[test]
fn signals_of_unknown_width_are_refused_in_vector_uses() {
    // The module declares it, with a type that is not read; or not at
    // all (a function's local variable).
    let declared = "`v` is declared with a type whose width mongen does not compute";
    let undeclared = "the width of `v` is not known";
    for (declaration, name, message) in [
        ("logic [M-1:0] v;", "v", declared),
        ("struct packed { logic a; logic b; } v;", "v", declared),
        ("logic [1:0][3:0] v;", "v", declared),
        ("logic [3:0] v [2];", "v", declared),
        (
            "typedef struct packed { logic a; } s_t; s_t v;",
            "v",
            declared,
        ),
        ("logic [unsigned'(-1):0] v;", "v", declared),
        (
            "function automatic f(); logic [3:0] v; endfunction",
            "v",
            undeclared,
        ),
    ] {
        let src = format!(
            "module m(input logic clk);\n  {declaration}\n  \
             assert property (@(posedge clk) &{name});\nendmodule"
        );
        let e = first_error(read_str(&src, "t.sv", &Options::new()));
        assert!(e.message().contains(message), "{declaration}: {e}");
        assert_eq!(e.location().unwrap().line, 3, "{declaration}: {e}");
    }
    // Declared twice with different widths.
    let e = refused(
        "module m(clk, v);\n  input clk;\n  input [3:0] v;\n  wire [4:0] v;\n  \
         assert property (@(posedge clk) &v);\nendmodule",
    );
    assert!(e.message().contains(declared), "{e}");
}

/// Casts in the constant expressions of generate constructs and ranges
/// (PULP's `if (NumIn == unsigned'(1))`, `unsigned'($clog2(NumIn))`).
#[test]
fn casts_in_generate_conditions_and_ranges() {
    let src = "
module m #(parameter int unsigned NumIn = 4,
           parameter int unsigned IdxWidth = (NumIn > 32'd1) ? unsigned'($clog2(NumIn)) : 32'd1,
           parameter type idx_t = logic [IdxWidth-1:0])
  (input logic clk, input logic [NumIn-1:0] gnt_o, output idx_t idx_o);
  if (NumIn == unsigned'(1)) begin : gen_pass_through
  end else begin : gen_arbiter
    hot_one: assert property (@(posedge clk) $onehot0(gnt_o));
    stable: assert property (@(posedge clk) $stable(idx_o));
  end
endmodule";
    for (n, idx) in [(4u32, 1u32), (5, 2), (64, 5)] {
        let d = read_with(src, &Options::new().parameter("NumIn", &n.to_string()));
        assert_eq!(d.assertions.len(), 2);
        assert_eq!(d.assertions[0].scope, "gen_arbiter.");
        let signals = Signals::new()
            .scalar("clk")
            .vector("gnt_o", n - 1, 0)
            .vector("idx_o", idx, 0);
        same_with(
            &d,
            0,
            "hot_one: assert property (@(posedge clk) $onehot0(gnt_o));",
            &signals,
        );
        same_with(
            &d,
            1,
            "stable: assert property (@(posedge clk) $stable(idx_o));",
            &signals,
        );
    }
    let one = read_with(src, &Options::new().parameter("NumIn", "1"));
    assert!(one.assertions.is_empty());
}

/// A signal declared with a type whose width is not computed is refused
/// wherever the property reads it — also where its name alone would have
/// been read as one bit (a condition, `$stable`, `$onehot`, a member, a
/// comparison), which a checker's port of one bit would cut — with the
/// caret on the signal.
#[test]
fn signals_of_unknown_width_are_refused_wherever_they_are_read() {
    for (property, column) in [
        ("s |-> ack", 38),
        ("$stable(s)", 46),
        ("$changed(s) |-> ack", 47),
        ("$onehot(s)", 46),
        ("ack |-> s.a == 3", 46),
        ("ack |-> s == 3", 46),
        ("ack |=> $past(s) == s", 52),
        ("$rose(s)", 44),
        ("ack |-> s[2]", 46),
    ] {
        let src = format!(
            "module m(input logic clk, ack);\n  struct packed {{ logic [3:0] a; logic [3:0] b; }} \
             s;\n  p: assert property (@(posedge clk) {property});\nendmodule"
        );
        let e = first_error(read_str(&src, "t.sv", &Options::new()));
        assert!(
            e.message()
                .contains("`s` is declared with a type whose width mongen does not compute"),
            "{property}: {e}"
        );
        let at = e.location().unwrap();
        assert_eq!((at.line, at.column), (3, column), "{property}: {e}");
    }
    // In the reset too.
    let e = refused(
        "module m(input logic clk, ack);\n  logic [1:0][1:0] r;\n  \
         p: assert property (@(posedge clk) disable iff (r) ack);\nendmodule",
    );
    assert!(e.message().contains("`r` is declared with a type"), "{e}");
}

/// A vector alone as a condition is true when a bit is set (IEEE
/// 1800-2017 §12.4): `v != 0`, not its bit 0.
#[test]
fn a_vector_as_a_condition_is_compared_with_zero() {
    let design = read(
        "module m(input logic clk, ack, input logic [7:0] v, input logic [0:0] w);\n  \
         p: assert property (@(posedge clk) v && w |-> ack);\n  \
         q: assert property (@(posedge clk) !$isunknown(v));\nendmodule",
    );
    let signals = Signals::new()
        .vector("v", 7, 0)
        .vector("w", 0, 0)
        .scalar("ack")
        .scalar("clk");
    same_with(
        &design,
        0,
        "p: assert property (@(posedge clk) v != 0 && w |-> ack);",
        &signals,
    );
    // `$isunknown(v)` reads the vector itself.
    same_with(
        &design,
        1,
        "q: assert property (@(posedge clk) !$isunknown(v));",
        &signals,
    );
    let f = design.assertions[1].directive.formula.to_string();
    assert!(f.contains("$isunknown(v)") && !f.contains("!= 0"), "{f}");
}

/// The module's parameters of integer value are constants in its
/// properties, as in the design (with `-P`'s values), not signals: a
/// parameter read as a signal would become a checker port of one bit.
#[test]
fn parameters_are_constants_in_properties() {
    let src = "module m #(parameter N = 3, parameter bit LOCK = 1'b1, localparam M = N + 1)\n  \
               (input logic clk, ack, input logic [7:0] v);\n  \
               p: assert property (@(posedge clk) LOCK && v < N |-> ##M ack);\n  \
               q: assert property (@(posedge clk) $past(v, N) != M);\nendmodule";
    let signals = Signals::new().vector("v", 7, 0).scalar("ack").scalar("clk");
    let design = read(src);
    same_with(
        &design,
        0,
        "p: assert property (@(posedge clk) 1 && v < 3 |-> ##4 ack);",
        &signals,
    );
    same_with(
        &design,
        1,
        "q: assert property (@(posedge clk) $past(v, 3) != 4);",
        &signals,
    );
    let design = read_str(src, "t.sv", &Options::new().parameter("N", "5")).unwrap();
    same_with(
        &design,
        0,
        "p: assert property (@(posedge clk) 1 && v < 5 |-> ##6 ack);",
        &signals,
    );
    // An error after a substituted name still points into the file.
    let e = refused(
        "module m #(parameter N = 3) (input logic clk, a);\n  \
         p: assert property (@(posedge clk) a ##N a ##1 a.triggered);\nendmodule",
    );
    let at = e.location().unwrap();
    assert_eq!((at.line, at.column), (2, 50), "{e}");
}

/// A refused assertion's error names its label, whose terminal escapes
/// (an escaped identifier holds any bytes) are shown as `?`.
#[test]
fn a_refused_assertion_is_named_by_its_label_without_escapes() {
    let design = read_str(
        "module m(input clk, a);\n  \\bad\u{1b}[31m\"x : assert property (@(posedge clk) a.triggered);\n  \
         ok: assert property (@(posedge clk) a);\nendmodule\n",
        "t.sv",
        &Options::new(),
    )
    .unwrap();
    assert_eq!(design.assertions.len(), 1);
    let e = design.refused[0].to_string();
    assert!(e.contains("`\\bad?[31m\"x`: "), "{e}");
    assert_eq!(design.refused[0].label(), Some("\\bad?[31m\"x"));
    assert!(!e.contains('\u{1b}'), "{e}");
}
