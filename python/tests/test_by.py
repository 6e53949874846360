"""Keyed checking, `mongen.check(..., by=...)`: each key's events checked
apart, against a brute-force slicer written here (rows grouped by key in
Python, each slice checked by `mongen.check` without by=, positions mapped
back to the rows), against `mongen check --by --json` on the same rows
written as CSV, and against `mongen.spark.check(..., partition_by=...)`."""

import csv
import json
import random

import pyarrow as pa
import pytest

import mongen
from mongen import spark as ms
from test_mongen import MONGEN, cli

#: Keys that need care: Unicode, quotes, separators, white space, a key
#: that looks like a number, one longer than a map bucket holds inline.
ODD_KEYS = [
    "s1",
    "Ünïcødé ключ 鍵",
    'say "hi"',
    "comma,key",
    "semi;colon",
    " lead and trail ",
    "7",
    "tab\there",
    "x" * 40,
    "🙂",
]

#: Properties over a, b, c (Booleans), with past, some that can be
#: satisfied for good (three verdicts) and some that go on after a
#: violation (all=True).
POOL = [
    "G(a -> X b)",
    "G(a -> X(b | c))",
    "G((a & !b) -> (c S a))",
    "!b W (a & X c)",
    "G(a -> (b R c))",
    "F[0,3] a",
    "G(b -> Y a)",
    "G((a & X a) -> XX !c)",
    "a U b",
    "G !c",
]


def random_property(rng):
    """A random property: one of the pool, or a small random formula."""
    if rng.random() < 0.5:
        return rng.choice(POOL)

    def f(depth, past=False):
        # Past operators apply to past formulas only.
        if depth == 0 or rng.random() < 0.25:
            return rng.choice(["a", "b", "c", "!a", "!b", "!c"])
        ops = ["Y", "S", "&", "|"] if past else ["G", "F", "X", "Y", "&", "|", "U", "W", "R", "->", "S"]
        op = rng.choice(ops)
        inner = past or op in ("Y", "S")
        if op in ("G", "F", "X", "Y"):
            return f"{op}({f(depth - 1, inner)})"
        return f"({f(depth - 1, inner)} {op} {f(depth - 1, inner)})"

    return f(3)


def rows_of(rng, n, keys, missing):
    """n random rows: a session (None or "" in about `missing` of them),
    and a, b, c."""
    rows = []
    for _ in range(n):
        key = rng.choice(keys)
        if rng.random() < missing:
            key = rng.choice([None, ""])
        rows.append({"session": key, **{x: rng.random() < 0.4 for x in "abc"}})
    return rows


def table_of(rows):
    return pa.table(
        {
            "session": pa.array([r["session"] for r in rows], pa.string()),
            **{x: pa.array([r[x] for r in rows], pa.bool_()) for x in "abc"},
        }
    )


def slices(rows, unkeyed, end=None):
    """The brute-force slicer: each key instance (a key closed by `end`
    and seen again is a new one) and the indices of the rows of its
    slice, in order; with broadcast, a row without a key belongs to every
    instance live then, and to every later one (read before its first
    row)."""
    live = {}
    instances = []
    broadcast = []
    for i, r in enumerate(rows):
        key = r["session"]
        if not key:
            if unkeyed == "broadcast":
                for k in live.values():
                    instances[k][1].append(i)
                broadcast.append(i)
            continue
        if key not in live:
            instances.append((key, list(broadcast)))
            live[key] = len(instances) - 1
        instances[live[key]][1].append(i)
        if end is not None and end(r):
            del live[key]
    return instances


def shape(violation, back):
    """A violation explained, its positions mapped through `back` (the
    rows of the slice), without what depends on the trace's numbering."""
    return (
        back(violation["index"]),
        violation["after"],
        violation["letters"],
        violation["values"],
        [(back(e["index"]), e["holds"]) for e in violation["recent"]],
    )


def brute_force(rows, props, unkeyed, end=None, **kwargs):
    """What keyed checking should report, from each slice checked alone:
    per property, each violating key instance's (key, count, violations
    explained), in order; the keys that satisfied it for good; and the
    number of key instances."""
    instances = slices(rows, unkeyed, end)
    out = [[] for _ in props]
    satisfied = [0 for _ in props]
    for key, picked in instances:
        reports = mongen.check(table_of([rows[i] for i in picked]), props, **kwargs)
        for p, r in enumerate(reports):
            if r["satisfied_at"] is not None:
                satisfied[p] += 1
            if r["violation_count"]:
                explained = [shape(v, lambda i: picked[i]) for v in r["violations"]]
                out[p].append((key, r["violation_count"], explained))
    return [ordered(o) for o in out], satisfied, len(instances)


