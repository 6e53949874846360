"""The Python package against the command line it wraps: the same
monitors (stepped here, checked there), the same reports, the same
emitted text; and the errors a Python user makes."""

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

import mongen

ROOT = Path(__file__).resolve().parents[2]
MONGEN = os.environ.get("MONGEN_BIN", str(ROOT / "target" / "release" / "mongen"))
LOGS = ROOT / "examples" / "logs"
DEFINES = {
    "req": 'event == "request"',
    "resp": 'event == "response"',
    "err": 'level == "ERROR"',
    "slow": "latency_ms > 500",
}
SERVICE_PROPERTIES = [
    line
    for line in (LOGS / "service.ltl").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def cli(*args):
    out = subprocess.run([MONGEN, *args], capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def defines_args(defines):
    return [a for k, v in defines.items() for a in ("--define", f"{k}={v}")]


def test_step_run_and_violation():
    m = mongen.compile("G(req -> X ack)")
    assert m.propositions == ["req", "ack"]
    assert m.is_safety is True
    assert m.verdict == "holds"
    assert m.step({"req": True, "ack": False}) == "holds"
    # A sequence in the order of the propositions; any truthy value.
    assert m.step([0, 0]) == "violated"
    v = m.violation
    assert v.position == 1
    assert (v.after, v.letters, v.shortest) == ("req", "!ack", "req; !ack")
    assert "violated at step 1" in v.explanation
    # Sticky until reset.
    assert m.step([0, 1]) == "violated" and m.position == 3
    m.reset()
    assert (m.verdict, m.position, m.violation) == ("holds", 0, None)
    # run stops at the violation.
    events = iter([{"req": 1, "ack": 0}, {"req": 0, "ack": 0}, {"req": 0, "ack": 0}])
    assert m.run(events) == "violated"
    assert m.position == 2 and next(events) == {"req": 0, "ack": 0}


def test_three_verdicts_and_psl():
    m = mongen.compile("F done", verdicts=3)
    assert m.is_safety is False
    assert m.run([{"done": False}] * 3) == "undecided"
    assert m.step({"done": True}) == "satisfied"
    p = mongen.compile("always {req} |=> {ack}", psl=True)
    assert p.formula == "always {req} |=> {ack}"
    assert p.run([{"req": 1, "ack": 0}, {"req": 0, "ack": 0}]) == "violated"


def test_errors():
    with pytest.raises(ValueError, match=r"column 7") as e:
        mongen.compile("G(a ->")
    assert "\n  G(a ->\n        ^" in str(e.value)
    with pytest.raises(ValueError, match="exceeds"):
        mongen.compile("G(a -> X X X X X X X X b)", max_states=10)
    pending = " & ".join(f"G(a{i} -> X b{i})" for i in range(8))
    assert mongen.compile(pending).num_states == 256
    with pytest.raises(ValueError, match="needs more than 1 MiB of memory"):
        mongen.compile(pending, max_memory=1 << 20)
    with pytest.raises(ValueError, match="verdicts is 2 or 3"):
        mongen.compile("G a", verdicts=4)
    m = mongen.compile("G(a -> b)")
    with pytest.raises(KeyError, match="proposition `b`"):
        m.step({"a": True})
    with pytest.raises(ValueError, match="2 propositions"):
        m.step([True])
    with pytest.raises(TypeError):
        m.step("ab")
    with pytest.raises(ValueError, match="no property has a proposition"):
        mongen.check(LOGS / "service.csv", "G !err", defines={"nope": "status > 1", **DEFINES})
    with pytest.raises(ValueError, match="unknown trace format"):
        mongen.check(LOGS / "service.ltl", "G a")
    with pytest.raises(OSError, match="cannot read"):
        mongen.check("/nonexistent.csv", "G a")


def test_check_has_the_budget_of_compile():
    # mongen.check builds each property's monitor within max_memory bytes
    # (`mongen check --max-memory`, 1 GiB by default), as compile does.
    assert mongen.DEFAULT_MAX_MEMORY == 1 << 30
    pending = " & ".join(f"G(a{i} -> X b{i})" for i in range(8))
    import pyarrow as pa

    names = [f"{x}{i}" for i in range(8) for x in "ab"]
    table = pa.table({n: [True, True] for n in names})
    [report] = mongen.check(table, pending)
    assert report["verdict"] == "holds" and report["events"] == 2
    with pytest.raises(ValueError, match=r"^G\(a0 -> X b0\) & .*: the construction needs more than 1 MiB of memory"):
        mongen.check(table, pending, max_memory=1 << 20)
    # Trace files too, before a line is read.
    with pytest.raises(ValueError, match="needs more than 1 MiB of memory"):
        mongen.check(LOGS / "service.csv", [SERVICE_PROPERTIES[0], pending], max_memory=1 << 20)
    [report] = mongen.check(table, pending, max_memory=64 << 20)
    assert report["verdict"] == "holds"
    # Below the smallest budget, as `--max-memory`: refused, not a crash.
    for small in (0, 16000):
        with pytest.raises(ValueError, match="less than the smallest budget, 1 MiB"):
            mongen.check(table, pending, max_memory=small)
        with pytest.raises(ValueError, match="less than the smallest budget, 1 MiB"):
            mongen.compile("G a", max_memory=small)


@pytest.mark.parametrize("trace", ["service.csv", "service.jsonl"])
@pytest.mark.parametrize("extra", [[], ["--all"], ["--verdicts", "3"]])
def test_check_reports_are_the_commands(trace, extra):
    kwargs = {"all": "--all" in extra, "verdicts": 3 if "--verdicts" in extra else 2}
    ours = mongen.check(LOGS / trace, SERVICE_PROPERTIES, defines=DEFINES, **kwargs)
    args = ["check", "--json", "-q", *extra, *defines_args(DEFINES)]
    for p in SERVICE_PROPERTIES:
        args += ["-f", p]
    theirs = [json.loads(l) for l in cli(*args, str(LOGS / trace)).splitlines()]
    for r in theirs:
        r["trace"] = str(LOGS / trace)
    assert ours == theirs
    assert {r["verdict"] for r in ours} >= {"violated"}


VCD = """$timescale 1ns $end
$scope module tb $end
$var wire 1 ! clk $end
$var wire 1 " req $end
$var wire 1 # ack $end
$upscope $end
$enddefinitions $end
#0
0!
0"
0#
#5
1!
#10
0!
1"
#15
1!
#20
0!
0"
#25
1!
#30
0!
#35
1!
"""


def test_check_a_vcd_at_its_clock(tmp_path):
    # req is sampled high at the edge of 15, ack low at 25: violated at
    # the third edge (event 2).
    vcd = tmp_path / "bus.vcd"
    vcd.write_text(VCD)
    ours = mongen.check(vcd, ["G(req -> X ack)"], clock="clk")
    assert ours[0]["verdict"] == "violated" and ours[0]["violations"][0]["index"] == 2
    args = ["check", "--json", "-q", "--clock", "clk", "-f", "G(req -> X ack)", str(vcd)]
    assert ours == [json.loads(l) for l in cli(*args).splitlines()]
    with pytest.raises(ValueError, match="for VCD waveforms"):
        mongen.check(LOGS / "service.csv", "G !err", defines={"err": DEFINES["err"]}, clock="clk")


def test_monitors_agree_with_check_on_random_traces(tmp_path):
    # Random CSV traces over three fields: the Python monitor, stepped
    # event by event, and `mongen check` find the same first violation.
    rng = random.Random(7)
    formulas = [
        "G(a -> X(b | c))",
        "G((a & !b) -> (c S a))",
        "!b W (a & X c)",
        "G(a -> (b R c))",
        "G((a & X a) -> XX !c)",
    ]
    for k in range(40):
        f = formulas[k % len(formulas)]
        rows = [[rng.random() < 0.5 for _ in range(3)] for _ in range(rng.randrange(1, 30))]
        path = tmp_path / f"t{k}.csv"
        path.write_text("a,b,c\n" + "".join(",".join(str(int(x)) for x in r) + "\n" for r in rows))
        m = mongen.compile(f)
        verdict = m.run({"a": r[0], "b": r[1], "c": r[2]} for r in rows)
        [report] = mongen.check(path, f)
        assert report["verdict"] == verdict, (f, rows)
        if verdict == "violated":
            assert report["violations"][0]["index"] == m.violation.position, (f, rows)
            [cmd] = [json.loads(l) for l in cli("check", "--json", "-q", "-f", f, str(path)).splitlines()]
            assert cmd["violations"][0]["index"] == m.violation.position


@pytest.mark.parametrize(
    "target,args",
    [
        ("hoa", ["-t", "hoa"]),
        ("json", ["-t", "json"]),
        ("dot", ["-t", "dot"]),
        ("promela", ["-t", "promela", "--name", "monitor"]),
        ("smv", ["-t", "smv", "--name", "monitor"]),
        ("verilog", ["-t", "verilog", "--name", "monitor"]),
        ("sva", ["-t", "sva", "--name", "monitor"]),
        ("systemc", ["-t", "systemc", "--name", "monitor"]),
        ("rust", ["-t", "rust", "--name", "monitor"]),
    ],
)
def test_emit_is_what_compile_writes(target, args):
    f = "G(req -> X(ack | X ack))"
    m = mongen.compile(f)
    assert m.emit(target) == cli("compile", "-q", *args, f)


def test_docstring_examples():
    import doctest

    assert doctest.testmod(mongen).failed == 0


def test_to_json_and_hoa():
    m = mongen.compile("G(req -> X ack)")
    j = m.to_json()
    assert j["aps"] == ["req", "ack"] and j["safety"] is True
    assert m.to_hoa().startswith("HOA: v1\n")
    with pytest.raises(ValueError, match="unknown target"):
        m.emit("vhdl")


def test_bad_input_loses_nothing(tmp_path):
    good = tmp_path / "good.csv"
    good.write_text("a\n0\n1\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("a\n0\n1\n0\nmaybe\n1\n")
    with pytest.raises(mongen.TraceReadError, match="line 5") as e:
        mongen.check([str(good), str(bad)], "G !a")
    assert isinstance(e.value, ValueError)
    first, second = e.value.reports
    assert (first["trace"], first["verdict"], "complete" in first) == (str(good), "violated", False)
    assert (second["trace"], second["verdict"], second["events"]) == (str(bad), "violated", 3)
    assert second["complete"] is False and second["violations"][0]["line"] == 3
    # Before the first event there is nothing to report.
    with pytest.raises(mongen.TraceReadError) as e:
        mongen.check(str(good), "G !c")
    assert e.value.reports == []


# SVA (sva=True): assertions read as `mongen --sva` reads them, their
# property checked at every event.
SVA_DECLS = "sequence answered(r, a = resp); r ##[1:2] a; endsequence "
SVA_PROPERTIES = [
    "req |-> ##[1:2] (resp || err)",
    SVA_DECLS + "p_answer: assert property (answered(.r(req), .a(resp || err)) or !req);",
    "$rose(err) |=> !err || slow",
    "req |=> !req until_with resp",
]


def test_sva_compile_is_what_the_command_compiles():
    f = "req |-> ##[1:3] ack"
    m = mongen.compile(f, sva=True)
    assert m.formula == f and m.propositions == ["req", "ack"]
    assert m.emit("hoa") == cli("compile", "-q", "--sva", "-t", "hoa", f)
    assert m.emit("json") == cli("compile", "-q", "--sva", "-t", "json", "--name", "monitor", f)
    # Checked at every event: the second request is not answered.
    idle = {"req": 0, "ack": 0}
    assert m.run([{"req": 1, "ack": 0}, {"req": 0, "ack": 1}, {"req": 1, "ack": 0}, idle, idle]) == "holds"
    assert m.step(idle) == "violated" and m.violation.position == 5
    # Declarations, named arguments, a whole assertion: the property is
    # reported as written.
    text = "sequence s(x, y = ack); x ##1 y; endsequence a1: assert property (s(.x(req)) |=> done);"
    m = mongen.compile(text, sva=True)
    assert m.formula == "s(.x(req)) |=> done"
    unnamed = lambda m: m.emit("hoa").split("\n", 2)[2]
    assert unnamed(m) == unnamed(mongen.compile("req ##1 ack |=> done", sva=True))
    assert m.emit("hoa") == cli("compile", "-q", "--sva", "-t", "hoa", text)
    # disable iff: the attempts the reset meets are disabled.
    r = mongen.compile("disable iff (rst) req |=> ack", sva=True)
    assert r.run([{"req": 1, "ack": 0, "rst": 0}, {"req": 0, "ack": 0, "rst": 1}]) == "holds"
    r.reset()
    assert r.run([{"req": 1, "ack": 0, "rst": 0}, {"req": 0, "ack": 0, "rst": 0}]) == "violated"
    # The keyword is sva: psl's positional place is kept for old callers.
    assert mongen.compile("always {req} |=> {ack}", True).formula == "always {req} |=> {ack}"


def test_sva_errors():
    with pytest.raises(ValueError, match="one of them"):
        mongen.compile("a", psl=True, sva=True)
    with pytest.raises(ValueError, match="one of them"):
        mongen.check(LOGS / "service.csv", "!err", defines=DEFINES, psl=True, sva=True)
    # A syntax error with its column and caret.
    text = "sequence s(x, y); x ##1 y; endsequence s(.x(a), b)"
    with pytest.raises(ValueError, match="positional argument after a named one") as e:
        mongen.compile(text, sva=True)
    assert f"column {text.rindex('b)') + 1}" in str(e.value)
    assert "\n  " + text + "\n" + " " * (text.rindex("b)") + 2) + "^" in str(e.value)
    with pytest.raises(ValueError, match=r"the clock `@\(posedge clk\)` is for checking a VCD"):
        mongen.compile("@(posedge clk) req |=> ack", sva=True)
    with pytest.raises(ValueError, match="a cover reports the matches"):
        mongen.compile("cover property (req ##1 ack);", sva=True)
    with pytest.raises(ValueError, match="a cover reports the matches"):
        mongen.check(LOGS / "service.csv", "cover property (req ##1 resp);", defines=DEFINES, sva=True)
    # LTL is not SVA.
    with pytest.raises(ValueError, match="column"):
        mongen.compile("G(req -> X ack)", sva=True)


@pytest.mark.parametrize("trace", ["service.csv", "service.jsonl"])
def test_sva_check_reports_are_the_commands(trace):
    ours = mongen.check(LOGS / trace, SVA_PROPERTIES, defines=DEFINES, all=True, sva=True)
    args = ["check", "--json", "-q", "--sva", "--all", *defines_args(DEFINES)]
    for p in SVA_PROPERTIES:
        args += ["-f", p]
    theirs = [json.loads(l) for l in cli(*args, str(LOGS / trace)).splitlines()]
    for r in theirs:
        r["trace"] = str(LOGS / trace)
    assert ours == theirs
    assert ours[1]["property"] == "answered(.r(req), .a(resp || err)) or !req"
    assert {r["verdict"] for r in ours} >= {"violated"}


def test_sva_check_a_vcd_at_the_assertions_clock(tmp_path):
    # The assertion's clock samples the waveform, as `mongen check --sva`
    # does: req high at the edge of 15, ack low at 25.
    vcd = tmp_path / "bus.vcd"
    vcd.write_text(VCD)
    a = "a1: assert property (@(posedge clk) req |=> ack);"
    ours = mongen.check(vcd, a, sva=True)
    assert ours[0]["verdict"] == "violated" and ours[0]["violations"][0]["index"] == 2
    assert ours == [json.loads(l) for l in cli("check", "--json", "-q", "--sva", "-f", a, str(vcd)).splitlines()]
    def unnamed(reports):
        return [{k: v for k, v in r.items() if k != "property"} for r in reports]

    assert unnamed(ours) == unnamed(mongen.check(vcd, "req |=> ack", sva=True, clock="clk"))
    # Another clock given wins, as --clock does.
    negedge = mongen.check(vcd, a, sva=True, clock="clk:negedge")
    assert unnamed(negedge) == unnamed(mongen.check(vcd, "req |=> ack", sva=True, clock="clk:negedge"))
    assert unnamed(negedge) != unnamed(ours)
    with pytest.raises(ValueError, match="two clocks"):
        mongen.check(vcd, [a, "@(negedge clk) req |=> ack"], sva=True)
    # Elsewhere the events are the ticks: the clock is refused.
    import pyarrow as pa

    with pytest.raises(ValueError, match=r"clock `@\(posedge clk\)` samples VCD waveforms"):
        mongen.check(pa.table({"req": [True], "ack": [True]}), a, sva=True)
    with pytest.raises(ValueError, match=r"clock `@\(posedge clk\)` samples VCD waveforms"):
        mongen.check(LOGS / "service.csv", a, defines={"ack": DEFINES["resp"], "req": DEFINES["req"]}, sva=True)


def test_sva_monitors_agree_with_check_on_random_traces(tmp_path):
    # As for LTL: the Python monitor, Arrow data and `mongen check --sva`
    # find the same first violation.
    import pyarrow as pa

    rng = random.Random(29)
    formulas = [
        "a |-> ##[1:2] (b || c)",
        "sequence s(x, y = c); x ##1 y[*1:2]; endsequence s(.x(a), .y(b)) |=> !c",
        "$rose(a) |=> b until_with c",
        "disable iff (c) a ##1 b |-> ##1 !a",
        "(a ##1 b) intersect (a[*2]) |-> c or nexttime c",
    ]
    for k in range(40):
        f = formulas[k % len(formulas)]
        rows = [[rng.random() < 0.5 for _ in range(3)] for _ in range(rng.randrange(1, 30))]
        path = tmp_path / f"t{k}.csv"
        path.write_text("a,b,c\n" + "".join(",".join(str(int(x)) for x in r) + "\n" for r in rows))
        m = mongen.compile(f, sva=True)
        verdict = m.run({"a": r[0], "b": r[1], "c": r[2]} for r in rows)
        [report] = mongen.check(path, f, sva=True)
        table = pa.table({n: [r[i] for r in rows] for i, n in enumerate("abc")})
        [arrow] = mongen.check(table, f, sva=True)
        assert report["verdict"] == verdict == arrow["verdict"], (f, rows)
        # The command line refuses a disable iff on other traces than
        # waveforms (it restarts its checkers at the reset there).
        if verdict == "violated":
            assert report["violations"][0]["index"] == m.violation.position, (f, rows)
            assert arrow["violations"][0]["index"] == m.violation.position, (f, rows)
        if verdict == "violated" and "disable iff" not in f:
            [cmd] = [
                json.loads(l)
                for l in cli("check", "--json", "-q", "--sva", "-f", f, str(path)).splitlines()
            ]
            assert cmd["violations"][0]["index"] == m.violation.position
