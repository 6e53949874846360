"""Arrow data (pyarrow, polars, pandas) checked in Rust: the same reports
as the same events written as CSV and checked by `mongen check`, whatever
the batches and chunks; columns of every common type."""

import json
import random

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import mongen
from test_mongen import DEFINES, LOGS, SERVICE_PROPERTIES, cli, defines_args

PROPERTIES = [
    "G(a -> X(b | c))",
    "G((a & !b) -> (c S a))",
    "!b W (a & X c)",
    "G(a -> (b R c))",
    "G((a & X a) -> XX !c)",
    "G(slow -> F[0,3] !slow)",
    "G(err -> X !err)",
]
ARROW_DEFINES = {"slow": "n > 80", "err": 'level == "ERROR"'}


def comparable(report):
    """A report without what only a file has (its name, its lines) and
    with the fields' values as the properties read them."""
    r = dict(report)
    del r["trace"]
    r["violations"] = [
        {k: v for k, v in viol.items() if k not in ("line", "recent", "values", "time")}
        | {"recent": [(e["index"], e["holds"]) for e in viol["recent"]]}
        for viol in r["violations"]
    ]
    return r


def random_events(rng, n, p=0.5):
    return {
        "a": [rng.random() < p for _ in range(n)],
        "b": [rng.random() < 0.5 for _ in range(n)],
        "c": [rng.random() < 0.5 for _ in range(n)],
        "n": [rng.randrange(100) for _ in range(n)],
        "level": [rng.choice(["INFO", "WARN", "ERROR"]) for _ in range(n)],
    }


def csv_of(events, path):
    cols = list(events)
    rows = zip(*(events[c] for c in cols))
    text = ",".join(cols) + "\n"
    text += "".join(
        ",".join(str(int(v)) if isinstance(v, bool) else str(v) for v in r) + "\n" for r in rows
    )
    path.write_text(text)


@pytest.mark.parametrize("all_", [False, True])
def test_tables_give_the_reports_of_the_same_csv(tmp_path, all_):
    rng = random.Random(11)
    for k in range(30):
        events = random_events(rng, rng.randrange(1, 200), p=rng.choice([0.05, 0.5]))
        path = tmp_path / f"t{k}.csv"
        csv_of(events, path)
        table = pa.table(events)
        # Cut into batches of random lengths: chunk boundaries everywhere.
        cuts = sorted(rng.sample(range(1, table.num_rows), min(5, table.num_rows - 1)))
        cuts.append(table.num_rows)
        batches = []
        start = 0
        for c in cuts:
            batches += table.slice(start, c - start).to_batches()
            start = c
        cut = pa.Table.from_batches(batches, schema=table.schema)
        kwargs = dict(defines=ARROW_DEFINES, all=all_, max_reports=3)
        want = mongen.check(path, PROPERTIES, **kwargs)
        for data in (table, cut, pl.from_arrow(table), table.to_pandas()):
            got = mongen.check(data, PROPERTIES, **kwargs)
            assert [comparable(r) for r in got] == [comparable(r) for r in want], k
            assert {r["trace"] for r in got} == {"<data>"}


def test_long_tables_are_checked_in_chunks(tmp_path):
    # 300,000 events in chunks of 65,536 rows summarized in parallel: a
    # rare violation just after a chunk boundary, and --all counts.
    n = 300_000
    a = [False] * n
    b = [True] * n
    for i in (65_535, 65_536, 200_000, 200_001, n - 1):
        a[i] = True
    events = {"a": a, "b": b}
    path = tmp_path / "long.csv"
    csv_of(events, path)
    table = pa.table(events)
    for props, kwargs in [
        (["G(a -> X !a)"], {}),
        (["G(a -> X !a)", "G(b)"], {"all": True}),
        (["G(b -> O !b)"], {}),
    ]:
        want = mongen.check(path, props, **kwargs)
        got = mongen.check(table, props, **kwargs)
        assert [comparable(r) for r in got] == [comparable(r) for r in want]
    [r] = mongen.check(table, ["G(a -> X !a)"], all=True)
    assert r["violation_count"] == 2
    assert [v["index"] for v in r["violations"]] == [65_536, 200_001]


