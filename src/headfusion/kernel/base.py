"""Kernel basics: errors, resource limits, exact numbers from JSON, bounded loading, hashes.

Standard library only.  Every limit is named in the message of the error that enforces it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from fractions import Fraction

MAX_FILE_BYTES = 64 * 2**20  # a certificate file
MAX_DEPTH = 40  # JSON nesting
MAX_DIGITS = 4000  # digits of one integer (2^10000 has 3,011)
MAX_TERMS = 2_000_000  # terms of one polynomial, and term pairs of one product
MAX_POINTS = 200_000  # support points compared by one Newton or box check
MAX_NODES = 2_000_000  # refutation tree nodes, face-limit nodes
MAX_EXPONENT = 1_000_000  # |exponent| of one variable in a stored polynomial
MAX_T_POWER = 4096  # spread of the powers of t in a sign decision (the spec layer allows 1,024 per block)


class SchemaError(Exception):
    """The input is not a certificate, or exceeds a stated limit (exit 2)."""


class CheckFailed(Exception):
    """A claim does not re-check (exit 1)."""


def require(condition: object, message: str) -> None:
    """Fail the current claim with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def within(amount: int, limit: int, what: str) -> None:
    """Refuse work above a limit (SchemaError names the limit)."""
    if amount > limit:  # a huge amount is named by its length (a 4,000-digit number is not a message)
        raise SchemaError(f"{what}: {amount if amount < 10**30 else f'a {len(str(amount))}-digit number'} exceeds the verification limit {limit}")


def _bounded_int(text: str) -> int:
    within(len(text.lstrip("-")), MAX_DIGITS, "digits of an integer")
    return int(text)


def _refuse_inexact(text: str) -> None:
    raise SchemaError(f"floating-point number {text[:20]} in a certificate (exact numbers only)")


def read_certificate_text(path: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most `limit` bytes (SchemaError otherwise; never blocks on a FIFO)."""
    try:  # open first, then look at what was opened: no window for a swap, and O_NONBLOCK never waits for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise SchemaError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO, a device, a folder
        os.close(fd)
        raise SchemaError(f"{path} is not a regular file")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)  # a 5 GB sparse file costs one read of the limit, then the refusal
    within(len(data), limit, "file size in bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SchemaError("not UTF-8 text") from None


def _object(pairs: list) -> dict:
    if len(out := dict(pairs)) < len(pairs):  # json would keep the last: a reader's grep would not see what is checked
        seen: set = set()
        raise SchemaError(f"duplicate key {next(k for k, _ in pairs if k in seen or seen.add(k))[:40]!r} in a JSON object")
    return out


def parse_json(text: str, floats: bool = False) -> object:
    """JSON with bounded nesting and integer size, no duplicate keys, and no floats (floats=True: kept as text)."""
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_float=str if floats else _refuse_inexact,
                          parse_constant=_refuse_inexact, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise SchemaError(f"JSON nesting exceeds the verification limit {MAX_DEPTH}") from None
    level, depth = [data] if isinstance(data, (list, dict)) else [], 1
    while level:  # level by level: the depth check itself cannot recurse
        if depth > MAX_DEPTH:
            raise SchemaError(f"JSON nesting exceeds the verification limit {MAX_DEPTH}")
        level, depth = [c for node in level for c in (node.values() if isinstance(node, dict) else node) if isinstance(c, (list, dict))], depth + 1
    return data


def rational(value: object) -> Fraction:
    """An exact rational from JSON: an integer or the string "p/q" (CheckFailed otherwise)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, str) and not value.isascii():  # str.isdigit and int() accept '٢', '２', '१': refused as input
        raise SchemaError(f"a number with non-ASCII characters: {value[:40].encode('ascii', 'backslashreplace').decode()}")
    if isinstance(value, str) and len(value) <= 2 * MAX_DIGITS + 2:
        num, sep, den = value.partition("/")
        if num.lstrip("-").isdigit() and (not sep or den.isdigit()) and (not sep or int(den) > 0):
            return Fraction(int(num), int(den) if sep else 1)
    raise CheckFailed(f"not an exact rational: {str(value)[:40]!r}")


def integer(value: object) -> int:
    """An integer from JSON (CheckFailed otherwise)."""
    require(isinstance(value, int) and not isinstance(value, bool), f"not an integer: {str(value)[:40]!r}")
    return value  # type: ignore[return-value]


def rational_json(value: Fraction) -> int | str:
    """JSON of a rational: an integer or "p/q"."""
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def canonical_json(data: object) -> str:
    """Canonical serialisation: sorted keys, no spaces (hashes are taken of this)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256(data: object) -> str:
    """SHA-256 of the canonical JSON of `data` (of the UTF-8 bytes when `data` is a string)."""
    raw = data if isinstance(data, str) else canonical_json(data)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()
