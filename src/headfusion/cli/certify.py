"""`headfusion certify`: compute under the wall-clock guard, then write atomically."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from headfusion.cli.common import (EXIT_CHECK_FAILED, EXIT_OK, UsageError, answer_lines, big, certificate_answer, one_line,
                                   missing_folders, plain_maths, print_json, refuse_idle, say_made)
from headfusion.cli.progress import Progress
from headfusion.guards import deadline
from headfusion.spec import options


def _certified(args: argparse.Namespace, command: list[str], progress: Progress):
    """The certificate data of `certify` (for one d, or for every d)."""
    from headfusion.proof.certify import certify, certify_every_d
    from headfusion.spec.load import load_spec

    if args.every_d:
        refuse_idle(args, "certify --every-d", ("--no-search", "--search-timeout", "--timings"),
                    "concerns searches, and the theorem for every d searches nothing (searches do not multiply over d)")
    elif args.no_search:
        refuse_idle(args, "certify --no-search", ("--search-timeout", "--timings"), "concerns searches, and --no-search runs none")
    refutations = _supplied_refutations(args.refutation or [])
    if refutations and (args.no_search or args.every_d):
        raise UsageError("--refutation supplies a search result: it does not combine with --no-search or --every-d")
    if args.trees_only and (args.every_d or args.every is not None):
        raise UsageError("--trees-only concerns one function's searches: it does not combine with --every-d or --every")
    if args.every is not None:  # the theorem for a two-parameter family (issue 26)
        if refutations or args.every_d or args.d is not None:
            raise UsageError("--every states a theorem for every pair: leave out --d, --every-d and --refutation")
        from headfusion.proof.certify import certify_every_pair

        return certify_every_pair(args.spec, [n.strip() for n in args.every.split(",")], command)
    if not args.every_d:
        spec = load_spec(args.spec, args.d)
        searches = lambda seconds: deadline(seconds, "certify's searches")  # noqa: E731 - nested in the command's own guard
        return certify(spec, command, search=not args.no_search, search_timeout=args.search_timeout,
                       progress=progress, timings=args.timings, refutations=refutations, timeout=args.timeout, guard=searches,
                       announce=progress.say, lemmas=not args.trees_only)
    if args.d is not None:
        raise UsageError("--every-d states the theorem for every d: leave out --d")
    return certify_every_d(args.spec, command)


def _supplied_refutations(paths: list[str]) -> dict[int, dict]:
    """m → refutation, read (bounded) from `search SPEC --atoms M --refute --json` outputs."""
    from headfusion.proof.certify import read_refutations

    return read_refutations(paths)


def cmd_certify(args: argparse.Namespace) -> int:
    """`certify`: the certificate computed under a wall-clock guard, then written atomically."""
    from headfusion.render.errors import RenderError
    from headfusion.render.files import latex_engine
    from headfusion.render.write import other_function_at, write_certificate

    out_dir = options.out_dir(args.out)  # a writable folder, checked before any work
    made = missing_folders(out_dir)
    if args.pdf and latex_engine() is None:  # refuse before any work, nothing written
        raise UsageError(
            "no LaTeX engine found: apt-get install -y texlive-latex-base texlive-latex-recommended "
            "texlive-pictures latexmk"
        )
    command = ["headfusion", "certify"] + list(args.argv_for_record)
    with Progress("certify", quiet=args.quiet) as progress:
        with deadline(args.timeout, "certify", "a smaller input or d, --no-search, or a larger --timeout"):  # the computation only: the writes below are atomic
            result = _certified(args, command, progress)
        progress("writing the certificate" + (" (LaTeX to PDF)" if not args.no_pdf else ""))
        if (replaced := other_function_at(out_dir, args.name, result.certificate)) is not None:
            sys.stderr.write(f"headfusion: note: {one_line(replaced)}\n")  # said even with -q: a file of another function goes
        try:
            paths = write_certificate(result.certificate, out_dir, result.queries,
                                      pdf=True if args.pdf else False if args.no_pdf else None, name=args.name)
        except RenderError as exc:
            progress.close()
            sys.stderr.write(f"headfusion: error: {one_line(str(exc))}\n")
            return EXIT_CHECK_FAILED
    say_made([f for f in made if Path(f).is_dir()])
    summary = result.certificate["summary"]
    theorem = next(c for c in result.certificate["claims"] if c["id"] == "theorem")
    notes = result.certificate["metadata"].get("notes", [])
    family = next((c["evidence"] for c in result.certificate["claims"] if c["id"] == "family:graphs"), None)
    from headfusion.render.everyd import first_member

    answered = certificate_answer(summary, plain_maths(theorem["statement"]), f"headfusion verify {paths['json']}", family is not None,
                                  first_member(result.certificate))
    if args.json:
        print_json({"summary": summary, "notes": notes, **answered, "files": {k: str(v) for k, v in sorted(paths.items())}})
        return EXIT_OK
    title = result.certificate["spec"]["title"]
    if result.certificate["spec"].get("every"):
        every = result.certificate["spec"]["every"]  # a, b; or a, b and two real biases (Theorem Pβ)
        biases = f" and all real {', '.join(every[2:])}" if len(every) == 4 else ""
        sys.stdout.write(f"{title}: {summary['status']} for every pair {', '.join(every[:2])}{biases}\n")
    elif summary["every_d"] and family is not None:  # Lemma LF over a class of graphs: its parameter is n, no copies
        sys.stdout.write(f"{title}: {summary['status']} for every n ≥ {family['from']} (Lemma LF; the member n = {family['from']}: "
                         f"lower {summary['lower_bound']}, upper {summary['upper_bound']})\n")
    elif summary["every_d"]:
        sys.stdout.write(f"{title}: {summary['status']} for every d (block bounds {summary['lower_bound']} and {summary['upper_bound']})\n")
    else:
        sys.stdout.write(f"{title}: {summary['status']} — lower {big(summary['lower_bound'])}, "
                         f"upper {big(summary['upper_bound'])}, minimum {big(summary['minimum']) if summary['minimum'] is not None else 'undecided'}\n")
    sys.stdout.write(f"theorem: {plain_maths(theorem['statement'])}\n")
    for kind, path in sorted(paths.items()):
        sys.stdout.write(f"wrote {path}\n")
    if "pdf" not in paths and not args.no_pdf:
        sys.stdout.write(
            "no PDF: no LaTeX engine found (apt-get install -y texlive-latex-base texlive-latex-recommended "
            "texlive-pictures latexmk), then run again or use --pdf; --no-pdf skips it\n"
        )
    for note in notes:  # a search skipped or left as testimony is said here, not only inside the certificate
        sys.stdout.write(f"note: {one_line(note)}\n")
    sys.stdout.write(answer_lines(answered))
    return EXIT_OK
