"""The preflight probe a cluster worker runs before its first cube (solving/workers.py sends it).

It imports nothing of headfusion's at module level, and `workers.preflight` registers this module
with cloudpickle to be pickled by value, so the probe's code travels with the call and runs on a
worker where headfusion is missing — reporting that, instead of failing to unpickle.
"""

from __future__ import annotations


def headfusion_probe() -> dict:
    """This process's Python, host, and headfusion: its version and a digest of its .py files (or the import error)."""
    import hashlib
    import pathlib
    import socket
    import sys

    report = {"python": sys.executable, "host": socket.gethostname()}
    try:
        import headfusion
    except Exception as exc:  # the worker is set up wrong: say why, do not fail the call
        report["error"] = f"{type(exc).__name__}: {exc}"
        return report
    root = pathlib.Path(headfusion.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    report["version"] = getattr(headfusion, "__version__", "?")
    report["digest"] = digest.hexdigest()[:12]
    return report
