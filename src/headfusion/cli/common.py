"""What every command shares: exit codes, the usage error, one-line output helpers."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from headfusion.spec.errors import InputError

EXIT_OK, EXIT_CHECK_FAILED, EXIT_BAD_INPUT = 0, 1, 2


class UsageError(InputError):
    """Bad usage: one line on stderr, exit 2."""


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)  # `--ou DIR` would slip past the --out filter below
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one clear line, exit 2
        raise UsageError(f"{self.prog}: {message}")


def without_out(argv: list[str]) -> list[str]:
    """The command line without `--out DIR`: the same certificate is byte-identical wherever it is written."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--out":
            skip = True
        elif not arg.startswith("--out="):
            kept.append(arg)
    return kept


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def progress(message: str) -> None:
    """Progress on stderr (only when it is a terminal, so pipes and JSON stay clean)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + message)
        sys.stderr.flush()


def progress_done() -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def big(value: int) -> str:
    text = str(value)
    if len(text) <= 24:
        return text
    if value > 0 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{text[:6]}...{text[-6:]} ({len(text)} digits)"


def one_line(text: str) -> str:
    return " ".join(text.split())
