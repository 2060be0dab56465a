"""Paddle's hapi progress display: `step  4/10 - loss: 0.6931 - acc: 0.5000 - 12ms/step` lines (verbose 2),
or one line rewritten in place with a bar (verbose 1)."""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np


def _fmt_value(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return " %.4f" % v if abs(v) > 1e-3 else " %.4e" % v
    if isinstance(v, np.ndarray) and v.size == 1:
        return _fmt_value(float(v.reshape(())))
    return " %s" % v


class ProgressBar:
    def __init__(self, num: int | None = None, width: int = 30, verbose: int = 1, start: bool = True,
                 file: Any = None, name: str = "step") -> None:
        self._num, self._width, self._verbose, self.name = num, width, verbose, name
        self.file = file or sys.stdout
        self._last_update = 0
        if start:
            self._start = time.time()

    def start(self) -> None:
        self.file.flush()
        self._start = time.time()

    def _rate(self, current: int) -> str:
        per = (time.time() - self._start) / current if current else 0
        if per >= 1 or per == 0:
            return " - %.0fs/%s" % (per, self.name)
        if per >= 1e-3:
            return " - %.0fms/%s" % (per * 1e3, self.name)
        return " - %.0fus/%s" % (per * 1e6, self.name)

    def update(self, current_num: int, values: Any = None) -> None:
        values = values or []
        fps = self._rate(current_num)
        if self._verbose == 1:
            if self._num:
                digits = len(str(self._num))
                count = (f"%{digits}d/%d") % (current_num, self._num)
                done = int(self._width * current_num / self._num)
                bar = "[" + "=" * max(done - 1, 0) + (">" if current_num < self._num else "=") * (done > 0) + \
                    "." * (self._width - done) + "]"
                info = f"{self.name} {count} {bar}"
                if current_num < self._num and current_num:
                    per = (time.time() - self._start) / current_num
                    eta = per * (self._num - current_num)
                    info += " - ETA: %ds" % eta if eta <= 3600 else " - ETA: %d:%02d:%02d" % (
                        eta // 3600, (eta % 3600) // 60, eta % 60)
            else:
                info = f"{self.name} {current_num:3d}"
            for k, val in values:
                info += f" - {k}:" + "".join(_fmt_value(v) for v in (val if isinstance(val, list) else [val]))
            info += fps
            self.file.write("\r" + info + ("\n" if self._num and current_num >= self._num else ""))
            self.file.flush()
            return
        if self._verbose in (2, 3):
            if self._num:
                digits = int(np.log10(self._num)) + 1
                info = (f"{self.name} %{digits}d/%d") % (current_num, self._num)
            else:
                info = f"{self.name} %3d" % current_num
            for k, val in values:
                info += f" - {k}:" + "".join(_fmt_value(v) for v in (val if isinstance(val, list) else [val]))
            self.file.write(info + fps + "\n")
            self.file.flush()
