"""Command line: `headfusion analyze | search | certify | verify | explore`.

The only module (with render.py) that does I/O.  Exit codes: 0 success, 1 a check
failed, 2 bad input or usage.  Bad input gets one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, NoReturn

from . import __version__
from .algebra import TooLarge
from .parse import SpecError

EXIT_OK, EXIT_CHECK_FAILED, EXIT_BAD_INPUT = 0, 1, 2


class UsageError(Exception):
    """Bad usage: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit 2
        raise UsageError(f"{self.prog}: {message}")


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


def _progress(message: str) -> None:
    """Progress on stderr (only when it is a terminal, so pipes and JSON stay clean)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + message)
        sys.stderr.flush()


def _progress_done() -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


# -- analyze ------------------------------------------------------------------------------


def cmd_analyze(args: argparse.Namespace) -> int:
    from .analysis import analyze
    from .spec import load_spec

    spec = load_spec(args.spec, args.d)
    result = analyze(spec, list_atoms=not args.no_atoms_list)
    if args.json:
        _print_json(result)
        return EXIT_OK
    out = sys.stdout
    out.write(f"function: {result['title']}  (dimension {result['dimension']})\n")
    out.write(f"heads: {result['heads']}, head-atom terms: {result['head_atom_terms']}\n")
    form = result["exponential_form"]
    out.write(f"exponential-family form: F = {form['constant']} + sum over {form['blocks_total']} block(s) of P'_B/Q'_B\n")
    if form["t"]:
        out.write(f"  t = {form['t']}\n")
    for i, block in enumerate(form["blocks"], 1):
        out.write(f"  block {i}: {', '.join(block['heads'])}  [{'; '.join(block['variables']) or 'constant'}]\n")
        if block["Q_reduced"] is not None:
            out.write(f"    Q' = {block['Q_reduced']}\n    P' = {block['P_reduced']}\n")
        else:
            out.write(f"    Q' has {block['Q_reduced_terms']} terms\n")
    if form["blocks_total"] > form["blocks_shown"]:
        out.write(f"  ... {form['blocks_total'] - form['blocks_shown']} more block(s)\n")
    out.write(f"fused head: {_big(result['upper_bound'])} atoms ({result['upper_bound_method']})\n")
    lower = result["lower_bound"]
    out.write(
        f"lower bound: {_big(lower)} ({result['lower_bound_method']})\n" if lower is not None else "lower bound: not computed\n"
    )
    minimum = result["minimum"]
    out.write(f"minimum m*: {_big(minimum)}\n" if minimum is not None else "minimum m*: undecided by bounds\n")
    atoms = result["fused_head"].get("atoms_list")
    if atoms is not None:
        shown = atoms[:64]
        out.write("atoms (key | weight | value):\n")
        for atom in shown:
            key = ", ".join(str(k) for k in atom["key"])
            out.write(f"  ({key}) | {atom['weight']} | {atom['value']}\n")
        if len(atoms) > len(shown):
            out.write(f"  ... {len(atoms) - len(shown)} more (use --json for all)\n")
    return EXIT_OK


def _big(value: int) -> str:
    text = str(value)
    if len(text) <= 24:
        return text
    return f"{text[:6]}...{text[-6:]} ({len(text)} digits; 2^{value.bit_length() - 1} ≤ it)"


# -- parser -------------------------------------------------------------------------------


def _add_spec(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", help="family name (W), expression over q1..qN, or a proofs/*.toml path")
    parser.add_argument("--d", type=int, default=None, help="parameter d of a family (dimension)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="headfusion", description="Exact attention-head fusion: bounds, search, certificates.")
    parser.add_argument("--version", action="version", version=f"headfusion {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    analyze = sub.add_parser("analyze", help="exponential-family form, fused head and bounds")
    _add_spec(analyze)
    analyze.add_argument("--no-atoms-list", action="store_true", help="omit the fused head's atom list")
    analyze.set_defaults(handler=cmd_analyze)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `headfusion` command."""
    sys.set_int_max_str_digits(0)  # exact big integers such as 2^10000 in JSON
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return EXIT_BAD_INPUT
        return handler(args)
    except (UsageError, SpecError, TooLarge) as exc:
        _progress_done()
        sys.stderr.write(f"headfusion: error: {_one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _progress_done()
        sys.stderr.write("headfusion: interrupted\n")
        return 130


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