def ordered(violations):
    """Violations by key (a key closed and seen again may violate twice),
    then by the index of their first event."""
    return sorted(violations, key=lambda v: (v[0], v[2][0][0] if v[2] else -1))


def keyed(reports):
    """The same from the reports of by=."""
    out = []
    for r in reports:
        per_key = []
        for v in r["violations"]:
            (key,) = v["key"].values()
            assert v["first"]["index"] == v["violations"][0]["index"]
            explained = [shape(e, lambda i: i) for e in v["violations"]]
            per_key.append((key, v["violation_count"], explained))
        assert r["keys_violated"] == len(per_key)
        assert r["violation_count"] == sum(c for _, c, _ in per_key)
        out.append(ordered(per_key))
    return out, [r["keys_satisfied"] for r in reports], reports[0]["keys"]


def test_by_equals_each_slice_checked_alone():
    rng = random.Random(30)
    checked = {"violations": 0, "errors": 0, "broadcast": 0, "ended": 0, "satisfied": 0}
    for round in range(150):
        props = list(dict.fromkeys(random_property(rng) for _ in range(1 + round % 3)))
        keys = rng.sample(ODD_KEYS, rng.randrange(1, 6))
        missing = rng.choice([0, 0, 0.1, 0.3])
        rows = rows_of(rng, rng.randrange(0, 60), keys, missing)
        unkeyed = ["error", "broadcast", "skip"][round % 3]
        closing = round % 4 == 1
        end = (lambda r: r["b"] and r["c"]) if closing else None
        kwargs = dict(all=round % 2 == 0, max_reports=10_000, verdicts=2 + round % 2)
        by_kwargs = dict(by="session", unkeyed=unkeyed, end_key="b & c" if closing else None)
        ctx = (props, unkeyed, closing, kwargs, rows)
        first_missing = next((i for i, r in enumerate(rows) if not r["session"]), None)
        if unkeyed == "error" and first_missing is not None:
            with pytest.raises(mongen.TraceReadError) as e:
                mongen.check(table_of(rows), props, **kwargs, **by_kwargs)
            assert f"<data>, event {first_missing}: " in str(e.value), ctx
            assert "(by=)" in str(e.value) and 'unkeyed="broadcast"' in str(e.value)
            # The reports of the rows before it.
            before = rows[:first_missing]
            if before:
                assert all(r["complete"] is False for r in e.value.reports)
                assert keyed(e.value.reports) == brute_force(
                    before, props, unkeyed, end, **kwargs
                ), ctx
            else:
                assert e.value.reports == []
            checked["errors"] += 1
            continue
        got = mongen.check(table_of(rows), props, **kwargs, **by_kwargs)
        assert [r["property"] for r in got] == [
            r["property"] for r in mongen.check(table_of([]), props)
        ]
        for r in got:
            assert (r["trace"], r["by"], r["events"]) == ("<data>", ["session"], len(rows))
            missing_rows = sum(1 for x in rows if not x["session"])
            assert r["unkeyed"] == (0 if unkeyed == "error" else missing_rows)
            assert "complete" not in r
        want = brute_force(rows, props, unkeyed, end, **kwargs)
        assert keyed(got) == want, ctx
        checked["violations"] += sum(len(p) for p in want[0])
        checked["broadcast"] += unkeyed == "broadcast" and missing > 0
        checked["ended"] += closing and want[2] > len({r["session"] for r in rows if r["session"]})
        checked["satisfied"] += sum(want[1])
    assert (
        checked["violations"] > 200
        and checked["errors"] > 10
        and checked["broadcast"] > 10
        and checked["ended"] > 5
        and checked["satisfied"] > 20
    ), checked


def test_max_reports_explains_the_first_violations_over_all_keys():
    rng = random.Random(4)
    rows = rows_of(rng, 300, ODD_KEYS, 0)
    props = ["G(a -> X b)"]
    [full] = mongen.check(table_of(rows), props, by="session", all=True, max_reports=10_000)
    [few] = mongen.check(table_of(rows), props, by="session", all=True, max_reports=3)
    everything = sorted(e["index"] for v in full["violations"] for e in v["violations"])
    explained = sorted(e["index"] for v in few["violations"] for e in v["violations"])
    assert explained == everything[:3]
    # The counts do not depend on what is explained.
    count = {json.dumps(v["key"]): v["violation_count"] for v in full["violations"]}
    assert {json.dumps(v["key"]): v["violation_count"] for v in few["violations"]} == count
    assert full["top"] == few["top"]
    assert len(full["top"]) == 5
    top = sorted(count.values(), reverse=True)[:5]
    assert [t["violation_count"] for t in full["top"]] == top


def csv_text(rows, columns):
    """Rows as CSV, quoted where needed (the csv module)."""
    import io

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow(
            [
                ("" if r[c] is None else int(r[c]) if isinstance(r[c], bool) else r[c])
                for c in columns
            ]
        )
    return out.getvalue()


