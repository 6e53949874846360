"""Timed past properties (`mongen check --time`) against reelay's
discrete-time monitors (PyPI `reelay`, `reelay.discrete_timed_monitor`),
on random past metric formulas and random traces.

What reelay's discrete time means: its discrete-timed network ticks its
clock by one at each `update` and ignores any time field of the input
(reelay's `discrete_timed_network::update`), so `once[a:b] p` holds at the
i-th update if `p` held at an update i-b to i-a. mongen's meaning is the
point-based one over the events' times; with one event per time unit
(times 0, 1, 2, ... in some unit) the two are the same, and so are `Y`
(reelay's `pre`: false at the first event), the untimed `O`, `H`, `S`,
and the Boolean connectives.

The comparison: for each formula f, reelay's value of f at every event is
written into the trace as a column `v`, and mongen checks `G(f <-> v)`:
it holds iff mongen's value of f equals reelay's at every event, and
otherwise its first violation is the first event where they differ. (Not
`--all` violation positions of `G(f)`: `--all` restarts the monitor after
each violation, forgetting the past that `Y`, `O` and `S` read.) One
`mongen check` run checks all the formulas of a trace, one property each.

Bounds are drawn with an upper bound of at least 1: reelay reads an upper
bound of 0 as none (`once[0:0] p` is its `once p`; `once[1:0] p` its
`once[1:] p`), where mongen's `O[0:0] p` is `p`.

A reference evaluator written from the definitions here (quadratic, one
subformula at a time) is the third voice when they disagree, and checks
mongen alone on traces with gaps and equal times, which reelay's discrete
time cannot express.

This module fails (it does not skip) when reelay is not installed or the
mongen binary (`MONGEN_BIN`) is missing.
"""

import csv
import json
import os
import random
import subprocess
from pathlib import Path

import reelay

ROOT = Path(__file__).resolve().parents[2]
MONGEN = os.environ.get("MONGEN_BIN", str(ROOT / "target" / "release" / "mongen"))
ATOMS = ("p", "q", "r")
# The time field's unit and the nanoseconds in one of it; the traces'
# unit of time is one second, written in the field's unit.
UNITS = {"s": 10**9, "ms": 10**6, "us": 10**3}


# Formulas: tuples ("atom", name), ("not", f), ("and" | "or" | "implies",
# f, g), ("Y", f), ("O" | "H", lo, hi, f), ("S", lo, hi, f, g), where lo
# and hi are whole seconds, hi None for no upper bound, and lo None for an
# untimed operator.


def random_formula(rng, depth, timed=False):
    """A random formula of at most `depth` nested operators; `timed`: its
    top is a timed `O`, `H` or `S`."""
    if not timed and (depth == 0 or rng.random() < 0.2):
        return ("atom", rng.choice(ATOMS))
    kind = rng.choices(
        ["not", "and", "or", "implies", "Y", "O", "H", "S"],
        weights=[0, 0, 0, 0, 0, 1, 1, 1] if timed else [1, 1, 1, 1, 1.5, 3, 3, 3],
    )[0]

    def sub():
        return random_formula(rng, depth - 1)

    if kind == "not" or kind == "Y":
        return (kind, sub())
    if kind in ("and", "or", "implies"):
        return (kind, sub(), sub())
    roll = rng.random()
    if roll < 0.15 and not timed:
        lo, hi = None, None  # untimed
    elif roll < 0.35:
        lo, hi = rng.randrange(0, 6), None
    else:
        lo = rng.randrange(0, 5)
        hi = rng.randrange(max(lo, 1), lo + 6)
    if kind == "S":
        return (kind, lo, hi, sub(), sub())
    return (kind, lo, hi, sub())


def bound_text(seconds, rng, bare_zero=True):
    """A bound of mongen in one of its forms: `0`, `3s`, `3000ms` (`0`
    only beside a bound with a unit: `[0:]` is refused, it has none)."""
    if seconds == 0 and not bare_zero:
        return rng.choice(["0s", "0ms"])
    if seconds == 0:
        return rng.choice(["0", "0s", "0ms"])
    return rng.choice([f"{seconds}s", f"{seconds * 1000}ms", f"{seconds * 10**6}us"])