def test_the_service_log_as_a_data_frame():
    # The example log read by pandas: the same reports as the command.
    frame = pd.read_csv(LOGS / "service.csv")
    ours = mongen.check(frame, SERVICE_PROPERTIES, defines=DEFINES, all=True)
    args = ["check", "--json", "-q", "--all", *defines_args(DEFINES)]
    for p in SERVICE_PROPERTIES:
        args += ["-f", p]
    theirs = [json.loads(l) for l in cli(*args, str(LOGS / "service.csv")).splitlines()]
    assert [comparable(r) for r in ours] == [comparable(r) for r in theirs]
    assert any(r["verdict"] == "violated" for r in ours)


def test_column_types():
    n = 6
    table = pa.table(
        {
            "flag": pa.array([1, 0, 1, 1, 0, 1], pa.int8()),
            "big": pa.array([0, 2**63, 5, 7, 9, 11], pa.uint64()),
            "x": pa.array([0.5, 1.5, None, 3.5, 4.5, 5.5], pa.float32()),
            "level": pa.array(["a", "b", "ERROR", "c", "d", "e"]).dictionary_encode(),
            "view": pa.array(["p", "q", "r", "s", "t", "u"], pa.string_view()),
            "large": pa.array(["P", "Q", "R", "S", "T", "U"], pa.large_string()),
            "ts": pa.array([100, 200, 300, 400, 500, 600], pa.timestamp("ms")),
            "price": pa.array([1, 2, 3, 4, 5, 6], pa.decimal128(10, 2)),
        }
    )
    assert table.num_rows == n

    def first(prop, **kw):
        [r] = mongen.check(table, prop, **kw)
        return r["violations"][0]["index"] if r["violations"] else None

    assert first("G flag") == 1
    assert first("G !big_large", defines={"big_large": "big > 1000"}) == 1
    assert first("G !e", defines={"e": 'level == "ERROR"'}) == 2
    assert first("G !v", defines={"v": 'view == "s"'}) == 3
    assert first("G !v", defines={"v": 'large == "T"'}) == 4
    assert first("G !late", defines={"late": "ts >= 500"}) == 4
    assert first("G !p", defines={"p": "price > 5.5"}) == 5
    [r] = mongen.check(table, "G !late", defines={"late": "ts >= 500"}, time="ts")
    assert r["violations"][0]["time"] == 500
    # A null is an absent field: an error if the property reads it there.
    with pytest.raises(ValueError, match="event 2: proposition `x9`: no field `x`"):
        mongen.check(table, "G !x9", defines={"x9": "x > 9"})


def test_arrow_errors():
    table = pa.table({"a": [True, False]})
    with pytest.raises(ValueError, match=r"no column `b` \(the columns are a\)"):
        mongen.check(table, "G(a -> b)")
    with pytest.raises(ValueError, match="for trace files"):
        mongen.check(table, "G a", format="csv")
    with pytest.raises(ValueError, match="for Arrow data"):
        mongen.check(LOGS / "service.csv", "G !err", defines={"err": DEFINES["err"]}, time="t")
    with pytest.raises(ValueError, match="not a Boolean"):
        mongen.check(pa.table({"a": [0, 1, 2]}), "G(a -> X a)")
    # An empty table: nothing violated.
    [r] = mongen.check(table.slice(0, 0), "G a")
    assert (r["verdict"], r["events"]) == ("holds", 0)


def test_polars_null_columns_lazy_frames_and_wrong_inputs():
    # A polars column of the Null type (all values missing) is absent
    # everywhere; a lazy frame is collected.
    frame = pl.DataFrame({"a": [True, False], "x": [None, None]})
    [r] = mongen.check(frame, "G a")
    assert r["violations"][0]["index"] == 1
    [r] = mongen.check(frame.lazy(), "G a")
    assert r["violations"][0]["index"] == 1
    [r] = mongen.check(pl.DataFrame({"a": []}, schema={"a": pl.Boolean}), "G a")
    assert (r["verdict"], r["events"]) == ("holds", 0)
    with pytest.raises(TypeError, match="expected a trace file .* not dict"):
        mongen.check({"a": [True]}, "G a")
    with pytest.raises(ValueError, match="time column `level` holds Utf8"):
        mongen.check(pa.table({"a": [True], "level": ["x"]}), "G a", time="level")
