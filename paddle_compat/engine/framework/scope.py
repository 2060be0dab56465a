"""Scope: where a static program's persistable values (parameters, optimizer state) live by name.

`scope.find_var(name).get_tensor()` returns the live `LoDTensor`; `set(array, place)` on it replaces the
value the next run reads. The Executor reads and writes `Scope._vars` directly.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from paddle_compat.engine.framework.lod import LoDTensor


class ScopeVariable:
    __slots__ = ("_scope", "_name")

    def __init__(self, scope: "Scope", name: str) -> None:
        self._scope = scope
        self._name = name

    def get_tensor(self) -> LoDTensor:
        return self._scope._vars[self._name]

    def set_tensor(self, t: LoDTensor) -> None:
        self._scope._vars[self._name] = t

    def is_initialized(self) -> bool:
        return self._scope._vars[self._name]._t is not None

    def name(self) -> str:
        return self._name


class Scope:
    def __init__(self, parent: "Scope | None" = None) -> None:
        self._vars: dict[str, LoDTensor] = {}
        self._parent = parent
        self._kids: list[Scope] = []

    def var(self, name: str) -> ScopeVariable:
        if name not in self._vars:
            self._vars[name] = LoDTensor()
        return ScopeVariable(self, name)

    def find_var(self, name: str) -> ScopeVariable | None:
        s: Scope | None = self
        while s is not None:
            if name in s._vars:
                return ScopeVariable(s, name)
            s = s._parent
        return None

    def find_local_var(self, name: str) -> ScopeVariable | None:
        return ScopeVariable(self, name) if name in self._vars else None

    def erase(self, names: list[str]) -> None:
        for n in names:
            self._vars.pop(n, None)

    def local_var_names(self) -> list[str]:
        return list(self._vars)

    def new_scope(self) -> "Scope":
        kid = Scope(self)
        self._kids.append(kid)
        return kid

    def drop_kids(self) -> None:
        self._kids.clear()

    def _get(self, name: str):
        """The torch tensor stored under `name` (searching parents), or None."""
        s: Scope | None = self
        while s is not None:
            lt = s._vars.get(name)
            if lt is not None and lt._t is not None:
                return lt._t
            s = s._parent
        return None

    def _set(self, name: str, t) -> None:
        lt = self._vars.get(name)
        if lt is None:
            self._vars[name] = LoDTensor._from_torch(t)
        else:
            lt._t = t


_global = [Scope()]


def global_scope() -> Scope:
    return _global[0]


@contextlib.contextmanager
def scope_guard(scope: Scope) -> Iterator[None]:
    old = _global[0]
    _global[0] = scope
    try:
        yield
    finally:
        _global[0] = old
