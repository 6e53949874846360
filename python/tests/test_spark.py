"""mongen.spark on a real local Spark (local[2]): the reports of checking
the whole DataFrame as one trace are those of `mongen.check` on the same
events in order, for any partitioning; by key, each key's violations are
those of checking its events alone."""

import random

import pyarrow as pa
import pytest

import mongen
from mongen import spark as ms
from test_arrow import ARROW_DEFINES, PROPERTIES, random_events

# The `spark` fixture (one local Spark for the session) is in conftest.py.


def frame(spark, events, shuffle_seed):
    """The events as a DataFrame with a time column, its rows shuffled
    (Spark must order them)."""
    n = len(events["a"])
    rows = [
        (t, *(events[c][t] for c in ("a", "b", "c", "n", "level")))
        for t in range(n)
    ]
    random.Random(shuffle_seed).shuffle(rows)
    return spark.createDataFrame(
        rows, "ts long, a boolean, b boolean, c boolean, n long, level string"
    )


@pytest.mark.parametrize("partitions", [1, 3, 40])
def test_one_trace_any_partitioning(spark, partitions):
    rng = random.Random(partitions)
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    for k in range(2):
        events = random_events(rng, rng.randrange(20, 400), p=rng.choice([0.02, 0.3]))
        df = frame(spark, events, k)
        table = pa.table({"ts": list(range(len(events["a"]))), **events})
        for all_ in (False, True):
            kwargs = dict(defines=ARROW_DEFINES, all=all_, max_reports=3)
            got = ms.check(df, PROPERTIES, order_by="ts", **kwargs)
            want = mongen.check(table, PROPERTIES, name="dataframe", **kwargs)
            assert got == want, (partitions, k, all_)
    spark.conf.set("spark.sql.shuffle.partitions", "5")


def test_nothing_to_read_again(spark):
    # No violation: the summaries alone decide, nothing is fetched.
    n = 1000
    events = {
        "a": [False] * n,
        "b": [True] * n,
        "c": [True] * n,
        "n": [1] * n,
        "level": ["INFO"] * n,
    }
    df = frame(spark, events, 1)
    [r] = ms.check(df, "G(a -> X b)", order_by="ts")
    assert (r["verdict"], r["events"], r["violations"]) == ("holds", n, [])


def test_by_key(spark):
    rng = random.Random(5)
    n = 3000
    events = random_events(rng, n, p=0.1)
    keys = [f"s{rng.randrange(12)}" for _ in range(n)]
    rows = [
        (keys[t], t, *(events[c][t] for c in ("a", "b", "c", "n", "level")))
        for t in range(n)
    ]
    random.Random(2).shuffle(rows)
    df = spark.createDataFrame(
        rows, "session string, ts long, a boolean, b boolean, c boolean, n long, level string"
    )
    for all_ in (False, True):
        out = ms.check(
            df, PROPERTIES, order_by="ts", partition_by="session",
            defines=ARROW_DEFINES, all=all_, max_reports=2,
        )
        assert out.columns == ["session", "property", "index", "ts", "explanation"]
        got = sorted(tuple(r) for r in out.collect())
        want = []
        for key in sorted(set(keys)):
            idx = [t for t in range(n) if keys[t] == key]
            table = pa.table({c: [events[c][t] for t in idx] for c in events})
            for r in mongen.check(
                table, PROPERTIES, defines=ARROW_DEFINES, all=all_, max_reports=2
            ):
                for v in r["violations"]:
                    want.append(
                        (key, r["property"], v["index"], idx[v["index"]], v["explanation"])
                    )
        assert got == sorted(want)
        assert len(want) > 20


def test_errors(spark):
    df = spark.createDataFrame([(0, True)], "ts long, a boolean")
    with pytest.raises(ValueError, match=r"no column 'b' \(the columns are ts, a\)"):
        ms.check(df, "G(a -> b)", order_by="ts")
    with pytest.raises(ValueError, match="no column 'time'"):
        ms.check(df, "G a", order_by="time")
    with pytest.raises(ValueError, match="no column 'key'"):
        ms.check(df, "G a", order_by="ts", partition_by="key")
    with pytest.raises(ValueError, match="column 7"):
        ms.check(df, "G(a ->", order_by="ts")
    with pytest.raises(TypeError, match="partition_by: one column name"):
        ms.check(df, "G a", order_by="ts", partition_by=[])
    clash = spark.createDataFrame([(0, 1, True)], "index long, ts long, a boolean")
    with pytest.raises(ValueError, match="two columns named 'index'"):
        ms.check(clash, "G a", order_by="ts", partition_by="index")


