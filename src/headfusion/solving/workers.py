"""The workers of a refutation cluster: the preflight probe and the stop flag (solving/distribute.py uses both).

`preflight` runs a probe on every worker before the first cube: it imports headfusion there and
reports its version and a digest of its source files, so a worker set up wrong is named in one
line (InputError) instead of failing every cube it gets.  The probe (solving/probe.py, stdlib
only) is registered with cloudpickle to travel by value, so it runs where headfusion is missing.
The stop flag of a run is raised on every worker by `Client.run` (an out-of-band message handled
in the worker's event loop) and polled by the producer.
"""

from __future__ import annotations

import contextlib
from typing import Any

from headfusion.spec.errors import InputError

CONNECT_TIMEOUT = 5.0  # seconds to reach a --scheduler and finish Dask's handshake; also the preflight's wait

_STOPPED: set[str] = set()  # per worker process: the stop flags raised by `raise_stop_flag`



def install_command(version: str) -> str:
    """How a worker gets this headfusion: from the source checkout it runs from (a clone: not on PyPI), else the release."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").is_file() and (root / "src" / "headfusion").is_dir():
        return f"pip install -e '{root}[cluster]' (this clone, at the same path on the worker's machine)"
    return f"pip install 'headfusion[cluster]=={version}'"

def raise_stop_flag(name: str) -> None:
    """Run on every worker (`Client.run`, in the worker's event loop): the tasks of run `name` stop."""
    _STOPPED.add(name)


def stop_flag(name: str | None):
    """A cheap `stop()` for the producer: has the run's stop flag been raised in this process?

    The flag is set by the main process through `Client.run` (an out-of-band message to each
    worker), not a `distributed.Event`: an Event in a task opens a worker client, whose loop is
    gone when the worker shuts down, and its `__del__` printed "IOLoop is closed" tracebacks.
    """
    if name is None:
        return None
    return lambda: name in _STOPPED


def broadcast_stop(client, name: str, timeout: float = 5.0) -> None:
    """Raise the stop flag on every worker, waiting at most `timeout` s (a worker that does not answer is not waited for)."""
    import threading

    def send() -> None:
        with contextlib.suppress(Exception):
            client.run(raise_stop_flag, name, on_error="ignore")

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    sender.join(timeout)


# -- preflight: every worker imports this headfusion --------------------------------------------------

def _probe_function():
    """The probe, to be pickled by value (cloudpickle, which Dask uses): it runs where headfusion is missing."""
    import cloudpickle

    from headfusion.solving import probe

    cloudpickle.register_pickle_by_value(probe)
    return probe.headfusion_probe


def local_build() -> dict:
    """This process's headfusion as the probe reports it: version and a digest of its source files."""
    from headfusion.solving.probe import headfusion_probe

    return headfusion_probe()


def preflight(client, where: str, workers: list[str] | None = None, timeout: float = CONNECT_TIMEOUT) -> dict:
    """Every worker (or those listed) imports headfusion and reports its version, or InputError naming the worker.

    A worker without headfusion, or with another version or other sources (digest of its .py
    files), would fail every cube it gets; refused here, before the first cube, in seconds.
    Returns {address: report}.
    """
    import threading

    here = local_build()
    found: dict = {}

    def ask() -> None:
        with contextlib.suppress(Exception):
            found.update(client.run(_probe_function(), workers=workers, on_error="return"))

    asking = threading.Thread(target=ask, daemon=True)
    asking.start()
    asking.join(timeout)
    info = client.scheduler_info().get("workers", {})
    expected = list(workers) if workers is not None else list(info)
    bad = []
    for address in expected:
        report = found.get(address)
        name = info.get(address, {}).get("name")
        label = f"worker {address}" + (f" ({name})" if name not in (None, address) else "")
        if report is None:
            bad.append(f"{label} did not answer within {timeout:g} s")
        elif isinstance(report, BaseException) or not isinstance(report, dict):
            bad.append(f"{label} could not run the probe ({type(report).__name__})")
        elif "error" in report:
            bad.append(f"{label} ({report['python']} on {report['host']}) cannot import headfusion ({report['error']})")
        elif report.get("version") != here["version"]:
            bad.append(f"{label} ({report['python']} on {report['host']}) runs headfusion {report['version']}, "
                       f"this process {here['version']}")
        elif report.get("digest") != here["digest"]:
            bad.append(f"{label} ({report['python']} on {report['host']}) runs headfusion {report['version']} built "
                       f"from other sources (digest {report['digest']}, here {here['digest']})")
    if bad:
        more = f" (and {len(bad) - 1} more worker{'s' if len(bad) > 2 else ''})" if len(bad) > 1 else ""
        raise InputError(f"{where}: {bad[0]}{more}; every worker needs this headfusion {here['version']}: "
                         f"{install_command(here['version'])} in the worker's Python, then restart it")
    return found


def executing_keys(dask_worker: Any = None) -> list[str]:
    """The keys of the tasks this worker is executing now (run on each worker by the watchdog; [] when unknown)."""
    try:
        return [str(getattr(ts, "key", ts)) for ts in dask_worker.state.executing]
    except Exception:  # noqa: BLE001 - another Dask version: the watchdog sees nothing and the cubes end by themselves
        return []


def overdue(executing: dict[str, list[str]], pending_keys: set[str], running_since: dict[str, float], now: float,
            limit: float) -> list[tuple[str, str]]:
    """(key, worker) of the pending cubes that have been executing longer than `limit` seconds (issue 34: --cube-timeout 3
    showed cubes in flight for 182 s — a single long step inside a cube never reached its own deadline check).

    `running_since` is updated in place: a key is timed from the first time a worker is seen executing it (a cube queued
    behind another is not running yet), and forgotten once it is no longer pending."""
    seen = {key: worker for worker, keys in executing.items() for key in keys if key in pending_keys}
    for key in list(running_since):
        if key not in pending_keys:
            del running_since[key]
    for key in seen:
        running_since.setdefault(key, now)
    return sorted((key, seen[key]) for key, began in running_since.items() if key in seen and now - began > limit)


NO_WORKER_GRACE = 60.0  # seconds without any worker before the search ends "unknown"


def lost_or_bug(exc: BaseException) -> str:
    """Why the loop talking to the scheduler stopped: a lost connection, or (anything else) an internal error named as
    a bug with its type and place — never a bug dressed as a lost connection (issue 41: a NameError was reported as
    "the connection to the scheduler was lost")."""
    import concurrent.futures

    if isinstance(exc, (OSError, TimeoutError, concurrent.futures.CancelledError)) or type(exc).__name__ == "ClosedClientError":
        return f"the connection to the scheduler was lost ({type(exc).__name__})"
    return internal_error(exc)


def internal_error(exc: BaseException) -> str:
    """An exception that no input explains, as one line: its type, message and the innermost headfusion frame."""
    import os
    import traceback

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../headfusion
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename).startswith(package + os.sep)]
    place = ""
    if frames:
        where = os.path.relpath(os.path.abspath(frames[-1].filename), os.path.dirname(package)).replace(os.sep, "/")
        place = f" in {frames[-1].name} ({where}:{frames[-1].lineno})"
    return (f"internal error: {type(exc).__name__}: {exc}{place}; this is a bug in headfusion, not a lost connection "
            "or a property of the function: please report it")

