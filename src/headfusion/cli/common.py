"""What every command shares: exit codes, the usage error, one-line output helpers."""

from __future__ import annotations

import argparse
import json
import re
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

    def error(self, message: str) -> NoReturn:  # one clear line, exit 2; main() adds "headfusion: error: "
        command = self.prog.removeprefix("headfusion").strip()
        # "argument --d: --d must be ..." says --d twice: the option checks name their option
        message = re.sub(r"^argument [\w/-]+: (?=--?\w)", "", message)
        raise UsageError(f"{command}: {message}" if command else message)


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help states its default (flags are off by default)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or not action.option_strings or action.default in (None, False, argparse.SUPPRESS):
            return text
        return f"{text} (default: %(default)s)"


def without_out(argv: list[str]) -> list[str]:
    """The command line without `--out DIR` and `--quiet`: the same certificate is byte-identical wherever it is written."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--out":
            skip = True
        elif not arg.startswith("--out=") and arg not in ("-q", "--quiet"):
            kept.append(arg)
    return kept


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def big(value: int) -> str:
    text = str(value)
    if len(text) <= 24:
        return text
    if value > 0 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{text[:6]}...{text[-6:]} ({len(text)} digits)"


_TEX = ((r"\sum_{j=1}^d", "\0"), (r"\le", " ≤ "), (r"\ge", " ≥ "), (r"\ne ", " ≠ "), (r"\dots\ ", "... "), (r"\dots", "..."),
        (r"\text{ digits}", " digits"), ("m^*", "m*"), ("$", ""))


def plain_maths(tex: str) -> str:
    """A kernel statement for a terminal: m*(F) = 8, not $m^*(F)=8$ (the certificate keeps the LaTeX)."""
    for old, new in _TEX:
        tex = tex.replace(old, new)
    tex = re.sub(r"\^\{([0-9]+)\}", r"^\1", tex)
    tex = re.sub(r"\\(?:operatorname|mathrm|text)\{([^}]*)\}|\\([A-Za-z]+)\b ?", lambda m: m.group(1) or m.group(2), tex)  # no TeX left
    tex = re.sub(r"\s*([=+])\s*", r" \1 ", tex)
    return " ".join(tex.replace("\0", " Σ_{j=1..d} ").split())


def one_line(text: str) -> str:
    """One line, with no escape sequence or control character from any input."""
    from headfusion.spec.display import printable

    return printable(text)
