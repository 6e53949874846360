"""Checking logs larger than one machine on Apache Spark.

A log is a Spark DataFrame whose rows are events and whose columns are
fields. `check` checks it as one trace in the order of `order_by`, or, with
`partition_by`, each key's events (a session, a device, a request) as a
trace of its own:

>>> from mongen import spark as ms                          # doctest: +SKIP
>>> ms.check(df, "G(req -> F[0,5] resp)", order_by="ts")    # doctest: +SKIP
[{'trace': 'dataframe', 'property': ..., 'verdict': 'violated', ...}]
>>> ms.check(df, props, order_by="ts", partition_by="session").show()  # doctest: +SKIP

One trace: the DataFrame is sorted (range-partitioned, so that partition i
holds the i-th stretch of the trace) and each partition is summarized by
mongen's Rust code on its executor (`mapInArrow`): what its events do to
each property's monitor from every state, a few integers per state. The
driver combines the summaries in order; the partitions in which a property
is violated (or satisfied) are then read again, by the driver, to explain
the violation as `mongen check` does. The reports are those of `mongen
check --json` on the whole log in that order. The sorted columns are
persisted (memory and disk) between the two passes so that both see the
same partitions; `order_by` should order the rows totally (Spark orders
ties arbitrarily).

By key: the DataFrame is repartitioned by the key and sorted within
partitions; every key's events are checked as one trace on the executor
that holds them, and the violations come back as a DataFrame with the key
columns, the property, the event's index in its trace (from 0), the
`order_by` columns of the violating event and the explanation. This is
`mongen.check(..., by=...)` (and `mongen check --by`) on a DataFrame: the
same slices, the same keys violated with the same counts, but each key's
events sorted by `order_by` here, where by= keeps the data's order.

Executors need the `mongen` wheel (and pyarrow) installed, like any
Python dependency of a Spark job.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import pyarrow as pa  # type: ignore[import-not-found]
import pyarrow.compute as pc  # type: ignore[import-not-found]

from . import CheckerKey, _checker_key, _trace_checker

__all__ = ["check"]

Columns = Union[str, Sequence[str]]

# The checkers of an executor's Python worker, by their arguments: the
# properties are compiled once per worker, not once per partition.
_CHECKERS: Dict[CheckerKey, Any] = {}

# The column that carries a partition's index when partitions are fetched.
_PART = "__mongen_partition"


def _checker(key: CheckerKey) -> Any:
    c = _CHECKERS.get(key)
    if c is None:
        c = _CHECKERS[key] = _trace_checker(key)
    return c


def _names(cols: Columns, what: str) -> List[str]:
    names = [cols] if isinstance(cols, str) else list(cols)
    if not names or not all(isinstance(n, str) for n in names):
        raise TypeError(f"{what}: one column name or a list of them (at least one)")
    return names


def _reader(batches: Any, names: List[str]) -> Any:
    """The batches of a partition as an Arrow stream (of the null type
    when the partition is empty: no field is read)."""
    it = iter(batches)
    first = next(it, None)
    if first is None:
        return pa.table({n: pa.nulls(0) for n in names})
    return pa.RecordBatchReader.from_batches(first.schema, itertools.chain([first], it))


def check(
    df: Any,
    properties: Union[str, Sequence[str]],
    order_by: Columns,
    partition_by: Optional[Columns] = None,
    defines: Optional[Mapping[str, str]] = None,
    psl: bool = False,
    verdicts: int = 2,
    all: bool = False,
    max_reports: int = 10,
    max_states: Optional[int] = None,
    name: str = "dataframe",
    max_memory: Optional[int] = None,
    *,
    sva: bool = False,
    time: Optional[str] = None,
    time_order: str = "strict",
) -> Any:
    """Checks properties over a Spark DataFrame of events.

    Without partition_by: the whole DataFrame, in the order of order_by,
    is one trace; returns the reports of `mongen.check` (one dict per
    property, as `mongen check --json` writes them, the trace named
    `name`). With partition_by (a column or columns): each key's events,
    in the order of order_by, are a trace; returns a Spark DataFrame of
    the violations reported in detail (the key columns, "property",
    "index", the order_by columns that are not keys, "explanation").

    partition_by slices as `mongen.check(data, properties, by=...)` does
    (and `mongen check --by`): each key's events are checked alone, and
    on rows already in order both report the same keys violated with the
    same counts. Here the rows are sorted by the key, then by order_by,
    and the violations come back as rows (up to max_reports per key, the
    index within the key's trace); by= keeps the data's order, returns the
    reports of `mongen check --by --json` (max_reports over all keys) and
    leaves rows without a key to its unkeyed=, where a null or empty key
    is a key of its own here.

    defines, psl, sva, verdicts, all, max_reports, max_states and max_memory
    (the byte budget of each property's construction, default 1 GiB) are
    those of `mongen.check`; a proposition without a definition reads the
    column of its name. The properties are compiled on the driver first: a
    limit exceeded raises ValueError there, before any Spark job.

    Times: when order_by's first column holds time stamps (Spark's
    TimestampType or TimestampNTZType, the latter taken as UTC), it is
    the events' time, as `mongen.check(..., time=column)` reads it:
    each violation's position has "time" (an RFC 3339 date-time in UTC)
    and "time_ns" (nanoseconds since the epoch). time= names it for a
    column of another type ("ts:ms" for integers of milliseconds, "ts"
    for seconds or RFC 3339 text; as in `mongen.check`), and must name
    order_by's first column: the rows are sorted by it, so that times go
    back nowhere, across partitions too (each partition's summary carries
    its first and last times, and the driver checks them in order). A
    null time is a ValueError naming its event (Spark sorts nulls
    first). By key (partition_by), the violations' order_by columns
    are their events' times. time_order is `mongen.check`'s (sorted rows
    never go back). Other order_by columns are not times: the reports
    have none, as before.
    """
    key = _checker_key(
        properties, defines, psl, verdicts, all, max_reports, max_states, max_memory, sva
    )
    # On the driver: the properties compile (or fail) before any job.
    checker = _checker(key)
    if checker.clock is not None:
        raise ValueError(
            f"the assertions' clock `{checker.clock}` samples VCD waveforms; the rows of "
            "a DataFrame are the clock ticks: leave the clock out"
        )
    order = _names(order_by, "order_by")
    time = _order_time(df, order, time)
    if time is None and time_order != "strict":
        raise ValueError("time_order is for times: give time= or order by time stamps")
    fields = checker.fields()
    missing = [c for c in fields + order if c not in df.columns]
    if partition_by is not None:
        keys = _names(partition_by, "partition_by")
        missing += [c for c in keys if c not in df.columns]
    if missing:
        raise ValueError(
            f"no column {', '.join(repr(m) for m in missing)} "
            f"(the columns are {', '.join(df.columns)})"
        )
    if partition_by is None:
        return _check_trace(df, key, fields, order, name, time, time_order)
    return _check_keys(df, key, fields, order, keys, time)


# The formats of `time=` after a colon, as `mongen check --time` reads them.
_TIME_FORMATS = ("ns", "us", "ms", "s", "m", "h", "rfc3339")


def _order_time(df: Any, order: List[str], time: Optional[str]) -> Optional[str]:
    """The time of the events: time= (which must name order_by's first
    column), or order_by's first column when it holds time stamps, or
    None."""
    if time is None:
        kind = type(df.schema[order[0]].dataType).__name__ if order[0] in df.columns else ""
        return order[0] if kind in ("TimestampType", "TimestampNTZType") else None
    if not isinstance(time, str):
        raise TypeError(f"time: a column name, with its format (\"ts:ms\"), not {time!r}")
    field, _, fmt = time.rpartition(":")
    if not field or fmt not in _TIME_FORMATS:
        field = time
    if field != order[0]:
        raise ValueError(
            f"time={time!r}: the times are order_by's first column ({order[0]!r}), by which "
            "the rows are sorted (times must not go back)"
        )
    return time


def _time_like(df: Any, time: Optional[str]) -> Any:
    """An empty Arrow table with the time column as Spark gives it to
    mapInArrow (its type says how times are read), or None."""
    if time is None:
        return None
    from pyspark.sql.pandas.types import to_arrow_type  # type: ignore[import-not-found]

    field, _, fmt = time.rpartition(":")
    if not field or fmt not in _TIME_FORMATS:
        field = time
    arrow_type = to_arrow_type(df.schema[field].dataType, timezone="UTC")
    return pa.table({field: pa.array([], arrow_type)})


def _check_trace(
    df: Any,
    key: CheckerKey,
    fields: List[str],
    order: List[str],
    name: str,
    time: Optional[str] = None,
    time_order: str = "strict",
) -> List[Dict[str, Any]]:
    from pyspark import StorageLevel, TaskContext  # type: ignore[import-not-found]
    from pyspark.sql.types import (  # type: ignore[import-not-found]
        IntegerType,
        StructField,
        StructType,
    )

    cols = list(dict.fromkeys(fields + order))
    ordered = df.select(*cols).orderBy(*order).persist(StorageLevel.MEMORY_AND_DISK)
    names = ordered.columns

    def summarize(batches: Any) -> Any:
        part = TaskContext.get().partitionId()
        summary = _checker(key).summarize(_reader(batches, names), time, time_order)
        yield pa.RecordBatch.from_arrays(
            [pa.array([part], pa.int32()), pa.array([summary], pa.binary())],
            names=["part", "summary"],
        )

    try:
        rows = ordered.mapInArrow(summarize, "part int, summary binary").collect()
        rows.sort(key=lambda r: r["part"])
        parts = [r["part"] for r in rows]
        summaries = [bytes(r["summary"]) for r in rows]

        def fetch(indices: List[int]) -> Dict[int, Any]:
            wanted = {parts[k]: k for k in indices}

            def pick(batches: Any) -> Any:
                part = TaskContext.get().partitionId()
                if part not in wanted:
                    return
                for b in batches:
                    mark = pa.array([part] * b.num_rows, pa.int32())
                    yield pa.RecordBatch.from_arrays(
                        list(b.columns) + [mark], names=list(b.schema.names) + [_PART]
                    )

            # (StructType.add would change the DataFrame's own schema.)
            schema = StructType(ordered.schema.fields + [StructField(_PART, IntegerType())])
            table = _collect_arrow(ordered.mapInArrow(pick, schema))
            out = {}
            for part, k in wanted.items():
                rows_of = table.filter(pc.equal(table[_PART], part))
                out[k] = rows_of.drop_columns([_PART]).select(names)
            return out

        like = _time_like(ordered, time)
        reports = _checker(key).combine(names, summaries, fetch, name, time, time_order, like)
    finally:
        ordered.unpersist()
    return [json.loads(r) for r in reports]



def _collect_arrow(df: Any) -> Any:
    """A DataFrame's rows as a pyarrow Table, in order."""
    if hasattr(df, "toArrow"):
        return df.toArrow()
    return pa.Table.from_batches(df._collect_as_arrow())


def _check_keys(
    df: Any,
    key: CheckerKey,
    fields: List[str],
    order: List[str],
    keys: List[str],
    time: Optional[str] = None,
) -> Any:
    from pyspark.sql.types import (  # type: ignore[import-not-found]
        LongType,
        StringType,
        StructField,
        StructType,
    )

    cols = list(dict.fromkeys(keys + order + fields))
    grouped = df.select(*cols).repartition(*keys).sortWithinPartitions(*keys, *order)
    # The order columns of the violating event, but not a key again.
    times = [o for o in dict.fromkeys(order) if o not in keys]
    out_names = keys + ["property", "index"] + times + ["explanation"]
    clash = sorted({n for n in out_names if out_names.count(n) > 1})
    if clash:
        raise ValueError(
            f"the violations would have two columns named {', '.join(map(repr, clash))} "
            "(property, index and explanation are mongen's): rename the DataFrame's"
        )
    schema = StructType(
        [df.schema[k] for k in keys]
        + [StructField("property", StringType()), StructField("index", LongType())]
        + [df.schema[o] for o in times]
        + [StructField("explanation", StringType())]
    )

    def run(batches: Any) -> Any:
        batches = list(batches)
        if not batches:
            return
        table = pa.Table.from_batches(batches)
        rows, props, index, why = _checker(key).check_groups(table, keys, time)
        if not rows:
            return
        take = pa.array(rows, pa.int64())
        columns = (
            [table.column(k).take(take).combine_chunks() for k in keys]
            + [pa.array(props, pa.string()), pa.array(index, pa.int64())]
            + [table.column(o).take(take).combine_chunks() for o in times]
            + [pa.array(why, pa.string())]
        )
        yield pa.RecordBatch.from_arrays(columns, names=out_names)

    return grouped.mapInArrow(run, schema)
