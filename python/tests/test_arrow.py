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
    # Time stamps are date-times (in their own unit, ms here), shown as
    # RFC 3339 in UTC with exact nanoseconds (test_time.py has more).
    [r] = mongen.check(table, "G !late", defines={"late": "ts >= 500"}, time="ts")
    assert (r["violations"][0]["time"], r["violations"][0]["time_ns"]) == (
        "1970-01-01T00:00:00.5Z",
        500_000_000,
    )
    # A null is a missing field, SQL's NULL: a comparison reading it is
    # false there, and `has` tells.
    assert first("G !x9", defines={"x9": "x > 9"}) is None
    assert first("G x0", defines={"x0": "x > 0"}) == 2
    assert first("G h", defines={"h": "has(x)"}) == 2


def test_arrow_errors():
    table = pa.table({"a": [True, False]})
    with pytest.raises(ValueError, match=r"no column `b` \(the columns are a\)"):
        mongen.check(table, "G(a -> b)")
    with pytest.raises(ValueError, match="for trace files"):
        mongen.check(table, "G a", format="csv")
    # Files take time= too (`mongen check --time`): a field they have.
    with pytest.raises(ValueError, match=r"time=t: no column `t`"):
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
    # Text times are numbers of seconds or RFC 3339 date-times.
    with pytest.raises(ValueError, match="event 0: the time `x` is not an RFC 3339 date-time"):
        mongen.check(pa.table({"a": [True], "level": ["x"]}), "G a", time="level")


def _forms(rng, value):
    """A Fraction written in one of many decimal forms (leading and
    trailing zeros, a `+`, exponents), or None if it has no finite
    decimal form."""
    from decimal import Decimal, localcontext

    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:
        return None
    with localcontext() as ctx:
        # Enough for every double's exact value (767 digits) and more.
        ctx.prec = 2000
        d = Decimal(value.numerator) / Decimal(value.denominator)
    text = format(d, "f")
    style = rng.randrange(6)
    if style == 1:
        text = format(d, "e")
    elif style == 2:
        text = format(d, "E")
    elif style == 3 and "." in text:
        text = text + "000"
    elif style == 4:
        text = ("-00" + text[1:]) if text.startswith("-") else "+00" + text
    return text


def test_numbers_compare_exactly_in_every_column_type(tmp_path):
    """Issue 36, item 6: numbers in Arrow columns (int64, uint64 beyond
    i64, float64 and float32 by their binary value, decimal128, text in
    many forms) against constants: the exact verdict (fractions), the
    same as the same values written in a CSV."""
    from decimal import Decimal
    from fractions import Fraction as F

    rng = random.Random(36)
    columns = {
        "int64": pa.array([rng.choice([0, -1, 2**53 + 1, -(2**63), 2**63 - 1, rng.randrange(-10**6, 10**6)]) for _ in range(60)], pa.int64()),
        "uint64": pa.array([rng.choice([2**64 - 1, 2**63, 2**63 + 1, 2**53 + 1, rng.randrange(10**6)]) for _ in range(60)], pa.uint64()),
        "float64": pa.array([rng.choice([0.1, -0.0, 2.0**53, 1e300, 5e-324, rng.uniform(-1e3, 1e3)]) for _ in range(60)], pa.float64()),
        "float32": pa.array([rng.choice([0.1, 16777217.0, rng.uniform(-10, 10)]) for _ in range(60)], pa.float32()),
        "decimal": pa.array([Decimal(rng.randrange(-10**17, 10**17)).scaleb(-rng.randrange(0, 20)) for _ in range(60)], pa.decimal128(38, 20)),
        "text": pa.array([_forms(rng, F(rng.randrange(-10**25, 10**25), 10**rng.randrange(0, 30))) for _ in range(60)]),
    }
    table_values = {
        "int64": lambda v: F(v),
        "uint64": lambda v: F(v),
        "float64": lambda v: F(v),
        "float32": lambda v: F(v),
        "decimal": lambda v: F(v),
        "text": lambda v: F(Decimal(v)),
    }
    for name, column in columns.items():
        values = column.to_pylist()
        exact = [table_values[name](v) for v in values]
        table = pa.table({"x": column})
        # The same values as text in a CSV: each double's exact decimal.
        path = tmp_path / f"{name}.csv"
        path.write_text("x\n" + "".join(
            (format(Decimal(v), "f") if isinstance(v, float) else str(v)) + "\n" for v in values
        ))
        for _ in range(25):
            # A constant equal to a value, or near one, or anywhere.
            pick = rng.choice(exact)
            c = rng.choice([pick, pick + F(1, 10**40), pick - F(1, 10**40), pick * 10, F(rng.randrange(-10**20, 10**20), 10**rng.randrange(0, 25))])
            constant = _forms(rng, c)
            if constant is None or constant.startswith("+"):
                continue
            for op in ["==", "!=", "<", "<=", ">", ">="]:
                holds = {
                    "==": lambda a: a == c, "!=": lambda a: a != c, "<": lambda a: a < c,
                    "<=": lambda a: a <= c, ">": lambda a: a > c, ">=": lambda a: a >= c,
                }[op]
                want = [i for i, a in enumerate(exact) if not holds(a)]
                kwargs = dict(defines={"p": f"x {op} {constant}"}, all=True, max_reports=len(values))
                [got] = mongen.check(table, "G p", **kwargs)
                assert [v["index"] for v in got["violations"]] == want, (name, op, constant)
                [csv] = mongen.check(path, "G p", **kwargs)
                assert [v["index"] for v in csv["violations"]] == want, (name, op, constant)


def test_nan_and_infinite_floats_are_not_compared():
    for bad in [float("nan"), float("inf"), -float("inf")]:
        table = pa.table({"x": pa.array([1.0, bad])})
        with pytest.raises(Exception, match="not a finite number"):
            mongen.check(table, "G p", defines={"p": "x > 0"})
