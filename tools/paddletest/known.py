"""Classes of PaddleTest cases that pass under Paddle 2.6.2 and are expected to fail here.

(a) the case asserts the 0-D shape Paddle 2.5 introduced (paddle_compat follows 2.4: full reductions and
    scalar results have shape [1]);
(b) the case expects an error because Paddle has no CPU kernel for a dtype (we compute it).

Each entry was checked by reading the case; every other case that passes under 2.6.2 must pass here.
"""

ZERO_D = "a"
NO_CPU_KERNEL = "b"

# "area/file.py::case": (class, why)
KNOWN: dict = {}


def classify(case_id: str, message: str):
    """The class ('a' / 'b') of a case failing here, or None when it is a failure to fix."""
    entry = KNOWN.get(case_id)
    return entry[0] if entry else None
