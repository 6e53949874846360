"""Times of events in Python (`mongen.check(..., time=...)`, Spark's
order_by): Arrow time stamps of every unit and zone, integers of a unit,
RFC 3339 text, each compared with the nanoseconds counted here by
Python's datetime and integer arithmetic; and the same events written
as CSV and checked by `mongen check --time ... --json` give the same
reports, order errors and lenient counts, whatever the batches."""

import datetime as dt
import json
import random
import re
import subprocess

import pyarrow as pa
import pytest

import mongen
from test_mongen import MONGEN, cli

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
UNITS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
ZONES = [None, "UTC", "Europe/Paris", "-05:00", "Asia/Kolkata"]


def nanos_of(moment, extra_ns=0):
    """Nanoseconds since the epoch of an aware datetime (exact: integer
    microseconds of a timedelta), plus extra nanoseconds."""
    d = moment - EPOCH
    return (d.days * 86_400 + d.seconds) * 10**9 + d.microseconds * 1000 + extra_ns


def rfc3339_utc(nanos):
    """An instant in RFC 3339 in UTC, as reports show it: seconds and the
    fraction's digits without trailing zeros."""
    seconds, frac = divmod(nanos, 10**9)
    moment = EPOCH + dt.timedelta(seconds=seconds)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        text += "." + f"{frac:09d}".rstrip("0")
    return text + "Z"


def number_text(nanos, per):
    """A number of a unit (`per` nanoseconds) as reports show it: whole, or
    a decimal without trailing zeros."""
    sign = "-" if nanos < 0 else ""
    whole, frac = divmod(abs(nanos), per)
    if not frac:
        return f"{sign}{whole}"
    places = len(str(per)) - 1
    return f"{sign}{whole}." + f"{frac * 10**places // per:0{places}d}".rstrip("0")


