from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

DEFAULT_MAX_STATES: int
DEFAULT_MAX_MEMORY: int

class TraceReadError(ValueError):
    reports: List[Any]

class Monitor:
    def step(self, event: Any) -> str: ...
    def run(self, events: Iterable[Any]) -> str: ...
    def reset(self) -> None: ...
    @property
    def verdict(self) -> str: ...
    @property
    def position(self) -> int: ...
    @property
    def propositions(self) -> List[str]: ...
    @property
    def formula(self) -> str: ...
    @property
    def num_states(self) -> int: ...
    @property
    def is_safety(self) -> Optional[bool]: ...
    def _violation(self) -> Optional[Dict[str, Any]]: ...
    def emit(self, target: str, name: str = ...) -> str: ...

def compile(
    formula: str,
    psl: bool = ...,
    verdicts: int = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    sva: bool = ...,
) -> Monitor: ...
class TraceChecker:
    def __init__(
        self,
        properties: List[str],
        defines: List[Tuple[str, str]],
        psl: bool,
        verdicts: int,
        all: bool,
        max_reports: int,
        max_states: Optional[int],
        max_memory: Optional[int] = ...,
        sva: bool = ...,
    ) -> None: ...
    @property
    def clock(self) -> Optional[str]: ...
    def fields(self) -> List[str]: ...
    def check_files(
        self,
        traces: List[str],
        format: Optional[str],
        clock: Optional[str],
        time: Optional[str] = ...,
        time_order: str = ...,
        end_time: Optional[str] = ...,
    ) -> List[str]: ...
    def check_arrow(
        self,
        data: Any,
        name: str,
        time: Optional[str],
        time_order: str = ...,
        end_time: Optional[str] = ...,
    ) -> List[str]: ...
    def check_files_by(
        self,
        traces: List[str],
        format: Optional[str],
        by: List[str],
        unkeyed: str,
        key_limit: Optional[int],
        end_key: Optional[str],
        time: Optional[str] = ...,
        time_order: str = ...,
    ) -> List[str]: ...
    def check_arrow_by(
        self,
        data: Any,
        name: str,
        time: Optional[str],
        by: List[str],
        unkeyed: str,
        key_limit: Optional[int],
        end_key: Optional[str],
        time_order: str = ...,
    ) -> List[str]: ...
    def summarize(
        self, data: Any, time: Optional[str] = ..., time_order: str = ...
    ) -> bytes: ...
    def combine(
        self,
        names: List[str],
        summaries: List[bytes],
        fetch: Callable[[List[int]], Dict[int, Any]],
        name: str,
        time: Optional[str],
        time_order: str = ...,
        like: Optional[Any] = ...,
    ) -> List[str]: ...
    def check_groups(
        self, data: Any, keys: List[str], time: Optional[str] = ...
    ) -> Tuple[List[int], List[str], List[int], List[str]]: ...