def without_lines(report):
    """A report with its positions' lines (which files have, Arrow data
    not) and its name left out, and the fields' values as the properties
    read them (a Boolean is `true` in Arrow, `1` in CSV)."""

    def pos(p):
        return {k: v for k, v in p.items() if k != "line"}

    def violation(v):
        v = pos(v)
        v["values"] = {k: x in ("1", "true") for k, x in v["values"].items()}
        v["recent"] = [pos(e) for e in v["recent"]]
        return v

    r = dict(report)
    del r["trace"]
    r["violations"] = [
        {**k, "first": pos(k["first"]), "violations": [violation(v) for v in k["violations"]]}
        for k in r["violations"]
    ]
    return r


@pytest.mark.parametrize("unkeyed", ["error", "broadcast", "skip"])
def test_the_reports_of_the_command_line(tmp_path, unkeyed):
    # The same rows as CSV: `mongen check --by --json` writes what by=
    # returns for the file, and for the Arrow data but for lines.
    rng = random.Random(len(unkeyed))
    props = ["G(a -> X b)", "G((a & !b) -> (c S a))", "G !c", "F[0,3] a"]
    for k in range(6):
        rows = rows_of(rng, rng.randrange(1, 120), ODD_KEYS, 0.1 if unkeyed != "error" else 0)
        path = tmp_path / f"t{k}.csv"
        path.write_text(csv_text(rows, ["session", "a", "b", "c"]))
        extra = ["--all"] if k % 2 else []
        out = cli("check", "--json", "--by", "session", "--unkeyed", unkeyed,
                  "--max-reports", "4", *extra, *[a for p in props for a in ("-f", p)], str(path))
        want = [json.loads(line) for line in out.splitlines()]
        kwargs = dict(by="session", unkeyed=unkeyed, all=bool(k % 2), max_reports=4)
        assert mongen.check(path, props, **kwargs) == want
        got = mongen.check(table_of(rows), props, name=str(path), **kwargs)
        assert [without_lines(r) for r in got] == [without_lines(r) for r in want]
        assert sum(r["keys_violated"] for r in want) > 0