def test_max_memory(spark):
    # The budget of `mongen.check` (and `mongen check --max-memory`): past
    # it, a ValueError on the driver, before any job.
    pending = " & ".join(f"G(a{i} -> X b{i})" for i in range(8))
    names = [f"{x}{i}" for i in range(8) for x in "ab"]
    df = spark.createDataFrame([(0, *[True] * 16)], ", ".join(["ts long"] + [f"{n} boolean" for n in names]))
    with pytest.raises(ValueError, match="needs more than 1 MiB of memory"):
        ms.check(df, pending, order_by="ts", max_memory=1 << 20)
    with pytest.raises(ValueError, match="needs more than 1 MiB of memory"):
        ms.check(df, pending, order_by="ts", partition_by="a0", max_memory=1 << 20)
    [report] = ms.check(df, pending, order_by="ts", max_memory=64 << 20)
    assert report["verdict"] == "holds" and report["events"] == 1


def test_properties_from_a_generator(spark):
    # Each call checks its own properties, whatever iterable gives them.
    df = spark.createDataFrame([(0, True, False), (1, False, True)], "ts long, a boolean, b boolean")
    [ra] = ms.check(df, (p for p in ["G a"]), order_by="ts")
    [rb] = ms.check(df, (p for p in ["G b"]), order_by="ts")
    assert (ra["property"], rb["property"]) == ("Ga", "Gb")
    assert [v["index"] for v in ra["violations"] + rb["violations"]] == [1, 0]


def test_by_key_with_the_key_in_order_by_and_errors_naming_the_key(spark):
    rows = [("s1", 0, True), ("s1", 1, False), ("s2", 0, True), ("s2", 1, None)]
    df = spark.createDataFrame(rows, "session string, ts long, a boolean")
    out = ms.check(df.filter("session = 's1'"), "G a", order_by=["session", "ts"],
                   partition_by="session")
    assert out.columns == ["session", "property", "index", "ts", "explanation"]
    assert [tuple(r)[:4] for r in out.collect()] == [("s1", "Ga", 1, 1)]
    # A null is a missing field, SQL's NULL: `a` is false there.
    out = ms.check(df, "G a", order_by="ts", partition_by="session")
    assert sorted(tuple(r)[:4] for r in out.collect()) == [("s1", "Ga", 1, 1), ("s2", "Ga", 1, 1)]
    with pytest.raises(Exception, match="session=s2, event 1: proposition `e`: "):
        ms.check(df, "G !e", order_by="ts", partition_by="session",
                 defines={"e": 'session == "s2" && ts > 0 && ts / 0 > 1'}).collect()


def test_sva(spark):
    # SVA assertions (sva=True), as `mongen.check` reads them: one trace
    # over several partitions, and by key; a clock is refused on the
    # driver (the rows are the ticks).
    rng = random.Random(29)
    events = random_events(rng, 300, p=0.3)
    df = frame(spark, events, 3).repartition(4)
    table = pa.table({"ts": list(range(len(events["a"]))), **events})
    props = [
        "a |-> ##[1:2] (b || c)",
        "sequence s(x, y = c); x ##1 y[*1:2]; endsequence s(.x(a), .y(b)) |=> !c",
    ]
    got = ms.check(df, props, order_by="ts", all=True, sva=True)
    want = mongen.check(table, props, name="dataframe", all=True, sva=True)
    assert got == want
    assert {r["verdict"] for r in got} == {"violated"}
    with pytest.raises(ValueError, match=r"clock `@\(posedge clk\)` samples VCD waveforms"):
        ms.check(df, "@(posedge clk) a |=> b", order_by="ts", sva=True)


