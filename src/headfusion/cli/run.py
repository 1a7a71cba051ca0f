"""Command line: `headfusion analyze | search | certify | verify | explore`.

The command line is the I/O edge (with the api and render's writers).  Exit codes: 0 success, 1 a check
failed (`headfusion.CheckFailed`), 2 bad input or usage (`headfusion.InputError`, which
includes the cost model's refusals).  Either gets one line on stderr, never a traceback.
Option values are checked by `spec.options` (the same checks as the API) before any work;
SIGTERM is turned into an orderly exit (143) so temporary files and folders are removed.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

from headfusion.cli.common import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK, given_options, one_line, without_out
from headfusion.cli.parser import build_parser
from headfusion.guards import Terminated, on_sigterm
from headfusion.spec.errors import CheckFailed, InputError


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `headfusion` command."""
    sys.set_int_max_str_digits(0)  # exact big integers such as 2^10000 in JSON
    parser = build_parser()
    import signal
    import threading

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, on_sigterm) if in_main else None
    try:
        return _main(parser, argv)
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


def _main(parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    raw_argv = list(sys.argv[1:] if argv is None else argv)
    code = _run(parser, raw_argv)
    if code in (EXIT_BAD_INPUT, EXIT_CHECK_FAILED) and "--json" in raw_argv and _ERROR:
        # --json: the error as JSON on stdout too, so a program reading stdout is never left with nothing (issue 34)
        import json

        sys.stdout.write(json.dumps({"error": _ERROR[-1], "exit_code": code}, ensure_ascii=False) + "\n")
    _ERROR.clear()
    return code


_ERROR: list[str] = []  # the one-line error of the running command, for --json


def _say(message: str) -> None:
    """The one error line on stderr (remembered for --json)."""
    _ERROR.append(one_line(message))
    sys.stderr.write(f"headfusion: error: {_ERROR[-1]}\n")


def _d_of_an_expression(args: argparse.Namespace) -> str | None:
    """What --d does to an expression (issue 41: `analyze "sigmoid(q1)" --d 3` was accepted silently): it only widens the
    domain to q1..qD; F does not depend on the variables it does not use, and m*(F) is the same."""
    import re

    from headfusion.spec.families import FAMILIES

    spec, d = getattr(args, "spec", None), getattr(args, "d", None)
    if not isinstance(spec, str) or d is None or spec.strip() in FAMILIES or spec.strip().endswith(".toml"):
        return None
    used = max((int(n) for n in re.findall(r"(?<![\w.])q([1-9][0-9]{0,6})(?!\w)", spec)), default=0)
    if d <= used:
        return None
    unused = f"q{used + 1}" + (f"..q{d}" if d > used + 1 else "")
    return (f"--d {d} with an expression only sets the dimension: it uses q1..q{used}, so F does not depend on {unused} "
            "and m*(F) is the same as without --d")


def _run(parser: argparse.ArgumentParser, raw_argv: list[str]) -> int:
    try:
        args = parser.parse_args(raw_argv)
        args.argv_for_record = without_out(raw_argv[1:])  # recorded in certificates: never the output folder
        args.given = given_options(raw_argv)  # options typed on the command line (an option that does nothing is refused)
        if isinstance(getattr(args, "spec", None), str) and args.spec.strip().endswith(".toml"):
            from headfusion.spec.load import resolve_spec_path

            args.spec, note = resolve_spec_path(args.spec.strip())  # proofs/x.toml from another folder: the repository's
            if note and not args.quiet:
                sys.stderr.write(f"headfusion: {one_line(note)}\n")
        handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return EXIT_BAD_INPUT
        code = handler(args)
        if code == EXIT_OK and (note := _d_of_an_expression(args)) and not args.quiet:  # a refusal stays one line
            sys.stderr.write(f"headfusion: note: {note}\n")
        return code
    except InputError as exc:  # bad input, options, paths, and the cost model's refusals
        _say(str(exc))
        return EXIT_BAD_INPUT
    except CheckFailed as exc:
        _say(str(exc))
        return EXIT_CHECK_FAILED
    except RecursionError:
        _say("input nested too deeply")
        return EXIT_BAD_INPUT
    except MemoryError:
        _say("out of memory: use a smaller input or d, or --no-atoms-list")
        return EXIT_BAD_INPUT
    except Terminated:
        sys.stderr.write("headfusion: terminated\n")
        return 143
    except BrokenPipeError:  # output piped into e.g. head: stop quietly
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        sys.stderr.write("headfusion: interrupted\n")
        return 130
