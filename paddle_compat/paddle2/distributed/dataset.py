"""Paddle 2.x's `paddle.distributed.InMemoryDataset` / `QueueDataset`: the fluid 1.8 datasets (paddle2/distributed/fleet_dataset.py:
MultiSlot files, pipe_command, Executor.train_from_dataset / infer_from_dataset) with 2.x's configuration API,
`init(**kwargs)` and `update_settings(**kwargs)`, whose keys map onto the 1.8 setters."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core.errors import UnsupportedAPIError
from paddle_compat.paddle2.distributed.fleet_dataset import InMemoryDataset as _InMemory18
from paddle_compat.paddle2.distributed.fleet_dataset import QueueDataset as _Queue18
from paddle_compat.engine.framework.registry import export

# init / update_settings key -> the 1.8 setter (one argument)
_SETTERS = {"batch_size": "set_batch_size", "thread_num": "set_thread", "use_var": "set_use_var",
            "pipe_command": "set_pipe_command", "download_cmd": "set_download_cmd",
            "rank_offset": "set_rank_offset", "pv_batch_size": "set_pv_batch_size",
            "data_feed_type": "set_feed_type", "queue_num": "set_queue_num", "parse_ins_id": "set_parse_ins_id",
            "parse_content": "set_parse_content", "parse_logkey": "set_parse_logkey",
            "merge_by_sid": "set_merge_by_sid", "enable_pv_merge": "set_enable_pv_merge",
            "fleet_send_batch_size": "set_fleet_send_batch_size",
            "fleet_send_sleep_seconds": "set_fleet_send_sleep_seconds"}
_DEFAULTS = {"batch_size": 1, "thread_num": 1, "use_var": [], "pipe_command": "cat", "download_cmd": "cat"}


class _Settings2x:
    """init / update_settings over the 1.8 setters."""

    def init(self, **kwargs: Any) -> None:
        """Set every setting once (the defaults of Paddle 2.6 for those not given)."""
        self._apply(dict(_DEFAULTS, **kwargs), type(self).__name__ + ".init")

    def update_settings(self, **kwargs: Any) -> None:
        """Change the given settings only."""
        self._apply(kwargs, type(self).__name__ + ".update_settings")

    def _apply(self, kwargs: dict, api: str) -> None:
        api = f"paddle.distributed.{api}"
        if kwargs.pop("input_type", 0) != 0:
            raise UnsupportedAPIError(api, "input_type=1 (one batch per line) is not supported; lines hold one "
                                           "sample each (input_type=0)")
        fs_name, fs_ugi = kwargs.pop("fs_name", ""), kwargs.pop("fs_ugi", "")
        if fs_name or fs_ugi:
            self.set_hdfs_config(fs_name, fs_ugi)
        for key, value in kwargs.items():
            setter = _SETTERS.get(key)
            if setter is None or not hasattr(self, setter):
                raise UnsupportedAPIError(api, f"the setting {key!r} is not supported here")
            getattr(self, setter)(list(value) if key == "use_var" else value)


class InMemoryDataset(_Settings2x, _InMemory18):
    def load_into_memory(self, is_shuffle: bool = False) -> None:
        super().load_into_memory()
        if is_shuffle:
            self.local_shuffle()


class QueueDataset(_Settings2x, _Queue18):
    pass


for _cls in (InMemoryDataset, QueueDataset):
    export(_cls, f"paddle.distributed.{_cls.__name__}")
