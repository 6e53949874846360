"""Time-bounded properties in Python (`mongen.check(..., time=...)` with
`F[0:5ms] p`, `O[1ms:8ms] p`, ...): on Arrow data in batches of any
size and on files, the reports of `mongen check --time ... --json` (the
semantics themselves are tested against a brute-force evaluator in
monitor-core/tests/future.rs and metric.rs), with the trace's end given
as an int, a str or a datetime; and the errors of what is not supported."""

import datetime as dt
import random
import re

import pyarrow as pa
import pytest

import mongen
from test_time import batches_of, cli_json, random_timed, rfc3339_utc, strip, write_csv

# Past and future metric operators, nested and beside plain LTL.
TIMED = [
    "G(a -> F[0:5ms] b)",
    "G(b -> !O[1ms:8ms] c)",
    "G(a -> (!c U[0:1s] b))",
    "G(c -> G[0:2ms] !a)",
    "G((a & O[0:3ms] b) -> X !c)",
    "G(b -> F[1ms:1s] (a & H[0:1ms] !c))",
]
TIMED_ARGS = [arg for p in TIMED for arg in ("-f", p)]


def as_events(report):
    """A report of a CSV file in the words of the same events as Arrow
    rows: the explanations' lines (a header, then line 2 for event 0) as
    events."""
    r = strip(report)
    for v in r["violations"]:
        v["explanation"] = re.sub(
            r"\bline (\d+)", lambda m: f"event {int(m.group(1)) - 2}", v["explanation"]
        )
    return r


def test_timed_reports_equal_the_clis(tmp_path):
    """Random timed logs (bursts of equal times, gaps past every bound):
    mongen.check's reports are the CLI's, on Arrow data in batches of
    any size and on the CSV file, stopping at the first violation or
    counting them all, with and without an end time."""
    rng = random.Random(3200)
    violated = set()
    for k in range(10):
        events = random_timed(rng, rng.randrange(3, 200), 0)
        path = tmp_path / f"t{k}.csv"
        write_csv(path, events)
        last = events["ts"][-1]
        for all_ in (False, True):
            for end in (None, last, last + 3, last + 5000):
                extra = ["--all", "--max-reports", "4"] if all_ else []
                if end is not None:
                    extra += ["--end-time", str(end)]
                want = cli_json(path, *extra, "--time", "ts:ms", *TIMED_ARGS)
                kwargs = dict(all=all_, max_reports=4 if all_ else 10, time="ts:ms", end_time=end)
                table = pa.table({**events, "ts": pa.array(events["ts"], pa.int64())})
                for size in (1, 7, 1000):
                    got = mongen.check(batches_of(table, size), TIMED, **kwargs)
                    assert [strip(r) for r in got] == [as_events(r) for r in want], (
                        k,
                        end,
                        size,
                    )
                assert mongen.check(path, TIMED, **kwargs) == want, (k, end)
                violated.update(r["property"] for r in want if r["violation_count"])
    # The logs reach violations of every property (the comparison is not
    # of empty reports).
    assert violated == set(TIMED)


def test_end_time_forms():
    """end_time as an int of the column's unit, as text, and, on time
    stamps, as a datetime (aware or naive, taken as UTC) or RFC 3339 text:
    each is the time the trace lasted until."""
    prop = "G(a -> F[0:5ms] b)"
    # A request at 0 ms never answered; the trace ends at 1 ms.
    ms = {"ts": [0, 1], "a": [True, False], "b": [False, False]}
    table = pa.table({**ms, "ts": pa.array(ms["ts"], pa.int64())})

    def verdict(data, **kwargs):
        return mongen.check(data, prop, time="ts:ms", **kwargs)[0]["verdict"]

    # Not violated at the end: whatever follows may answer it.
    assert verdict(table) == "holds"
    for end in (5, "5", " 5 "):
        assert verdict(table, end_time=end) == "holds", end
    for end in (6, "6", "5.000001", 10**6):
        assert verdict(table, end_time=end) == "violated", end
    base = dt.datetime(2026, 11, 28, 12, 0, tzinfo=dt.timezone.utc)
    stamps = pa.table(
        {
            "ts": pa.array([base, base + dt.timedelta(milliseconds=1)], pa.timestamp("ms", "UTC")),
            "a": ms["a"],
            "b": ms["b"],
        }
    )

    def stamp_verdict(end):
        return mongen.check(stamps, prop, time="ts", end_time=end)[0]["verdict"]

    late, early = base + dt.timedelta(milliseconds=6), base + dt.timedelta(milliseconds=5)
    assert stamp_verdict(late) == "violated"
    assert stamp_verdict(early) == "holds"
    assert stamp_verdict(late.replace(tzinfo=None)) == "violated"
    assert stamp_verdict(rfc3339_utc(round(late.timestamp() * 1000) * 10**6)) == "violated"
    assert stamp_verdict("2026-11-28T13:00:00.006+01:00") == "violated"
    with pytest.raises(ValueError, match="end_time"):
        stamp_verdict("tomorrow")
    with pytest.raises(ValueError, match="end_time is a time"):
        stamp_verdict(True)
    with pytest.raises(ValueError, match="end_time is a time"):
        stamp_verdict(5.5)


