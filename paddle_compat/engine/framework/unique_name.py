"""Paddle's unique-name scheme: `generate('fc')` -> `fc_0`, `fc_1`, ...; parameters `fc_0.w_0`.

Users fetch, feed, save and load by these names, so they must match Paddle's exactly.
"""

from __future__ import annotations

import contextlib
from typing import Iterator


class UniqueNameGenerator:
    def __init__(self, prefix: str | None = None) -> None:
        self.ids: dict[str, int] = {}
        self.prefix = prefix or ""

    def __call__(self, key: str) -> str:
        n = self.ids.get(key, 0)
        self.ids[key] = n + 1
        return f"{self.prefix}{key}_{n}"


_gen = [UniqueNameGenerator()]


def generate(key: str) -> str:
    return _gen[0](key)


def generate_with_ignorable_key(key: str) -> str:
    return _gen[0](key)


def switch(new_generator: UniqueNameGenerator | None = None) -> UniqueNameGenerator:
    old = _gen[0]
    _gen[0] = new_generator if new_generator is not None else UniqueNameGenerator()
    return old


@contextlib.contextmanager
def guard(new_generator: str | UniqueNameGenerator | None = None) -> Iterator[None]:
    if isinstance(new_generator, str):
        new_generator = UniqueNameGenerator(new_generator)
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(old)
