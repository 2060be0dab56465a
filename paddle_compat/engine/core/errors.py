"""Paddle's error classes.

Paddle's C++ `PADDLE_ENFORCE` errors surface in Python as these types (and their messages start with
the error kind, e.g. `(InvalidArgument) ...`). Each subclasses the builtin exception Paddle's pybind
layer translates it to, so `except ValueError` in user code keeps working.
"""

from __future__ import annotations


def _call_stack_level() -> int:
    try:
        from paddle_compat.engine.core import flags  # late: flags imports this module

        return int(flags.value("FLAGS_call_stack_level", 1))
    except Exception:  # noqa: BLE001 - an error message never fails because of a flag
        return 1


class EnforceNotMet(Exception):
    """The message follows FLAGS_call_stack_level as Paddle's enforce does: `(Kind) message` up to 1; from 2 on,
    the error summary block ending in `KindError: message` (Paddle puts its C++ stack above it; we have none).
    PaddleTest checks `"InvalidArgumentError" in str(e)` under FLAGS_call_stack_level=2 (tests/test_errors.py)."""

    kind = "Fatal"

    def __init__(self, message: str) -> None:
        if _call_stack_level() > 1:
            text = (
                "\n----------------------\nError Message Summary:\n----------------------\n"
                f"{self.kind}Error: {message}\n"
            )
        else:
            text = f"({self.kind}) {message}"
        super().__init__(text)


class InvalidArgumentError(EnforceNotMet, ValueError):
    kind = "InvalidArgument"


class InvalidTypeError(InvalidArgumentError, TypeError):
    """A wrong argument type found by torch inside an op (torch raises TypeError; Paddle's C++ argument parser
    raises ValueError "(InvalidArgument) ..."): both `except` spellings catch it."""


class NotFoundError(EnforceNotMet, RuntimeError):
    kind = "NotFound"


class PreconditionNotMetError(EnforceNotMet, RuntimeError):
    kind = "PreconditionNotMet"


class InvalidValueError(InvalidArgumentError, RuntimeError):
    """An InvalidArgument error that Paddle raises as RuntimeError (a flag value of the wrong type, a loaded
    parameter of the wrong shape): `except ValueError` and `except RuntimeError` both catch it."""


class OutOfRangeError(EnforceNotMet, IndexError):
    """An index or axis out of range: Paddle's pybind turns (OutOfRange) into IndexError."""

    kind = "OutOfRange"


class UnimplementedError(EnforceNotMet, NotImplementedError):
    kind = "Unimplemented"


class UnavailableError(EnforceNotMet, RuntimeError):
    kind = "Unavailable"


class FatalError(EnforceNotMet, SystemError, RuntimeError):
    """Paddle's (Fatal) errors surface as SystemError; RuntimeError too, which is what torch raised before."""

    kind = "Fatal"


class UnsupportedAPIError(NotImplementedError):
    """Raised by every exported Paddle name that paddle_compat does not implement yet (docs/coverage.md)."""

    def __init__(self, api: str, detail: str = "") -> None:
        msg = f"{api} is not supported by paddle_compat yet"
        if detail:
            msg += f": {detail}"
        msg += " (see docs/coverage.md for what is covered)"
        super().__init__(msg)
        self.api = api