def mongen_text(f, rng):
    kind = f[0]
    if kind == "atom":
        return f[1]
    if kind == "not":
        return f"!({mongen_text(f[1], rng)})"
    if kind in ("and", "or", "implies"):
        op = {"and": "&", "or": "|", "implies": "->"}[kind]
        return f"({mongen_text(f[1], rng)}) {op} ({mongen_text(f[2], rng)})"
    if kind == "Y":
        return f"Y({mongen_text(f[1], rng)})"
    lo, hi = f[1], f[2]
    if lo is None:
        interval = ""
    else:
        upper = "" if hi is None else bound_text(hi, rng)
        interval = f"[{bound_text(lo, rng, hi is not None)}:{upper}]"
    if kind == "S":
        return f"({mongen_text(f[3], rng)}) S{interval} ({mongen_text(f[4], rng)})"
    return f"{kind}{interval} ({mongen_text(f[3], rng)})"


def reelay_text(f):
    kind = f[0]
    if kind == "atom":
        return f"{{{f[1]}: true}}"
    if kind == "not":
        return f"not ({reelay_text(f[1])})"
    if kind in ("and", "or", "implies"):
        return f"({reelay_text(f[1])}) {kind} ({reelay_text(f[2])})"
    if kind == "Y":
        return f"pre({reelay_text(f[1])})"
    lo, hi = f[1], f[2]
    interval = "" if lo is None else f"[{lo}:{'' if hi is None else hi}]"
    if kind == "S":
        return f"({reelay_text(f[3])}) since{interval} ({reelay_text(f[4])})"
    word = {"O": "once", "H": "historically"}[kind]
    return f"{word}{interval}({reelay_text(f[3])})"


def reference(f, times, rows):
    """The values of f at each event from the definitions: times (any unit,
    non-decreasing) and bounds in the same unit; `Y` the event before."""
    n = len(times)
    kind = f[0]
    if kind == "atom":
        return [row[f[1]] for row in rows]
    if kind == "not":
        return [not v for v in reference(f[1], times, rows)]
    if kind in ("and", "or", "implies"):
        a, b = reference(f[1], times, rows), reference(f[2], times, rows)
        op = {
            "and": lambda x, y: x and y,
            "or": lambda x, y: x or y,
            "implies": lambda x, y: (not x) or y,
        }[kind]
        return [op(x, y) for x, y in zip(a, b)]
    if kind == "Y":
        a = reference(f[1], times, rows)
        return [i > 0 and a[i - 1] for i in range(n)]
    lo, hi = f[1], f[2]

    def within(i, j):
        if lo is None:
            return True
        d = times[i] - times[j]
        return d >= lo and (hi is None or d <= hi)

    if kind == "O":
        a = reference(f[3], times, rows)
        return [any(a[j] for j in range(i + 1) if within(i, j)) for i in range(n)]
    if kind == "H":
        a = reference(f[3], times, rows)
        return [all(a[j] for j in range(i + 1) if within(i, j)) for i in range(n)]
    a, b = reference(f[3], times, rows), reference(f[4], times, rows)
    return [
        any(b[j] and within(i, j) and all(a[j + 1 : i + 1]) for j in range(i + 1)) for i in range(n)
    ]


def reelay_values(f, rows):
    monitor = reelay.discrete_timed_monitor(pattern=reelay_text(f), condense=False)
    return [bool(monitor.update(dict(row))["value"]) for row in rows]


def random_rows(rng, n):
    bias = {a: rng.choice([0.2, 0.5, 0.8]) for a in ATOMS}
    return [{a: rng.random() < bias[a] for a in ATOMS} for _ in range(n)]