def test_times_from_order_by(spark):
    """order_by's time stamps (or integers with time=) are the events'
    times: the reports of `mongen.check` with time= on the same events in
    order, times included, with several partitions."""
    import datetime as dt

    from test_time import rfc3339_utc

    rng = random.Random(32)
    n = 300
    events = random_events(rng, n, p=0.2)
    # Distinct, increasing times in microseconds (Spark's unit), from
    # before 1970 on.
    micros = sorted(rng.sample(range(-(10**15), 10**15), n))
    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    moments = [epoch + dt.timedelta(microseconds=u) for u in micros]
    rows = [
        (moments[t], micros[t], *(events[c][t] for c in ("a", "b", "c", "n", "level")))
        for t in range(n)
    ]
    random.Random(1).shuffle(rows)
    spark.conf.set("spark.sql.shuffle.partitions", "4")
    df = spark.createDataFrame(
        rows, "ts timestamp, us long, a boolean, b boolean, c boolean, n long, level string"
    )
    kwargs = dict(defines=ARROW_DEFINES, all=True, max_reports=3)
    stamps = pa.table({"ts": pa.array(micros, pa.timestamp("us", tz="UTC")), **events})
    want = mongen.check(stamps, PROPERTIES, name="dataframe", time="ts", **kwargs)
    got = ms.check(df, PROPERTIES, order_by="ts", **kwargs)
    assert got == want
    times = [v for r in got for v in r["violations"]]
    assert times and all(v["time"] == rfc3339_utc(v["time_ns"]) for v in times)
    assert all(v["time_ns"] == micros[v["index"]] * 1000 for v in times)
    # Integers with time=: their unit; another order_by column is no time.
    ints = pa.table({"us": micros, **events})
    want = mongen.check(ints, PROPERTIES, name="dataframe", time="us:us", **kwargs)
    assert ms.check(df, PROPERTIES, order_by="us", time="us:us", **kwargs) == want
    untimed = ms.check(df, PROPERTIES, order_by="us", **kwargs)
    assert untimed == mongen.check(ints, PROPERTIES, name="dataframe", **kwargs)
    assert all("time_ns" not in v for r in untimed for v in r["violations"])
    with pytest.raises(ValueError, match="order_by's first column"):
        ms.check(df, PROPERTIES, order_by="us", time="ts", **kwargs)
    # By key, times read (a null one would be an error) and the
    # violations' ts column the events' times.
    keyed = ms.check(df, PROPERTIES, order_by="ts", partition_by="level", **kwargs)
    got = sorted((r["level"], r["property"], r["index"], r["ts"]) for r in keyed.collect())
    want = []
    for level in sorted(set(events["level"])):
        idx = [t for t in range(n) if events["level"][t] == level]
        stamps_of = pa.array([micros[t] for t in idx], pa.timestamp("us", tz="UTC"))
        table = pa.table({"ts": stamps_of, **{c: [events[c][t] for t in idx] for c in events}})
        for r in mongen.check(table, PROPERTIES, time="ts", **kwargs):
            for v in r["violations"]:
                want.append((level, r["property"], v["index"], v["time_ns"] // 1000))
    # Spark collects naive datetimes in the local zone, which timestamp()
    # reads back to the instant (a float of seconds, exact to the
    # microsecond within these ±31 years).
    as_micros = [(lv, p, i, round(ts.timestamp() * 10**6)) for lv, p, i, ts in got]
    assert len(want) > 5 and sorted(as_micros) == sorted(want)
    spark.conf.set("spark.sql.shuffle.partitions", "5")
    # A null time: an error naming its event (Spark sorts it first).
    nulls = spark.createDataFrame([(moments[0], True), (None, True)], "ts timestamp, a boolean")
    with pytest.raises(ValueError, match="event 0: no time"):
        ms.check(nulls, "G a", order_by="ts")


def test_time_bounds(spark):
    """Time-bounded properties (past bounds and deadlines) over a
    DataFrame ordered by its time column: the reports of `mongen.check`
    with time= on the same events in order, with several partitions (a
    timed property's chunks have no summaries: the driver reads them all,
    in order); by key (partition_by), each key's events checked alone."""
    rng = random.Random(320)
    n = 400
    events = random_events(rng, n, p=0.2)
    millis = []
    t = 0
    for _ in range(n):
        # (Distinct times: Spark's sort may swap rows of equal times.)
        t += rng.choice([1, 3, 40])
        millis.append(t)
    rows = [(millis[i], *(events[c][i] for c in ("a", "b", "c", "n", "level"))) for i in range(n)]
    random.Random(2).shuffle(rows)
    spark.conf.set("spark.sql.shuffle.partitions", "4")
    df = spark.createDataFrame(
        rows, "ms long, a boolean, b boolean, c boolean, n long, level string"
    )
    props = ["G(a -> F[0:5ms] b)", "G(b -> !O[1ms:3ms] c)"]
    kwargs = dict(all=True, max_reports=3)
    table = pa.table({"ms": millis, **events})
    want = mongen.check(table, props, name="dataframe", time="ms:ms", **kwargs)
    got = ms.check(df, props, order_by="ms", time="ms:ms", **kwargs)
    assert got == want
    assert all(r["violation_count"] > 0 for r in want)
    # By key: each key's rows are a trace of their own.
    keyed = ms.check(df, props, order_by="ms", partition_by="level", time="ms:ms", **kwargs)
    got = sorted((r["level"], r["property"], r["index"]) for r in keyed.collect())
    want_keyed = []
    for level in sorted(set(events["level"])):
        idx = [i for i in range(n) if events["level"][i] == level]
        sub = pa.table({"ms": [millis[i] for i in idx], **{c: [events[c][i] for i in idx] for c in events}})
        for r in mongen.check(sub, props, time="ms:ms", **kwargs):
            want_keyed.extend((level, r["property"], v["index"]) for v in r["violations"])
    assert want_keyed and got == sorted(want_keyed)
    spark.conf.set("spark.sql.shuffle.partitions", "5")
