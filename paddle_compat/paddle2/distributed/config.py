"""Small configuration objects of Paddle 2.6's `paddle.distributed`: ParallelMode (fleet's topology constants)
and the sparse-table entry policies (ProbabilityEntry, CountFilterEntry, ShowClickEntry) that
`paddle.static.nn.sparse_embedding(entry=...)` takes, with Paddle's argument checks and `_to_attr()` strings."""

from __future__ import annotations

from paddle_compat.engine.framework.registry import export


class ParallelMode:
    """The parallel strategies of a hybrid topology."""

    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


class EntryAttr:
    """Base of the entry policies: `_to_attr()` is the string the sparse table reads."""

    def __init__(self) -> None:
        self._name: str | None = None

    def _fields(self) -> list:
        raise NotImplementedError("EntryAttr is base class")

    def _to_attr(self) -> str:
        return ":".join([str(self._name)] + [str(f) for f in self._fields()])


class ProbabilityEntry(EntryAttr):
    """Admit a new feature id with the given probability."""

    def __init__(self, probability: float) -> None:
        super().__init__()
        if not isinstance(probability, float) or not 0 < probability < 1:
            raise ValueError("probability must be a float in (0,1)")
        self._name, self._probability = "probability_entry", probability

    def _fields(self) -> list:
        return [self._probability]


class CountFilterEntry(EntryAttr):
    """Admit a feature id once it has been seen `count_filter` times."""

    def __init__(self, count_filter: int) -> None:
        super().__init__()
        if not isinstance(count_filter, int):
            raise ValueError("count_filter must be a valid integer greater than 0")
        if count_filter < 0:
            raise ValueError("count_filter must be a valid integer greater or equal than 0")
        self._name, self._count_filter = "count_filter_entry", count_filter

    def _fields(self) -> list:
        return [self._count_filter]


class ShowClickEntry(EntryAttr):
    """Keep show / click statistics from the named input variables."""

    def __init__(self, show_name: str, click_name: str) -> None:
        super().__init__()
        if not isinstance(show_name, str) or not isinstance(click_name, str):
            raise ValueError("show_name click_name must be a str")
        self._name, self._show_name, self._click_name = "show_click_entry", show_name, click_name

    def _fields(self) -> list:
        return [self._show_name, self._click_name]


for _cls in (ParallelMode, ProbabilityEntry, CountFilterEntry, ShowClickEntry):
    export(_cls, f"paddle.distributed.{_cls.__name__}")