def test_json_lines_files_and_two_key_fields(tmp_path):
    rows = [
        {"host": "db1", "pid": 7, "a": True, "b": False},
        {"host": "db1", "pid": 8, "a": True, "b": True},
        {"host": "db2", "pid": 7, "a": False, "b": False},
        {"host": "db1", "pid": 7, "a": False, "b": False},
        {"host": "db1", "pid": 8, "a": False, "b": True},
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = cli("check", "--json", "--by", "host,pid", "-f", "G(a -> X b)", str(path))
    want = [json.loads(line) for line in out.splitlines()]
    [got] = mongen.check(str(path), "G(a -> X b)", by=["host", "pid"])
    assert [got] == want
    assert got["keys"] == 3
    assert [v["key"] for v in got["violations"]] == [{"host": "db1", "pid": "7"}]
    assert got["violations"][0]["first"]["line"] == 4
    # The same as Arrow data (the integer pid is the key "7" there too).
    [arrow] = mongen.check(pa.Table.from_pylist(rows), "G(a -> X b)", by=("host", "pid"))
    assert arrow["violations"][0]["key"] == {"host": "db1", "pid": "7"}
    assert arrow["violations"][0]["first"]["index"] == 3


def test_errors_name_the_row(tmp_path):
    rows = [{"session": "s1", "a": True}, {"session": None, "a": True}]
    with pytest.raises(mongen.TraceReadError, match=r"<data>, event 1: no key field `session` \(by=\)"):
        mongen.check(table_of_a(rows), "G a", by="session")
    path = tmp_path / "t.csv"
    path.write_text("session,a\ns1,1\n,1\n")
    # The line, as the command line says it.
    with pytest.raises(mongen.TraceReadError) as e:
        mongen.check(path, "G a", by="session")
    assert str(e.value).startswith(f"{path}, line 3: the key field `session` (by=) is empty")
    [partial] = e.value.reports
    assert (partial["complete"], partial["events"], partial["keys"]) == (False, 1, 1)
    out = cli_stderr("check", "--by", "session", "-f", "G a", str(path))
    assert f"{path}, line 3: the key field `session` (--by) is empty" in out
    # The key limit.
    table = table_of_a([{"session": s, "a": True} for s in ["x", "y", "z"]])
    with pytest.raises(mongen.TraceReadError, match=r"event 2: a new key, and 2 keys are live already \(key_limit=2\)"):
        mongen.check(table, "G a", by="session", key_limit=2)
    assert mongen.check(table, "G a", by="session", key_limit=3)[0]["keys"] == 3
    # Arguments.
    with pytest.raises(ValueError, match=r"by=sesion: no column `sesion` \(the columns are session, a\)"):
        mongen.check(table, "G a", by="sesion")
    with pytest.raises(ValueError, match='unkeyed is "error", "broadcast" or "skip", not "drop"'):
        mongen.check(table, "G a", by="session", unkeyed="drop")
    with pytest.raises(ValueError, match="are for keyed checking: give by="):
        mongen.check(table, "G a", unkeyed="skip")
    with pytest.raises(ValueError, match="key_limit is a number of keys"):
        mongen.check(table, "G a", by="session", key_limit=-1)
    with pytest.raises(TypeError, match="by: a field name or a list of them"):
        mongen.check(table, "G a", by=[])
    with pytest.raises(ValueError, match="by: a key field has a name"):
        mongen.check(table, "G a", by=[""])
    with pytest.raises(ValueError, match=r"end_key: in `a &`, column"):
        mongen.check(table, "G a", by="session", end_key="a &")
    with pytest.raises(ValueError, match=r"end_key: no column `done`"):
        mongen.check(table, "G a", by="session", end_key="done")
    vcd = tmp_path / "t.vcd"
    vcd.write_text("$var wire 1 ! a $end\n$enddefinitions $end\n#0\n1!\n")
    with pytest.raises(ValueError, match="not VCD waveforms"):
        mongen.check(vcd, "G a", by="session")


def table_of_a(rows):
    return pa.table(
        {
            "session": pa.array([r["session"] for r in rows], pa.string()),
            "a": pa.array([r["a"] for r in rows], pa.bool_()),
        }
    )


def cli_stderr(*args):
    import subprocess

    return subprocess.run([MONGEN, *args], capture_output=True, text=True).stderr


def test_data_frames_and_key_types():
    # polars and pandas frames, and keys that are integers or
    # dictionary-encoded text: a key is its value's text.
    pl = pytest.importorskip("polars")
    pd = pytest.importorskip("pandas")
    data = {"dev": [3, 4, 3, 4], "a": [True, True, False, True]}
    want = mongen.check(pa.table(data), "G a", by="dev")
    assert [v["key"] for v in want[0]["violations"]] == [{"dev": "3"}]
    assert mongen.check(pl.DataFrame(data), "G a", by="dev") == want
    assert mongen.check(pd.DataFrame(data), "G a", by="dev") == want
    # time= names a column of times (integers: seconds), reported with the
    # positions as `mongen check --time` reports them.
    [r] = mongen.check(pa.table({**data, "ts": [10, 20, 30, 40]}), "G a", by="dev", time="ts")
    assert r["violations"][0]["first"] == {
        "index": 2,
        "line": None,
        "time": "30",
        "time_ns": 30_000_000_000,
    }
    names = pa.array(["d3", "d4", "d3", "d4"]).dictionary_encode()
    [r] = mongen.check(pa.table({"dev": names, "a": data["a"]}), "G a", by="dev")
    assert [v["key"] for v in r["violations"]] == [{"dev": "d3"}]


def test_spark_partition_by_agrees(spark):
    # partition_by sorts each key's rows by order_by; by= keeps the data's
    # order: on rows in order, the same keys violated, the same counts, the
    # same events (partition_by numbers them within the key).
    s = spark
    rng = random.Random(12)
    rows = rows_of(rng, 600, ODD_KEYS, 0)
    props = ["G(a -> X b)", "G((a & !b) -> (c S a))"]
    shuffled = [(r["session"], t, r["a"], r["b"], r["c"]) for t, r in enumerate(rows)]
    rng.shuffle(shuffled)
    df = s.createDataFrame(shuffled, "session string, ts long, a boolean, b boolean, c boolean")
    out = ms.check(df, props, order_by="ts", partition_by="session", all=True, max_reports=10_000)
    spark_rows = sorted((r["session"], r["property"], r["index"], r["ts"]) for r in out.collect())
    reports = mongen.check(table_of(rows), props, by="session", all=True, max_reports=10_000)
    position = {}
    for t, r in enumerate(rows):
        position[t] = sum(1 for x in rows[:t] if x["session"] == r["session"])
    by_rows = sorted(
        (v["key"]["session"], r["property"], position[e["index"]], e["index"])
        for r in reports
        for v in r["violations"]
        for e in v["violations"]
    )
    assert spark_rows == by_rows
    assert len(by_rows) > 50
    counts = {}
    for key, prop, _, _ in spark_rows:
        counts[(key, prop)] = counts.get((key, prop), 0) + 1
    assert counts == {
        (v["key"]["session"], r["property"]): v["violation_count"]
        for r in reports
        for v in r["violations"]
    }
