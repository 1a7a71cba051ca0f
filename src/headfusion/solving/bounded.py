"""Work in a child process with a wall-clock limit and an address-space limit (the edge's deadline).

Pure Python work cannot be interrupted reliably from inside (one big-integer product can
take minutes between two signal checks), so `run_bounded` forks, runs the function in the
child under RLIMIT_AS, and kills the child at the deadline.  The result travels back
through a pipe (pickled).  Where there is no fork (Windows), or in a daemonic process (a pool
worker may not have children), the function runs here, with no limits: the caller's own
guards apply.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any, Callable

MEMORY_BYTES = 2 * 2**30  # address space the child may add to what it inherits


def _address_space() -> int:
    """The bytes of address space this process uses now (0 when the system does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _child(send: Any, function: Callable[[], Any], memory: int | None) -> None:
    try:
        if memory is not None:
            import resource

            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            limit = _address_space() + memory
            resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
        outcome: tuple[str, Any] = ("ok", function())
    except MemoryError:
        outcome = ("memory", None)
    except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
        outcome = ("error", exc)
    try:
        send.send(outcome)
    except MemoryError:
        send.send(("memory", None))
    except Exception as exc:  # an unpicklable result or exception
        send.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


def run_bounded(function: Callable[[], Any], timeout: float, memory: int | None = MEMORY_BYTES) -> tuple[str, Any]:
    """("ok", result), ("error", exception), ("timeout", None) or ("memory", None) of function().

    The child is killed at `timeout` seconds; it may add `memory` bytes of address space to what
    it inherits (None: no memory limit).  A child that dies without answering is an "error".
    """
    if "fork" not in multiprocessing.get_all_start_methods() or multiprocessing.current_process().daemon:
        # no fork (Windows), or a daemonic process (a pool worker), which may not have children
        try:
            return "ok", function()
        except MemoryError:
            return "memory", None
        except Exception as exc:  # noqa: BLE001
            return "error", exc
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, function, memory), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(timeout):
            return "timeout", None
        try:
            return receive.recv()
        except (EOFError, OSError):  # it died without answering (a signal, a crash in a C library)
            child.join(1)
            return "error", RuntimeError(f"the child process died (exit code {child.exitcode})")
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