def random_instants(rng, n, unit):
    """n non-decreasing instants (nanoseconds since the epoch, whole
    numbers of `unit`), from before 1970 to after 2038, with ties."""
    per = UNITS[unit]
    t = rng.randrange(-3 * 10**18, 3 * 10**18) // per * per
    out = []
    for _ in range(n):
        out.append(t)
        t += rng.choice([0, per, rng.randrange(10**12) // per * per])
    return out


def strip(report):
    """A report without its trace's name, what only a file has (lines) and
    the values as written (Arrow's Booleans are `true`, the CSV's `1`)."""
    r = dict(report)
    del r["trace"]
    r["violations"] = [
        {k: v for k, v in viol.items() if k not in ("line", "recent", "values")}
        for viol in r["violations"]
    ]
    return r


def times_of(report):
    return [(v["index"], v["time"], v["time_ns"]) for v in report["violations"]]


@pytest.mark.parametrize("unit", list(UNITS))
@pytest.mark.parametrize("zone", ZONES)
def test_time_stamps_every_unit_and_zone(unit, zone):
    rng = random.Random(f"{unit}{zone}")
    n = 60
    instants = random_instants(rng, n, unit)
    a = [rng.random() < 0.3 for _ in range(n)]
    per = UNITS[unit]
    table = pa.table(
        {"ts": pa.array([t // per for t in instants], pa.timestamp(unit, tz=zone)), "a": a}
    )
    # A zone changes how Arrow shows the values, not the instants they
    # count (since the epoch in UTC); none is taken as UTC.
    for time in ("ts", "ts:rfc3339"):
        [r] = mongen.check(table, "G !a", all=True, max_reports=n, time=time)
        want = [(i, rfc3339_utc(instants[i]), instants[i]) for i in range(n) if a[i]]
        assert times_of(r) == want


def test_time_stamps_from_python_datetimes():
    # pyarrow counts the datetimes; here they are counted by datetime.
    paris = dt.timezone(dt.timedelta(hours=2))
    moments = [
        dt.datetime(1969, 7, 20, 20, 17, 40, tzinfo=dt.timezone.utc),
        dt.datetime(2024, 5, 1, 12, 0, 0, 250_000, tzinfo=paris),
        dt.datetime(2024, 5, 1, 12, 0, 0, 250_001, tzinfo=paris),
        dt.datetime(2100, 2, 28, 23, 59, 59, 999_999, tzinfo=dt.timezone.utc),
    ]
    table = pa.table({"ts": pa.array(moments, pa.timestamp("us", tz="Europe/Paris"))})
    [r] = mongen.check(table, "G !t", defines={"t": "ts > 0 | ts <= 0"}, all=True, time="ts")
    assert times_of(r) == [
        (i, rfc3339_utc(nanos_of(m)), nanos_of(m)) for i, m in enumerate(moments)
    ]
    assert r["violations"][1]["time"] == "2024-05-01T10:00:00.25Z"


@pytest.mark.parametrize("unit", ["ns", "us", "ms", "s", "m", "h"])
def test_integers_of_a_unit_and_decimals(unit):
    rng = random.Random(unit)
    per = {"m": 60 * 10**9, "h": 3600 * 10**9, **UNITS}[unit]
    values = sorted(rng.randrange(-(10**6), 10**6) for _ in range(40))
    a = [rng.random() < 0.4 for _ in values]
    for typ in (pa.int64(), pa.int32()):
        table = pa.table({"ts": pa.array(values, typ), "a": a})
        [r] = mongen.check(table, "G !a", all=True, max_reports=99, time=f"ts:{unit}")
        want = [(i, str(v), v * per) for i, v in enumerate(values) if a[i]]
        assert times_of(r) == want
    # Without a unit, seconds (as the CLI).
    [r] = mongen.check(
        pa.table({"ts": values, "a": a}), "G !a", all=True, max_reports=99, time="ts"
    )
    assert times_of(r) == [(i, str(v), v * 10**9) for i, v in enumerate(values) if a[i]]
    # Decimals: exact, to the nanosecond.
    from decimal import Decimal

    table = pa.table(
        {
            "ts": pa.array([Decimal("1.5"), Decimal("2.000000001")], pa.decimal128(12, 9)),
            "a": [True, True],
        }
    )
    [r] = mongen.check(table, "G !a", all=True, time="ts")
    assert times_of(r) == [(0, "1.5", 1_500_000_000), (1, "2.000000001", 2_000_000_001)]


def test_rfc3339_text():
    texts = ["1969-12-31T23:59:59Z", "2024-05-01T14:00:00.25+02:00", "2024-05-01 12:00:00.5Z"]
    want_ns = [
        -(10**9),
        nanos_of(dt.datetime(2024, 5, 1, 12, 0, 0, 250_000, tzinfo=dt.timezone.utc)),
        nanos_of(dt.datetime(2024, 5, 1, 12, 0, 0, 500_000, tzinfo=dt.timezone.utc)),
    ]
    for time in ("ts", "ts:rfc3339"):
        for typ in (pa.string(), pa.large_string(), pa.string_view()):
            table = pa.table({"ts": pa.array(texts, typ), "a": [True] * 3})
            [r] = mongen.check(table, "G !a", all=True, time=time)
            assert times_of(r) == [(i, rfc3339_utc(t), t) for i, t in enumerate(want_ns)]


def test_bad_time_columns():
    a = [True, False]
    with pytest.raises(ValueError, match=r"column of time stamps .*write time=\"ts\""):
        mongen.check(
            pa.table({"ts": pa.array([1, 2], pa.timestamp("ms")), "a": a}), "G a", time="ts:ms"
        )
    with pytest.raises(ValueError, match="durations"):
        mongen.check(
            pa.table({"ts": pa.array([1, 2], pa.duration("s")), "a": a}), "G a", time="ts:s"
        )
    with pytest.raises(ValueError, match="a float is not an exact time"):
        mongen.check(pa.table({"ts": [1.0, 2.0], "a": a}), "G a", time="ts")
    with pytest.raises(ValueError, match="cast the dates to time stamps"):
        mongen.check(pa.table({"ts": pa.array([1, 2], pa.date32()), "a": a}), "G a", time="ts")
    with pytest.raises(ValueError, match="holds Boolean"):
        mongen.check(pa.table({"ts": a, "a": a}), "G a", time="ts")
    with pytest.raises(ValueError, match=r"no column `tz`"):
        mongen.check(pa.table({"ts": [1, 2], "a": a}), "G a", time="tz")
    with pytest.raises(ValueError, match='time_order is "strict" or "lenient"'):
        mongen.check(pa.table({"ts": [1, 2], "a": a}), "G a", time="ts", time_order="loose")
    with pytest.raises(ValueError, match="give time="):
        mongen.check(pa.table({"ts": [1, 2], "a": a}), "G a", time_order="lenient")
    # A null time: an error naming its row, after the rows before it.
    table = pa.table({"ts": pa.array([1, None, 3], pa.timestamp("s")), "a": [True] * 3})
    with pytest.raises(mongen.TraceReadError, match=r"event 1: no time") as e:
        mongen.check(table, "G a", time="ts")
    [partial] = e.value.reports
    assert (partial["complete"], partial["events"]) == (False, 1)
    # A waveform has its own times.
    with pytest.raises(ValueError, match=r"a VCD waveform has its own times"):
        mongen.check("w.vcd", "G a", time="ts")
    # Durations count their unit, shown as numbers of it.
    table = pa.table({"ts": pa.array([5, 7], pa.duration("ms")), "a": [True, False]})
    [r] = mongen.check(table, "G a", time="ts")
    assert times_of(r) == [(1, "7", 7_000_000)]


def write_csv(path, columns):
    names = list(columns)
    lines = [",".join(names)]
    for row in zip(*(columns[c] for c in names)):
        lines.append(",".join(str(int(v)) if isinstance(v, bool) else str(v) for v in row))
    path.write_text("\n".join(lines) + "\n")


def cli_json(path, *args):
    return [json.loads(line) for line in cli("check", "--json", *args, str(path)).splitlines()]


def batches_of(table, size):
    return pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=size))


PROPS = ["G(a -> X !b)", "G(b -> Y !a)", "G !c"]
PROP_ARGS = [arg for p in PROPS for arg in ("-f", p)]


def random_timed(rng, n, back):
    """Random events with times in ms that go back `back` times."""
    t, times = 0, []
    for _ in range(n):
        t += rng.choice([0, 0, 1, 7, 1000])
        times.append(t)
    for _ in range(back):
        k = rng.randrange(1, n)
        times[k] = times[k - 1] - rng.randrange(1, 50)
    return {
        "ts": times,
        "a": [rng.random() < 0.3 for _ in range(n)],
        "b": [rng.random() < 0.3 for _ in range(n)],
        "c": [rng.random() < 0.02 for _ in range(n)],
    }


def test_same_reports_as_the_cli(tmp_path):
    """Time stamps (written as RFC 3339 text for the CLI), integers of
    milliseconds and RFC 3339 text: the reports of mongen.check on Arrow
    data in batches of any size, and on the CSV file, are the CLI's."""
    rng = random.Random(32)
    for k in range(6):
        events = random_timed(rng, rng.randrange(5, 300), 0)
        ms = events["ts"]
        base = rng.randrange(-(10**12), 10**12)
        nanos = [(base + t) * 10**6 for t in ms]
        path = tmp_path / f"t{k}.csv"
        cases = [
            # (Arrow column, CSV column, time= for both)
            (pa.array(ms, pa.int64()), ms, "ts:ms"),
            (
                pa.array([n // 1000 for n in nanos], pa.timestamp("us", tz="+03:00")),
                [rfc3339_utc(n) for n in nanos],
                "ts:rfc3339",
            ),
            (pa.array([rfc3339_utc(n) for n in nanos]), [rfc3339_utc(n) for n in nanos], "ts"),
        ]
        for arrow_ts, csv_ts, time in cases:
            write_csv(path, {**events, "ts": csv_ts})
            want = cli_json(
                path,
                "--all",
                "--max-reports",
                "5",
                "--time",
                time,
                *PROP_ARGS,
            )
            table = pa.table({**events, "ts": arrow_ts})
            for size in (1, 3, 1000):
                got = mongen.check(
                    batches_of(table, size), PROPS, all=True, max_reports=5, time=time
                )
                assert [strip(r) for r in got] == [strip(r) for r in want], (k, time, size)
            # The file through mongen.check: the CLI's reports, lines too.
            assert mongen.check(path, PROPS, all=True, max_reports=5, time=time) == want


def test_order_errors_and_late_counts_equal_the_clis(tmp_path):
    rng = random.Random(7)
    path = tmp_path / "back.csv"
    for k in range(8):
        events = random_timed(rng, rng.randrange(5, 200), rng.randrange(1, 4))
        write_csv(path, events)
        flags = ["--all", "--time", "ts:ms", *PROP_ARGS]
        # Lenient: the same reports, late_events counted alike.
        want = cli_json(path, *flags, "--time-order", "lenient")
        assert all("late_events" in r for r in want)
        table = pa.table(events)
        for size in (1, 2, 5, 10_000):
            got = mongen.check(
                batches_of(table, size), PROPS, all=True, time="ts:ms", time_order="lenient"
            )
            assert [strip(r) for r in got] == [strip(r) for r in want], (k, size)
        assert mongen.check(path, PROPS, all=True, time="ts:ms", time_order="lenient") == want
        # Strict: the CLI's error, at the row (the line) where the time
        # first goes back, naming both times.
        first = next(
            i for i in range(1, len(events["ts"])) if events["ts"][i] < max(events["ts"][:i])
        )
        out = subprocess.run(
            [MONGEN, "check", *flags, str(path)],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 2
        cli_message = re.search(r"the time goes back: .*", out.stderr).group(0)
        assert f"line {first + 2}" in out.stderr
        for size in (1, 3, 10_000):
            with pytest.raises(mongen.TraceReadError) as e:
                mongen.check(batches_of(table, size), PROPS, all=True, time="ts:ms")
            message = str(e.value)
            assert f"event {first}:" in message, message
            here = re.search(r"the time goes back: (\S+) here, after (\S+) at", message)
            there = re.search(r"the time goes back: (\S+) here, after (\S+) at", cli_message)
            assert (
                here.groups()
                == there.groups()
                == (str(events["ts"][first]), str(max(events["ts"][:first])))
            )
            assert 'time_order="lenient"' in message
            assert all(r["complete"] is False and r["events"] == first for r in e.value.reports)
        with pytest.raises(mongen.TraceReadError, match=r"the time goes back") as e:
            mongen.check(path, PROPS, all=True, time="ts:ms")
        assert f"line {first + 2}" in str(e.value)


def test_keyed_reports_have_times(tmp_path):
    events = {
        "dev": ["x", "y", "x", "y", "x"],
        "ts": [10, 20, 30, 25, 40],
        "a": [True, True, False, False, True],
    }
    path = tmp_path / "keys.csv"
    write_csv(path, events)
    for order in ("strict", "lenient"):
        args = ["--by", "dev", "--time", "ts:ms", "--time-order", order, "-f", "G a"]
        if order == "strict":
            with pytest.raises(
                mongen.TraceReadError, match=r"event 3: the time goes back: 25 here, after 30"
            ):
                mongen.check(pa.table(events), "G a", by="dev", time="ts:ms")
            continue
        want = cli_json(path, *args)
        [got] = mongen.check(pa.table(events), "G a", by="dev", time="ts:ms", time_order=order)
        assert strip_keyed(got) == strip_keyed(want[0])
        first = {v["key"]["dev"]: v["first"] for v in got["violations"]}
        assert first["x"] == {"index": 2, "line": None, "time": "30", "time_ns": 30_000_000}
        assert mongen.check(path, "G a", by="dev", time="ts:ms", time_order=order) == want


def strip_keyed(report):
    r = json.loads(json.dumps(report))
    del r["trace"]

    def drop(x):
        if isinstance(x, dict):
            return {k: drop(v) for k, v in x.items() if k not in ("line", "recent", "values")}
        if isinstance(x, list):
            return [drop(v) for v in x]
        return x

    return drop(r)


def chunked_check(table, cuts, time, time_order, **kwargs):
    """The reports of Spark's one-trace path without Spark: the table's
    chunks (cut at `cuts`) summarized apart, then combined in order, the
    chunks read again fetched from here."""
    from mongen import _checker_key, _trace_checker

    key = _checker_key(
        PROPS,
        None,
        False,
        2,
        kwargs.get("all", False),
        kwargs.get("max_reports", 10),
        None,
    )
    checker = _trace_checker(key)
    bounds = [0, *cuts, table.num_rows]
    chunks = [table.slice(a, b - a) for a, b in zip(bounds, bounds[1:])]
    summaries = [checker.summarize(c, time, time_order) for c in chunks]
    reports = checker.combine(
        table.column_names,
        summaries,
        lambda wanted: {k: chunks[k] for k in wanted},
        "<data>",
        time,
        time_order,
        table.slice(0, 0),
    )
    return [json.loads(r) for r in reports]


@pytest.mark.parametrize(
    "column",
    [
        lambda ms: pa.array(ms, pa.int64()),
        lambda ms: pa.array(ms, pa.timestamp("ms", tz="America/New_York")),
    ],
)
def test_order_across_chunks(column):
    """Spark's summaries carry their chunks' times: a time that goes back
    at a chunk's first event, or within it, is the error (strict) or the
    count (lenient) of checking the whole table at once."""
    rng = random.Random(11)
    for k in range(12):
        events = random_timed(rng, rng.randrange(4, 120), rng.randrange(0, 3))
        n = len(events["ts"])
        table = pa.table({**events, "ts": column(events["ts"])})
        time = "ts:ms" if pa.types.is_integer(table.schema.field("ts").type) else "ts"
        # Cuts where times go back, and anywhere.
        backs = [i for i in range(1, n) if events["ts"][i] < events["ts"][i - 1]]
        cuts = sorted(set(backs[:1] + rng.sample(range(1, n), min(3, n - 1))))
        for order in ("strict", "lenient"):
            try:
                want = mongen.check(table, PROPS, all=True, time=time, time_order=order)
            except mongen.TraceReadError as e:
                with pytest.raises(ValueError) as got:
                    chunked_check(table, cuts, time, order, all=True)
                assert str(got.value) == str(e), (k, cuts)
                continue
            got = chunked_check(table, cuts, time, order, all=True)
            assert got == want, (k, cuts, order)
