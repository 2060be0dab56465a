"""fluid.incubate.data_generator (Paddle 1.8): DataGenerator subclasses turn raw lines into the MultiSlot text
format that fluid.dataset / DataFeed read ("<count> <id> <id> ... <count> ..." per sample, one slot after the
other), in pipe_command scripts (run_from_stdin) or for debugging (run_from_memory)."""

from __future__ import annotations

import sys
from typing import Any

from paddle_compat.engine.framework.registry import export


class DataGenerator:
    """Override generate_sample(line) (and optionally generate_batch(samples)); each returns a function that
    yields samples [(slot name, [feasign, ...]), ...]."""

    def __init__(self) -> None:
        self._proto_info: list | None = None
        self.batch_size_ = 32

    def _set_line_limit(self, line_limit: int) -> None:
        if not isinstance(line_limit, int):
            raise ValueError(f"line_limit{type(line_limit)} must be in int type")
        if line_limit < 1:
            raise ValueError("line_limit can not less than 1")
        self._line_limit = line_limit

    def set_batch(self, batch_size: int) -> None:
        self.batch_size_ = batch_size

    def _emit(self, samples: list) -> None:
        for sample in self.generate_batch(samples)():
            sys.stdout.write(self._gen_str(sample))

    def _run(self, lines) -> None:
        batch: list = []
        for line in lines:
            for parsed in self.generate_sample(line)():
                if parsed is None:
                    continue
                batch.append(parsed)
                if len(batch) == self.batch_size_:
                    self._emit(batch)
                    batch = []
        if batch:
            self._emit(batch)

    def run_from_memory(self) -> None:
        """generate_sample(None)'s samples, batched, written to stdout."""
        self._run([None])

    def run_from_stdin(self) -> None:
        """Every stdin line through generate_sample, batched, written to stdout."""
        self._run(sys.stdin)

    def _gen_str(self, line: Any) -> str:
        raise NotImplementedError("pls use MultiSlotDataGenerator or PairWiseDataGenerator")

    def generate_sample(self, line: Any):
        raise NotImplementedError("Please rewrite this function to return a list or tuple: "
                                  "[(name, [feasign, ...]), ...] or ((name, [feasign, ...]), ...)")

    def generate_batch(self, samples: list):
        def local_iter():
            yield from samples

        return local_iter


def _check_line(line: Any, example: str) -> None:
    if not isinstance(line, (list, tuple)):
        raise ValueError(f"the output of process() must be in list or tuple type{example}")


class MultiSlotStringDataGenerator(DataGenerator):
    """Slots of string feasigns, written as they are."""

    def _gen_str(self, line: Any) -> str:
        _check_line(line, "Examples: [('words', ['1926', '08', '17']), ('label', ['1'])]")
        return " ".join(" ".join([str(len(elements))] + list(elements)) for _, elements in line) + "\n"


class MultiSlotDataGenerator(DataGenerator):
    """Slots of int (uint64) or float feasigns; the first sample fixes the slot names, a float makes its slot
    float (recorded in _proto_info)."""

    def _gen_str(self, line: Any) -> str:
        _check_line(line, "Example: [('words', [1926, 08, 17]), ('label', [1])]")
        first = self._proto_info is None
        if first:
            self._proto_info = []
        elif len(line) != len(self._proto_info):
            raise ValueError("the complete field set of two given line are inconsistent.")
        out = []
        for index, (name, elements) in enumerate(line):
            if not isinstance(name, str):
                raise ValueError(f"name{type(name)} must be in str type")
            if not isinstance(elements, list):
                raise ValueError(f"elements{type(elements)} must be in list type")
            if not elements:
                raise ValueError("the elements of each field can not be empty, you need padding it in process().")
            if first:
                self._proto_info.append((name, "uint64"))
            elif name != self._proto_info[index][0]:
                raise ValueError(f"the field name of two given line are not match: require<"
                                 f"{self._proto_info[index][0]}>, get<{name}>.")
            for elem in elements:
                if not first and self._proto_info[index][1] == "float":
                    continue
                if isinstance(elem, float):
                    self._proto_info[index] = (name, "float")
                elif not isinstance(elem, int):
                    raise ValueError(f"the type of element{type(elem)} must be in int or float")
            out.append(" ".join([str(len(elements))] + [str(e) for e in elements]))
        return " ".join(out) + "\n"


for _c in (DataGenerator, MultiSlotDataGenerator, MultiSlotStringDataGenerator):
    export(_c, f"paddle.fluid.incubate.data_generator.{_c.__name__}")
