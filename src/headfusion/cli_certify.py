"""`headfusion certify` (CLI edge): compute under the wall-clock guard, then write atomically."""

from __future__ import annotations

import argparse
import sys

from headfusion.cli import (EXIT_CHECK_FAILED, EXIT_OK, UsageError, _big, _deadline, _one_line, _print_json, _progress,
                            _progress_done)
from headfusion.spec import options


def _certified(args: argparse.Namespace, command: list[str]):
    """The certificate data of `certify` (for one d, or for every d)."""
    from headfusion.proof.certify import certify, certify_every_d
    from headfusion.spec.load import load_spec

    refutations = _supplied_refutations(args.refutation or [])
    if refutations and (args.no_search or args.every_d):
        raise UsageError("--refutation supplies a search result: it does not combine with --no-search or --every-d")
    if not args.every_d:
        spec = load_spec(args.spec, args.d)
        return certify(spec, command, search=not args.no_search, search_timeout=args.search_timeout,
                       progress=_progress, timings=args.timings, refutations=refutations)
    if args.d is not None:
        raise UsageError("--every-d states the theorem for every d: leave out --d")
    return certify_every_d(args.spec, command)


def _supplied_refutations(paths: list[str]) -> dict[int, dict]:
    """m → refutation, read (bounded) from `search SPEC --atoms M --refute --json` outputs."""
    from headfusion.proof.certify import read_refutations

    return read_refutations(paths)


def certify_command(args: argparse.Namespace) -> int:
    """Compute the certificate under the wall-clock guard, then write it atomically."""
    from headfusion.render.errors import RenderError
    from headfusion.render.files import latex_engine
    from headfusion.render.write import write_certificate

    out_dir = options.out_dir(args.out)  # a writable folder, checked before any work
    if args.pdf and latex_engine() is None:  # refuse before any work, nothing written
        raise UsageError(
            "no LaTeX engine found: apt-get install -y texlive-latex-base texlive-latex-recommended "
            "texlive-pictures latexmk"
        )
    command = ["headfusion", "certify"] + list(args.argv_for_record)
    with _deadline(args.timeout, "certify"):  # the computation only: the writes below are atomic
        result = _certified(args, command)
    _progress("rendering LaTeX ...")
    try:
        paths = write_certificate(result.certificate, out_dir, result.queries, pdf=True if args.pdf else None)
    except RenderError as exc:
        _progress_done()
        sys.stderr.write(f"headfusion: error: {_one_line(str(exc))}\n")
        return EXIT_CHECK_FAILED
    _progress_done()
    summary = result.certificate["summary"]
    if args.json:
        _print_json({"summary": summary, "files": {k: str(v) for k, v in sorted(paths.items())}})
        return EXIT_OK
    theorem = next(c for c in result.certificate["claims"] if c["id"] == "theorem")
    title = result.certificate["spec"]["title"]
    if summary["every_d"]:
        sys.stdout.write(f"{title}: {summary['status']} for every d (block bounds {summary['lower_bound']} and {summary['upper_bound']})\n")
    else:
        sys.stdout.write(f"{title}: {summary['status']} — lower {_big(summary['lower_bound'])}, "
                         f"upper {_big(summary['upper_bound'])}, minimum {_big(summary['minimum']) if summary['minimum'] is not None else 'undecided'}\n")
    sys.stdout.write(f"theorem: {theorem['statement']}\n")
    for kind, path in sorted(paths.items()):
        sys.stdout.write(f"wrote {path}\n")
    if "pdf" not in paths:
        sys.stdout.write(
            "no PDF: no LaTeX engine found (apt-get install -y texlive-latex-base texlive-latex-recommended "
            "texlive-pictures latexmk), then run again or use --pdf\n"
        )
    return EXIT_OK
