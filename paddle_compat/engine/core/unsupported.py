"""Stand-ins for the APIs paddle_compat does not implement: each raises UnsupportedAPIError naming the API (and why,
when it cannot work on torch); docs/coverage.md lists them as not yet. Every layer makes them, so they live in core."""

from __future__ import annotations

from typing import Any

from paddle_compat.engine.core.errors import UnsupportedAPIError


def unsupported_stub(api: str, kind: str, detail: str = "") -> Any:
    """A stand-in for an API we do not implement: raises UnsupportedAPIError (saying `detail`, e.g. why it
    cannot work on torch) when used; docs/coverage.md lists it as not yet."""
    if kind == "value":
        return _UnsupportedValue(api, detail)
    if kind == "class":
        def __init__(self: Any, *a: Any, **k: Any) -> None:
            raise UnsupportedAPIError(api, detail)

        return type(api.rpartition(".")[2], (), {"__init__": __init__, "__paddle_unsupported__": True,
                                                 "__paddle_unsupported_detail__": detail,
                                                 "__doc__": f"{api}: not supported by paddle_compat yet"})

    def stub(*a: Any, **k: Any) -> Any:
        raise UnsupportedAPIError(api, detail)

    stub.__name__ = api.rpartition(".")[2]
    stub.__paddle_unsupported__ = True  # type: ignore[attr-defined]
    stub.__paddle_unsupported_detail__ = detail  # type: ignore[attr-defined]
    stub.__doc__ = f"{api}: not supported by paddle_compat yet"
    return stub


class _UnsupportedValue:
    """A stand-in for a module-level object we do not provide (`paddle.ir_guard`, a PIR switch): using it (an
    attribute, a call, `with`, iteration) raises UnsupportedAPIError naming the API."""

    __paddle_unsupported__ = True

    def __init__(self, api: str, detail: str = "") -> None:
        self.__dict__.update(_api=api, _detail=detail, __paddle_unsupported_detail__=detail)

    def _fail(self, *a: Any, **k: Any) -> Any:
        raise UnsupportedAPIError(self.__dict__["_api"], self.__dict__["_detail"])

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # dunders and privates: what introspection (inspect, copy, pickle) probes
            raise AttributeError(name)
        return self._fail()

    __call__ = __enter__ = __iter__ = __getitem__ = _fail

    def __exit__(self, *exc: Any) -> None:
        return None

    def __repr__(self) -> str:
        return f"<{self.__dict__['_api']}: not supported by paddle_compat yet>"