def test_what_time_bounds_refuse(tmp_path):
    table = pa.table({"ts": [0, 1], "a": [True, False], "b": [False, True]})
    prop = "G(a -> F[0:5ms] b)"
    with pytest.raises(ValueError, match=r"has time bounds \(`F\[0:5ms\] b`\).*time=\"FIELD"):
        mongen.check(table, prop)
    path = tmp_path / "t.csv"
    write_csv(path, {"ts": [0, 1], "a": [1, 0], "b": [0, 1]})
    with pytest.raises(ValueError, match="has time bounds"):
        mongen.check(path, prop)
    with pytest.raises(ValueError, match=r"looks ahead in time.*not supported with by= yet"):
        mongen.check(table, prop, time="ts:ms", by="a")
    with pytest.raises(ValueError, match=r"looks ahead in time.*not supported with by= yet"):
        mongen.check(path, prop, time="ts:ms", by="a")
    with pytest.raises(ValueError, match=r"has time bounds.*time=\"FIELD"):
        mongen.check(table, "G(a -> !O[1ms:2ms] b)", by="a")
    with pytest.raises(ValueError, match="end_time is not supported with by="):
        mongen.check(table, "G !a", time="ts:ms", by="a", end_time=3)
    with pytest.raises(ValueError, match="give time= too"):
        mongen.check(table, "G !a", end_time=3)
    # A monitor stepped event by event counts events.
    with pytest.raises(ValueError, match=r"bounded in time.*mongen.check"):
        mongen.compile(prop)
    # An unbounded future deadline is refused with the parser's caret.
    with pytest.raises(ValueError, match="upper bound"):
        mongen.check(table, "G(a -> F[1s:] b)", time="ts:ms")
    # Reported as written, as the CLI does.
    report = mongen.check(table, prop, time="ts:ms")[0]
    assert report["property"] == prop


def test_past_bounds_by_key_equal_the_clis(tmp_path):
    """Past time bounds checked by key (by=) on Arrow data and on the file:
    the reports of `mongen check --by --time`, rows without a key
    broadcast."""
    rng = random.Random(3201)
    props = [p for p in TIMED if "F[" not in p and "U[" not in p and "G[" not in p]
    prop_args = [arg for p in props for arg in ("-f", p)]
    violated = set()
    for k in range(8):
        events = random_timed(rng, rng.randrange(3, 200), 0)
        n = len(events["ts"])
        events["user"] = [rng.choice(["ann", "bob", "cy", ""]) for _ in range(n)]
        path = tmp_path / f"k{k}.csv"
        write_csv(path, events)
        args = ["--by", "user", "--unkeyed", "broadcast", "--all", "--max-reports", "3"]
        want = cli_json(path, *args, "--time", "ts:ms", *prop_args)
        kwargs = dict(by="user", unkeyed="broadcast", all=True, max_reports=3, time="ts:ms")
        assert mongen.check(path, props, **kwargs) == want, k
        table = pa.table({**events, "ts": pa.array(events["ts"], pa.int64())})
        got = mongen.check(table, props, **kwargs)
        assert [keyed_counts(r) for r in got] == [keyed_counts(r) for r in want], k
        violated.update(r["property"] for r in want if r["violation_count"])
    assert violated == set(props)


def keyed_counts(report):
    """What a keyed report says of each key, apart from how positions
    are written (Arrow rows have no lines)."""
    return (
        report["property"],
        report["keys"],
        report["violation_count"],
        sorted(
            (tuple(v["key"].items()), v["first"]["index"], v["violation_count"])
            for v in report["violations"]
        ),
    )