def mongen_check(path, unit, props):
    """`mongen check --json` of the properties over the CSV file: one
    report per property."""
    args = [MONGEN, "check", "--json", "--time", f"ts:{unit}", str(path)]
    for prop in props:
        args += ["-f", prop]
    out = subprocess.run(args, check=False, capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(reports) == len(props), out.stdout
    return reports


def write_trace(path, unit, times, rows, columns):
    """The trace as CSV: `ts` (times in seconds written in `unit`), the
    atoms and the extra columns (0/1)."""
    per_second = 10**9 // UNITS[unit]
    names = list(columns)
    with open(path, "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["ts", *ATOMS, *names])
        for i, (t, row) in enumerate(zip(times, rows)):
            w.writerow(
                [t * per_second, *(int(row[a]) for a in ATOMS)]
                + [int(columns[c][i]) for c in names]
            )


def trace_text(times, rows):
    return " ".join(
        f"{t}:" + ("".join(a for a in ATOMS if row[a]) or "-") for t, row in zip(times, rows)
    )


def test_discrete_time_against_reelay(tmp_path):
    """15 traces of 40 events, one a second, each with 20 random
    formulas: 300 formulas, each compared at every event (reelay takes
    most of the time: about 80 ms to build each monitor). Reelay's values
    are also those of the reference evaluator (so that when mongen
    differs from reelay, the definitions say who is right, and the
    irregular traces below test the meaning reelay gives)."""
    rng = random.Random(32)
    cases = 0
    for trace in range(15):
        n = 40
        times = list(range(n))
        rows = random_rows(rng, n)
        unit = rng.choice(list(UNITS))
        formulas = [random_formula(rng, rng.randrange(1, 4), timed=k < 10) for k in range(20)]
        verdicts = {f"v{k}": reelay_values(f, rows) for k, f in enumerate(formulas)}
        texts = [mongen_text(f, rng) for f in formulas]
        path = tmp_path / f"trace{trace}.csv"
        write_trace(path, unit, times, rows, verdicts)
        props = [f"G(({t}) <-> v{k})" for k, t in enumerate(texts)]
        for k, (f, report) in enumerate(zip(formulas, mongen_check(path, unit, props))):
            cases += 1
            ours = reference(f, times, rows)
            if report["verdict"] != "holds":
                i = report["violations"][0]["index"]
                raise AssertionError(
                    f"mongen and reelay differ at event {i} on `{texts[k]}` "
                    f"(reelay: `{reelay_text(f)}`): reelay says {verdicts[f'v{k}'][i]}, "
                    f"the definitions {ours[i]}; "
                    f"trace (time: atoms that hold): {trace_text(times, rows)}"
                )
            assert report["events"] == n, report
            assert ours == verdicts[f"v{k}"], (
                f"reelay and the reference evaluator differ on `{reelay_text(f)}`",
                trace_text(times, rows),
            )
    assert cases == 300


def test_gaps_and_equal_times_against_the_definitions(tmp_path):
    """Times with gaps and ties (which reelay's discrete time cannot
    express), against the reference evaluator: 20 traces of 40 events
    with 20 formulas each."""
    rng = random.Random(320)
    for trace in range(20):
        n = 40
        times, t = [], rng.randrange(0, 100)
        for _ in range(n):
            times.append(t)
            t += rng.choice([0, 0, 1, 1, 2, 3, 7])
        rows = random_rows(rng, n)
        unit = rng.choice(list(UNITS))
        formulas = [random_formula(rng, rng.randrange(1, 4), timed=k < 10) for k in range(20)]
        expected = {f"v{k}": reference(f, times, rows) for k, f in enumerate(formulas)}
        texts = [mongen_text(f, rng) for f in formulas]
        path = tmp_path / f"irregular{trace}.csv"
        write_trace(path, unit, times, rows, expected)
        props = [f"G(({t}) <-> v{k})" for k, t in enumerate(texts)]
        for k, report in enumerate(mongen_check(path, unit, props)):
            if report["verdict"] != "holds":
                i = report["violations"][0]["index"]
                raise AssertionError(
                    f"mongen differs from the definitions at event {i} on `{texts[k]}`: "
                    f"they say {expected[f'v{k}'][i]}; "
                    f"trace (time: atoms that hold): {trace_text(times, rows)}"
                )


def test_a_known_formula_both_ways(tmp_path):
    """A fixed case whose values are written out: `q S[1s:3s] p` over
    p at times 0 and 6, q false at 4, and the same in reelay."""
    p = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    q = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1]
    rows = [{"p": bool(a), "q": bool(b), "r": False} for a, b in zip(p, q)]
    f = ("S", 1, 3, ("atom", "q"), ("atom", "p"))
    expected = [False, True, True, True, False, False, False, True, True, True]
    assert reelay_values(f, rows) == expected
    path = tmp_path / "known.csv"
    write_trace(path, "s", list(range(10)), rows, {"v": expected})
    (report,) = mongen_check(path, "s", ["G((q S[1s:3s] p) <-> v)"])
    assert report["verdict"] == "holds", report
    # One value flipped is found, at its event.
    flipped = expected[:]
    flipped[8] = not flipped[8]
    write_trace(path, "s", list(range(10)), rows, {"v": flipped})
    (report,) = mongen_check(path, "s", ["G((q S[1s:3s] p) <-> v)"])
    assert report["verdict"] == "violated" and report["violations"][0]["index"] == 8
