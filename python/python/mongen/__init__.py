"""mongen: temporal properties (LTL with past, PSL, SVA) compiled to minimal
monitors of their bad prefixes, and traces checked against them.

>>> import mongen
>>> m = mongen.compile("G(req -> X ack)")
>>> m.run([{"req": True, "ack": False}, {"req": False, "ack": False}])
'violated'
>>> m.violation.position
1
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native

__all__ = [
    "compile",
    "check",
    "Monitor",
    "Violation",
    "TraceReadError",
    "DEFAULT_MAX_STATES",
    "DEFAULT_MAX_MEMORY",
]

DEFAULT_MAX_STATES: int = _native.DEFAULT_MAX_STATES
#: The byte budget of each property's construction when max_memory is not
#: given: 1 GiB, the default of `mongen --max-memory`.
DEFAULT_MAX_MEMORY: int = _native.DEFAULT_MAX_MEMORY

#: A trace that could not be read to its end (a ValueError). Its
#: ``reports`` are those :func:`check` would have returned for what was read
#: before the error: the earlier traces whole, and the events of this one
#: before the bad input (``"complete": False``). Bad input loses nothing.
TraceReadError = _native.TraceReadError

Event = Union[Mapping[str, Any], Sequence[Any]]


@dataclass(frozen=True)
class Violation:
    """Why a monitor rejected its events.

    position: the 0-based index of the event that violated the property.
    explanation: the whole explanation, in one sentence.
    after: a shortest word leading to the state the event was read in
        (letters separated by "; ", empty for the initial state).
    letters: the letters that violate the property from that state, as a
        Boolean formula over the propositions (the event satisfied it).
    shortest: a shortest bad prefix of the property.
    """

    position: int
    explanation: str
    after: str
    letters: str
    shortest: str


class Monitor:
    """The monitor of one property: step it with events, read its verdict.

    An event is a mapping from proposition names to truth values, or a
    sequence of truth values in the order of `propositions`. Verdicts are
    "holds" (two verdicts) or "undecided" (three), "violated", and, with
    three verdicts, "satisfied" (every continuation satisfies it).
    """

    __slots__ = ("_m",)

    def __init__(self, native: Any) -> None:
        self._m = native

    def step(self, event: Event) -> str:
        """Reads one event; returns the verdict after it."""
        return self._m.step(event)

    def run(self, events: Iterable[Event]) -> str:
        """Reads events until the verdict is final or they end; returns it."""
        return self._m.run(events)

    def reset(self) -> None:
        """Back to the initial state, as if no event had been read."""
        self._m.reset()

    @property
    def verdict(self) -> str:
        """The verdict after the events read."""
        return self._m.verdict

    @property
    def violation(self) -> Optional[Violation]:
        """The violation, or None while the property is not violated."""
        d = self._m._violation()
        return None if d is None else Violation(**d)

    @property
    def position(self) -> int:
        """The number of events read."""
        return self._m.position

    @property
    def propositions(self) -> List[str]:
        """The propositions, in the order of sequence events."""
        return self._m.propositions

    @property
    def formula(self) -> str:
        """The property."""
        return self._m.formula

    @property
    def num_states(self) -> int:
        """The number of states of the monitor."""
        return self._m.num_states

    @property
    def is_safety(self) -> Optional[bool]:
        """Whether the property is safety (None: beyond the state limit).
        The monitor of one that is not rejects the bad prefixes of its
        safety closure only."""
        return self._m.is_safety

    def emit(self, target: str, name: str = "monitor") -> str:
        """The monitor as text for a target: "hoa", "json", "dot",
        "promela" (a never claim), "smv" (a NuSMV module), "verilog", "sva",
        "systemc" or "rust"; `name` names the claim, module or type."""
        return self._m.emit(target, name)

    def to_hoa(self) -> str:
        """The monitor in the Hanoi Omega-Automata format."""
        return self.emit("hoa")

    def to_json(self) -> Dict[str, Any]:
        """The monitor as `mongen compile -t json` writes it, parsed."""
        return json.loads(self.emit("json"))

    def __repr__(self) -> str:
        return repr(self._m)


def compile(
    formula: str,
    psl: bool = False,
    verdicts: int = 2,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    *,
    sva: bool = False,
) -> Monitor:
    """Compiles a property (LTL with past in Spot/Spin syntax, PSL with
    psl=True, or SVA with sva=True) into its minimal monitor. Raises
    ValueError on a syntax error (the message points at the column), when
    the monitor exceeds max_states, or when building it needs more than
    max_memory bytes (default DEFAULT_MAX_MEMORY, 1 GiB, as `mongen
    --max-memory`).

    SVA is read as `mongen --sva` reads it: an assertion, `[LABEL:] assert
    property (p);` or the property alone, with its sequence, property and
    let declarations before it; p is checked at every event (each event
    starts an attempt), and a `disable iff (rst)` disables the attempts
    during which rst holds. A monitor reads one event per clock tick: a
    clock is refused (:func:`check` samples a VCD waveform with it).

    >>> m = compile("req |-> ##[1:2] ack", sva=True)
    >>> m.run([{"req": 1, "ack": 0}, {"req": 0, "ack": 0}, {"req": 0, "ack": 0}])
    'violated'
    """
    return Monitor(_native.compile(formula, psl, verdicts, max_states, max_memory, sva))


PathLike = Union[str, "os.PathLike[str]"]


def _arrow_data(obj: Any) -> Any:
    """obj as an object exporting an Arrow stream, or None if it is not
    data (a path, or a list of paths). pandas data frames without the
    Arrow interface (pandas < 2.2) go through pyarrow; polars lazy frames
    are collected; polars columns of the Null type (all values missing)
    are exported as Booleans, all null."""
    module = type(obj).__module__
    if module.startswith("polars"):
        import polars as pl  # type: ignore[import-not-found]

        if isinstance(obj, pl.LazyFrame):
            obj = obj.collect()
        if isinstance(obj, pl.DataFrame):
            nulls = [n for n, t in obj.schema.items() if t == pl.Null]
            if nulls:
                obj = obj.with_columns(pl.col(nulls).cast(pl.Boolean))
    if hasattr(obj, "__arrow_c_stream__"):
        return obj
    if module.startswith("pandas") and hasattr(obj, "columns"):
        import pyarrow  # type: ignore[import-not-found]

        return pyarrow.Table.from_pandas(obj, preserve_index=False)
    return None


def _paths(traces: Any) -> List[str]:
    """Trace files: a path, or a list of them."""
    if isinstance(traces, (str, os.PathLike)):
        return [os.fspath(traces)]
    if isinstance(traces, (list, tuple)) and all(
        isinstance(t, (str, os.PathLike)) for t in traces
    ):
        return [os.fspath(t) for t in traces]
    raise TypeError(
        "traces: expected a trace file (a path), a list of them, or Arrow data "
        "(a pyarrow Table or RecordBatchReader, a polars or pandas DataFrame), "
        f"not {type(traces).__name__}"
    )


def _key_fields(by: Any) -> Optional[List[str]]:
    """The key fields of by=: a name, or a list of them (None: no key)."""
    if by is None:
        return None
    fields = [by] if isinstance(by, str) else by
    if (
        not isinstance(fields, (list, tuple))
        or not fields
        or not all(isinstance(f, str) for f in fields)
    ):
        raise TypeError(f"by: a field name or a list of them (at least one), not {by!r}")
    return list(fields)


CheckerKey = Tuple[
    Tuple[str, ...],
    Tuple[Tuple[str, str], ...],
    bool,
    int,
    bool,
    int,
    Optional[int],
    Optional[int],
    bool,
]


def _checker_key(
    properties: Union[str, Sequence[str]],
    defines: Optional[Mapping[str, str]],
    psl: bool,
    verdicts: int,
    all: bool,
    max_reports: int,
    max_states: Optional[int],
    max_memory: Optional[int] = None,
    sva: bool = False,
) -> CheckerKey:
    """The arguments of a trace checker, hashable (Spark's executors keep
    one checker per key)."""
    if isinstance(properties, str):
        properties = [properties]
    return (
        tuple(properties),
        tuple((defines or {}).items()),
        psl,
        verdicts,
        all,
        max_reports,
        max_states,
        max_memory,
        sva,
    )


def _trace_checker(key: CheckerKey) -> Any:
    properties, defines, *rest = key
    return _native.TraceChecker(list(properties), list(defines), *rest)


def _end_time(end_time: Any) -> Optional[str]:
    """end_time as the text `mongen check --end-time` reads: an int as its
    digits, a datetime as an RFC 3339 date-time (a naive one taken as
    UTC, as Arrow time stamps without a zone are)."""
    if end_time is None or isinstance(end_time, str):
        return end_time
    if isinstance(end_time, bool):
        raise ValueError(f"end_time is a time (an int, a str or a datetime), not {end_time!r}")
    if isinstance(end_time, int):
        return str(end_time)
    if isinstance(end_time, datetime.datetime):
        if end_time.tzinfo is None:
            end_time = end_time.replace(tzinfo=datetime.timezone.utc)
        return end_time.isoformat()
    raise ValueError(f"end_time is a time (an int, a str or a datetime), not {end_time!r}")


def check(
    traces: Any,
    properties: Union[str, Sequence[str]],
    defines: Optional[Mapping[str, str]] = None,
    psl: bool = False,
    verdicts: int = 2,
    all: bool = False,
    max_reports: int = 10,
    format: Optional[str] = None,
    clock: Optional[str] = None,
    max_states: Optional[int] = None,
    time: Optional[str] = None,
    name: str = "<data>",
    max_memory: Optional[int] = None,
    *,
    sva: bool = False,
    by: Union[None, str, Sequence[str]] = None,
    unkeyed: str = "error",
    key_limit: Optional[int] = None,
    end_key: Optional[str] = None,
    time_order: str = "strict",
    end_time: Union[None, int, str, datetime.datetime] = None,
) -> List[Dict[str, Any]]:
    """Checks properties over traces; returns one report per trace and
    property, as `mongen check --json` writes them: {"trace", "property",
    "verdict", "events", "violation_count", "violations": [{"index",
    "line", "time", "explanation", ...}], ...}.

    traces is a trace file (CSV, JSON Lines, VCD) or a list of them, or
    Arrow data: a pyarrow Table or RecordBatchReader, a polars DataFrame
    or LazyFrame (collected), a pandas DataFrame (anything with
    __arrow_c_stream__), whose rows are the
    events in order and whose columns are the fields, read in Rust without
    a Python object per value. Booleans, integers, floats and strings are
    read as such (numbers compared exactly, decimals by their decimal
    value), time stamps as their integer values, nulls as absent
    fields; the report's trace is `name`.

    time names the field of the events' times, as `mongen check --time`:
    "ts" or "ts:UNIT" (ns, us, ms, s, m, h, rfc3339). In files (CSV, JSON
    Lines) and in text or integer columns it reads what the CLI reads: a
    number of UNIT (seconds by default; decimals exact to the
    nanosecond) or an RFC 3339 date-time. An Arrow column of time stamps
    (any unit, any time zone or none, taken as UTC) is read as date-times
    in its own unit; durations count their own unit; a UNIT given for
    either is a ValueError (":rfc3339" is allowed on time stamps); floats
    and dates are refused (not exact; cast dates to time stamps). Every
    violation's position then has "time" (as written: a number of its
    unit, or an RFC 3339 date-time in UTC; time stamps are date-times)
    and "time_ns" (exact nanoseconds, since the epoch for date-times).
    Times must not decrease: with time_order="strict" (the default) one
    that goes back raises TraceReadError naming its row (or line) and
    both times; with time_order="lenient" its event is taken at the time
    before it and counted in each report's "late_events". A missing or
    null time raises TraceReadError naming its row. VCD waveforms have
    their own times: time is refused for them.

    LTL properties can bound operators in time (they need time=): past
    `O[0:5s] p`, `H[0:1m] p`, `p S[0:2s] q` (`O[5s:] p`: unbounded
    above), future `F[0:500ms] p`, `G[0:10s] p`, `p U[1s:5s] q` (an upper
    bound required); units ns, us, ms, s, min, h, d; a bound without a
    unit counts events. A violation of a deadline is reported at the first
    event whose time is past it, its explanation naming the deadline, the
    obligation's event and that event. At the end of a trace the
    obligations whose deadlines have not passed are violated only if they
    fail whatever would follow; end_time (in the time field's form: a
    number of its unit or a date-time; an int, a str or a
    datetime.datetime) says the trace lasted until then, so that every
    deadline before it has passed (`mongen check --end-time`). With by=,
    past time bounds are computed on each key's rows (at their times);
    deadlines are not supported with by= yet, nor is end_time.
    :func:`compile` refuses time bounds (a monitor stepped one event at a
    time counts events).

    defines binds propositions to expressions over the fields
    ({"slow": "latency > 100"}); a proposition without one reads the
    field of its name. all=True restarts a property after each violation
    and counts them all. clock samples a VCD at a clock's edges
    ("clk" or "clk:negedge").

    Properties are LTL, PSL with psl=True, or SVA assertions with sva=True
    (as in :func:`compile`; a property is reported as written). The
    assertions' clock (`@(posedge clk)`, or a default clocking) samples a
    VCD waveform where clock is not given; with other traces, whose
    events are the clock ticks, leave it out.

    Each property's monitor is built within max_states states and
    max_memory bytes (default DEFAULT_MAX_MEMORY, 1 GiB, as `mongen check
    --max-memory`): past either, ValueError, naming the property and the
    limit, before any trace is read.

    A trace that cannot be read to its end (a bad value, a cut file)
    raises TraceReadError (a ValueError) whose ``reports`` are what was
    read before: the earlier traces whole, then this trace's events before
    the error, marked ``"complete": False``.

    by (a column or field name, or a list of them; JSON Lines: dotted
    paths) checks each key's events apart, as `mongen check --by`: the key
    of a row is the tuple of those fields' values (as text: the integer 7
    and the string "7" are one key), each key has its own run of every
    property, started at its first row, and each property is checked on
    each key's rows alone, in the data's order. The reports are those of
    `mongen check --by --json`, one per trace and property: {"trace",
    "property", "by", "verdict", "events", "unkeyed", "keys",
    "keys_violated", "keys_satisfied", "violation_count", "violations":
    [{"key": {field: value}, "first": {"index", "line", "time"},
    "violation_count", "violations": [...]}], "top": [...]}; positions are
    those of the whole trace (the row's index, the file's line) and an
    explanation shows that key's events only. max_reports bounds the
    violations explained per property over all keys. A row whose key field
    is missing, null or empty is, as unkeyed says, an error
    (TraceReadError naming its line or event, "error", the default), sent
    to every key ("broadcast": the keys seen so far read it at once, a key
    first seen later reads every such row before its own first row), or
    dropped ("skip"). key_limit: at most that many live keys (one more is
    a TraceReadError); end_key: an expression over the fields (as in
    defines) that closes its key after the row where it holds (a later
    row of the key starts it anew). by= reads CSV and JSON Lines files and
    Arrow data in one pass (not VCD waveforms).

    by= and `mongen.spark.check(df, ..., partition_by=...)` slice alike and
    report the same keys violated and the same counts; they differ in
    order and in what they return: Spark sorts the rows by key, then by
    order_by, and returns the violations as a DataFrame (up to max_reports
    per key, indices within the key's trace), while by= keeps the data's
    order (sort it first to match) and returns the reports above. A row
    with a null or empty key is a key of its own for partition_by, and
    unkeyed's to decide for by=.
    """
    keys = _key_fields(by)
    if keys is None and (unkeyed != "error" or key_limit is not None or end_key is not None):
        raise ValueError("unkeyed, key_limit and end_key are for keyed checking: give by=")
    if key_limit is not None and (
        isinstance(key_limit, bool) or not isinstance(key_limit, int) or key_limit < 0
    ):
        raise ValueError(f"key_limit is a number of keys (an int >= 0), not {key_limit!r}")
    checker = _trace_checker(
        _checker_key(
            properties, defines, psl, verdicts, all, max_reports, max_states, max_memory, sva
        )
    )
    data = _arrow_data(traces)
    if data is not None:
        if format is not None or clock is not None:
            raise ValueError("format and clock are for trace files, not Arrow data")
        if checker.clock is not None:
            raise ValueError(
                f"the assertions' clock `{checker.clock}` samples VCD waveforms; the rows "
                "of Arrow data are the clock ticks: leave the clock out"
            )
    if time is None and time_order != "strict":
        raise ValueError("time_order is for times: give time=")
    end = _end_time(end_time)
    if end is not None and keys is not None:
        raise ValueError("end_time is not supported with by= yet")
    try:
        if keys is not None:
            if clock is not None:
                raise ValueError("clock is for VCD waveforms, which by= does not read")
            if data is not None:
                reports = checker.check_arrow_by(
                    data, name, time, keys, unkeyed, key_limit, end_key, time_order
                )
            else:
                reports = checker.check_files_by(
                    _paths(traces), format, keys, unkeyed, key_limit, end_key, time, time_order
                )
        elif data is not None:
            reports = checker.check_arrow(data, name, time, time_order, end)
        else:
            reports = checker.check_files(_paths(traces), format, clock, time, time_order, end)
    except TraceReadError as e:
        e.reports = [json.loads(r) for r in e.reports]
        raise
    return [json.loads(r) for r in reports]
