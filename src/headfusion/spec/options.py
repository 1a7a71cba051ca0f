"""Validation of option values, shared by the command line and the Python API.

Each function takes what the user gave (a string from the command line, or a Python value
from the API) and returns the checked value, or raises `InputError` with one line naming
the option, the accepted range and what was given.  The same words reach the CLI (exit 2)
and the API.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

from headfusion.spec.errors import InputError

MAX_TIMEOUT = 86_400.0  # one day: a larger wall-clock guard is no guard
MAX_ATOMS = 1_000_000
MAX_JOBS = 64
MAX_D = 1_000_000  # the largest --d any spec accepts (TOML parameters); the cost model refines it
SYSTEM_TREES = ("/proc", "/sys", "/dev")


def timeout(value: object, name: str = "timeout", from_text: bool = False) -> float:
    """Seconds: a finite number in (0, MAX_TIMEOUT] (a string only from the command line)."""
    seconds: float | None = None
    if isinstance(value, str) and from_text and value.isascii():  # float() reads '٢' and '２' as digits: ASCII only
        try:
            seconds = float(value)
        except ValueError:
            seconds = None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = float(value)
    if seconds is None or not math.isfinite(seconds) or not 0 < seconds <= MAX_TIMEOUT:
        kind = "" if seconds is not None or isinstance(value, (str, int, float)) else f" ({type(value).__name__})"
        raise InputError(f"{name} must be a finite number of seconds in (0, {MAX_TIMEOUT:g}], got {_show(value)}{kind}")
    return seconds


def count(value: object, name: str, low: int = 1, high: int = MAX_ATOMS, from_text: bool = False) -> int:
    """An integer in [low, high] (a bool is not an integer here; a string only from the command line)."""
    number: int | None = None
    if isinstance(value, str) and from_text:
        text = value.strip()
        if text.isascii() and text.lstrip("+-").isdigit() and len(text) <= 20:  # str.isdigit and int() accept '٢', '１'
            number = int(text)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    if number is None:
        kind = "" if isinstance(value, str) and from_text else f" ({type(value).__name__})"
        raise InputError(f"{name} must be an integer from {low} to {high}, got {_show(value)}{kind}")
    if number < low:
        raise InputError(f"{name} must be at least {low}, got {number}")
    if number > high:
        raise InputError(f"{name} must be at most {high}, got {number}")
    return number


def optional_d(value: object, name: str = "d", from_text: bool = False) -> int | None:
    """The spec parameter d: None, or an integer in [1, MAX_D]."""
    return None if value is None else count(value, name, 1, MAX_D, from_text)


def flag(value: object, name: str) -> bool:
    """A bool (the API's switches); 0/1 and other values are refused."""
    if not isinstance(value, bool):
        raise InputError(f"{name} must be True or False, got {_show(value)}")
    return value


def out_dir(value: object, name: str = "--out") -> Path:
    """A folder the certificate can be written to: an existing writable directory, or one that can be made
    (the command line says which folders it made: `cli.common.missing_folders`).

    Refused (nothing written): a regular file, a symlink loop, a path in /proc, /sys or /dev,
    a read-only or unwritable place.  Writability is probed with a temporary file that is
    removed at once (in the folder, or in its nearest existing parent when it does not exist yet).
    """
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise InputError(f"{name} must be a folder path, got {_show(value)}")
    text = str(value)
    if "\x00" in text:
        raise InputError(f"{name}: a path cannot contain a NUL character")
    try:
        path = Path(text).expanduser()
        absolute = Path(os.path.abspath(path))
        resolved = path.resolve(strict=False)
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop raises RuntimeError on 3.11
        raise InputError(f"{name} {text}: not a usable folder ({_reason(exc)})") from None
    for tree in SYSTEM_TREES:
        for candidate in (absolute, resolved):
            if candidate == Path(tree) or Path(tree) in candidate.parents:
                raise InputError(f"{name} {text}: refusing to write under {tree}")
    probe_dir = path
    try:
        if path.exists() or path.is_symlink():
            if not path.is_dir():
                raise InputError(f"{name} {text}: exists and is not a folder")
        else:
            probe_dir = next(p for p in absolute.parents if p.exists())
            if not probe_dir.is_dir():
                raise InputError(f"{name} {text}: {probe_dir} is not a folder")
        fd, probe = tempfile.mkstemp(prefix=".headfusion-probe-", dir=probe_dir)
        os.close(fd)
        os.unlink(probe)
    except InputError:
        raise
    except (OSError, RuntimeError, StopIteration) as exc:
        raise InputError(f"{name} {text}: not a writable folder ({_reason(exc)})") from None
    return path


def output_name(value: object, name: str = "--name") -> str | None:
    """The base name of output files (`--name mine` writes mine.json, mine.tex, ...): None, or 1-64 of [A-Za-z0-9_-]."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{name} must be a string, got {_show(value)}")
    from headfusion.spec.toml_document import check_name

    return check_name(value, name)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return " ".join(str(exc).split()) or type(exc).__name__


def _show(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else value
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."
