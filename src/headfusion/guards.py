"""Guards of the command line: SIGTERM as an orderly exit, a wall-clock deadline, option types.

Top layer (with cli/ and api.py): it may import every package.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from headfusion.spec.errors import DeadlineExceeded, InputError

__all__ = ["DeadlineExceeded", "Terminated", "checked", "deadline", "on_sigterm"]


class Terminated(BaseException):
    """SIGTERM arrived: unwind (removing temporaries) and exit 143."""


def on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def checked(check: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type from an `options` check (its InputError becomes the usage message)."""

    def convert(text: str) -> Any:
        try:
            return check(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def deadline(seconds: float, what: str, hint: str = "a smaller input or d, --no-atoms-list, or a larger --timeout"):
    """Wall-clock guard: ResourceLimit when `what` runs longer than `seconds` (main thread only).

    `hint`: what the message suggests (only options the command has).

    The SIGALRM handler raises; when the raise is swallowed (inside a `__del__` or a ctypes
    callback of z3) the timer re-arms every 0.1 s, and any exception that escapes after the
    deadline fired is reported as the deadline.  Guards nest: an inner guard never outlives the
    outer one, and on leaving it the outer guard's handler and remaining time are restored.
    """
    import contextlib
    import signal
    import sys
    import threading
    import time

    message = f"{what} did not finish within {seconds:g} s: use {hint}"

    @contextlib.contextmanager
    def guard():
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
            yield
            return
        fired: list[bool] = []

        def expire(signum: int, frame: object) -> None:
            fired.append(True)
            signal.setitimer(signal.ITIMER_REAL, 0.1)
            raise DeadlineExceeded(message)

        def unraisable(info: object) -> None:  # after the deadline, a __del__ that failed: stay quiet
            if not fired:
                hook(info)

        hook = sys.unraisablehook
        outer, entered = signal.getitimer(signal.ITIMER_REAL)[0], time.monotonic()  # an enclosing guard's remaining time
        previous = signal.signal(signal.SIGALRM, expire)
        sys.unraisablehook = unraisable
        signal.setitimer(signal.ITIMER_REAL, max(0.001, min(seconds, outer) if outer else seconds))
        try:
            yield
        except Exception as exc:
            if fired and not isinstance(exc, DeadlineExceeded):
                raise DeadlineExceeded(message) from None
            raise
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            sys.unraisablehook = hook
            if outer:  # the enclosing guard goes on with what is left of its time (fires at once when none is)
                signal.setitimer(signal.ITIMER_REAL, max(0.001, outer - (time.monotonic() - entered)))

    return guard()
