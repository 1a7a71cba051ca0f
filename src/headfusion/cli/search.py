"""`headfusion search`: the complete finite search (z3) for a head with at most M atoms."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from headfusion.cli.common import (EXIT_CHECK_FAILED, lemma_tables, EXIT_OK, UsageError, answer, answer_lines, missing_folders,
                                   print_json, refuse_idle, say_made, spec_words)
from headfusion.cli.proved import answer_from_proof
from headfusion.cli.progress import Progress
from headfusion.guards import DeadlineExceeded, deadline


REFUTE_SLACK = 30.0  # seconds after --timeout for a cluster to start and shut down before the guard fires
SEARCH_SLACK = 5.0  # seconds after --timeout for z3 to return its own "unknown" before the guard fires


def cmd_search(args: argparse.Namespace) -> int:
    """The whole search, bounds included, under a wall-clock guard of --timeout plus a little slack.

    With --refute the refutation itself stops at --timeout from the start (answering
    "unknown"); the guard leaves REFUTE_SLACK more for the cluster to start and stop.
    """
    import time

    args.started = time.time()
    slack = REFUTE_SLACK if args.refute else SEARCH_SLACK
    try:
        with deadline(args.timeout + slack, "search", "a larger --timeout"), Progress("search", quiet=args.quiet) as progress:
            return _search(args, progress)
    except DeadlineExceeded:  # a search that runs out of time is undecided, never an error (exit 0, as the README says)
        return _out_of_time(args)


def _out_of_time(args: argparse.Namespace) -> int:
    """The "unknown" answer when the guard fired before the search could answer by itself (a busy machine)."""
    reason = f"time limit of {args.timeout:g} s reached before the search answered"
    if args.minimize:
        answered = answer("unknown", "m*(F)?", reason, f"headfusion certify {spec_words(args)}")
        head = "minimum m*: undecided"
    else:
        answered = search_answer("unknown", args, reason)
        head = f"{spec_words(args)}, m = {args.atoms}: UNKNOWN (undecided)"
    if args.json:
        print_json({"spec": args.spec, "status": "unknown", "reason": reason, **answered})
    else:
        sys.stdout.write(f"{head} ({reason})\n" + answer_lines(answered))
    return EXIT_OK


def _search(args: argparse.Namespace, progress: Progress) -> int:
    """`search SPEC --atoms M` (one question) or `search SPEC --minimize` (least m)."""
    from headfusion.solving.process import cross_check_cvc5
    from headfusion.solving.solver import minimize, search
    from headfusion.solving.smtlib import Options
    from headfusion.spec.load import load_spec

    if (args.atoms is None) == (not args.minimize):
        raise UsageError("search: give exactly one of --atoms M and --minimize")
    if args.atoms is not None and args.atoms < 1:
        raise UsageError(f"search: --atoms must be at least 1, got {args.atoms}")
    if args.minimize and (args.smt2 or args.cross_check):
        raise UsageError("search: --smt2 and --cross-check apply to a single --atoms M")
    if args.refute:
        refuse_idle(args, "search --refute", ("--encoding", "--symmetry", "--no-faces"),
                    "shapes the z3 query; the refutation producer does not use it (leave it out, or drop --refute)")
        if args.scheduler is not None:
            refuse_idle(args, "search --refute", ("--jobs",), "sets the workers of a LocalCluster; with --scheduler "
                        "the cluster's own workers run the cubes (start one `dask worker` per core there)")
    else:
        refuse_idle(args, "search", ("--scheduler", "--checkpoint", "--cube-depth", "--cube-timeout", "--verbose"),
                    "applies only with --refute (exact refutations on Dask); the z3 search runs here, --jobs N splits "
                    "it over N processes")
    if args.cross_check:
        from headfusion.solving.process import cvc5_available

        if not cvc5_available():
            raise UsageError("search: --cross-check re-solves the query with cvc5, which is not installed: "
                             "pip install cvc5 (or pip install 'headfusion[cvc5]')")
    smt2 = _smt2_target(args.smt2) if args.smt2 else None  # checked before any work
    spec = load_spec(args.spec, args.d)
    if args.refute:
        from headfusion.cli.refute import search_refute

        return search_refute(args, spec, progress)
    if args.atoms is not None and (answer := answer_from_proof(args, spec, progress)) is not None:  # no solver below the bound
        return answer
    options = Options(args.encoding, symmetry=args.symmetry, faces=not args.no_faces)
    if args.minimize:
        result = minimize(
            spec.model, args.timeout, options, args.jobs,
            progress=lambda m, points, elapsed: progress(f"m = {m}: box {points} points, {args.timeout - elapsed:.0f} s left"),
        )
        progress.close()
        answered = minimize_answer(result, args)
        if args.json:
            print_json({"spec": spec.text, "title": spec.title, **result.to_json(), **answered})
            return EXIT_OK
        out = sys.stdout
        for step in result.steps:
            how = f" ({step['method']})" if "method" in step else f" in {step['seconds']:.2f} s"
            out.write(f"m = {step['atoms']}: {step['status']}{how}\n")
        if result.status == "decided":
            out.write(f"minimum m*: {result.minimum}  ({spec.title})\n")
        else:
            out.write(f"minimum m*: undecided ({result.reason})\n")
        _write_atoms(result.head_json or [], result.head_source or "")
        out.write(answer_lines(answered))
        return EXIT_OK
    import time

    left = max(args.timeout - (time.time() - args.started), 1.0)  # what the bounds and a line (Lemma R) left of --timeout
    progress(f"a head with at most {args.atoms} atoms? (z3, at most {left:.0f} s)")
    result = search(spec.model, args.atoms, left, options, args.jobs)
    if smt2 is not None:
        if result.query_text is None:
            sys.stderr.write(f"headfusion: no query written: {result.reason}\n")
        else:
            from headfusion.render.files import atomic_write

            made = missing_folders(smt2.parent)
            try:
                smt2.parent.mkdir(parents=True, exist_ok=True)  # `--smt2 out/q.smt2` on a fresh checkout
                atomic_write(smt2, result.query_text.encode("utf-8"))  # the usual permissions, as every file written
            except OSError as exc:
                raise UsageError(f"cannot write {args.smt2}: {exc.strerror or exc}") from None
            say_made(made)
    code = EXIT_OK if result.checked is not False else EXIT_CHECK_FAILED
    if args.cross_check:
        if result.query_text is None:
            result.cross_check = {"solver": "cvc5", "status": "not run", "reason": result.reason}
        else:
            progress("cross-checking with cvc5")
            result.cross_check = cross_check_cvc5(result.query_text, args.timeout)
            other = result.cross_check["status"]
            if {other, result.status} == {"sat", "unsat"}:
                code = EXIT_CHECK_FAILED  # the two solvers disagree: nothing can be trusted
    progress.close()
    answered = search_answer(result.status, args, result.reason, result.box_points)
    if args.json:
        print_json({"spec": spec.text, "title": spec.title, **result.to_json(), **answered})
        return code
    out = sys.stdout
    meaning = {
        "sat": f"a head with at most {args.atoms} atoms exists",
        "unsat": f"z3 finds no head with at most {args.atoms} atoms: solver testimony",
        "unknown": "undecided",
    }[result.status]
    out.write(f"{spec.title}, m = {args.atoms}: {result.status.upper()} ({meaning})\n")
    out.write(f"  solver {result.solver_name} {result.solver_version}, encoding {result.encoding}, {result.seconds:.2f} s\n")
    if result.box_shape:
        shape = "x".join(str(n) for n in result.box_shape)
        out.write(f"  box {shape} = {result.box_points} points\n")
    if result.query_sha256:
        out.write(f"  query sha256 {result.query_sha256}\n")
    if result.reason:
        out.write(f"  reason: {result.reason}\n")
    if result.cross_check is not None:
        cc = result.cross_check
        out.write(f"  cross-check {cc['solver']}: {cc['status']}" + (f" ({cc['reason']})" if cc.get("reason") else "") + "\n")
    if result.head_atoms is not None:
        _write_atoms([a.to_json() for a in result.head_atoms], "search, checked exactly")
    out.write(answer_lines(answered))
    return code


def search_answer(status: str, args: argparse.Namespace, reason: str | None, box: int = 0) -> dict:
    """The answer of `search --atoms M` (z3): a head found and checked, z3's unsat (testimony), or unknown."""
    m, spec = args.atoms, spec_words(args)
    from headfusion.kernel.base import MAX_POINTS
    from headfusion.solving.solver import MAX_BOX_POINTS

    if status == "unknown" and box > MAX_BOX_POINTS:  # a size limit: more time cannot help; name what can
        fix = (f"headfusion search {spec} --atoms {m} --refute" if box <= MAX_POINTS else f"headfusion certify {spec}")
        return answer("unknown", f"a head with at most {m} atoms?", f"{reason} (a size limit, so a larger --timeout cannot "
                      f"help; " + (f"--refute replays boxes up to {MAX_POINTS:,} points in the kernel)" if box <= MAX_POINTS
                                   else "certify proves what the lemmas give)"), fix)
    if status == "sat":
        return answer("found", f"a head with at most {m} atoms exists", "z3, and checked exactly", f"headfusion certify {spec}")
    if status == "unsat":
        return answer("testimony", f"no head with at most {m} atoms", "z3 unsat",
                      f"headfusion search {spec} --atoms {m} --refute")
    return answer("unknown", f"a head with at most {m} atoms?", reason or "the solver returned unknown",
                  f"headfusion search {spec} --atoms {m} --timeout {min(2 * args.timeout, 86400):g}")


def minimize_answer(result, args: argparse.Namespace) -> dict:
    """The answer of `search --minimize`: proved when the lower bound is met, testimony when z3 excluded smaller m."""
    spec = spec_words(args)
    if result.status != "decided":
        return answer("unknown", "m*(F)?", result.reason or "undecided", f"headfusion certify {spec}")
    excluded = [s["atoms"] for s in result.steps if s["status"] == "unsat"]
    head = "the fused head" if result.head_source == "fused head" else f"a head of {result.minimum} atoms checked exactly"
    if not excluded:
        lemma = lemma_tables()[0].get(result.lower_bound_lemma or "", "the proved lower bound")
        return answer("proved", f"m*(F) = {result.minimum}", f"{lemma} and {head}, computed exactly (certify writes "
                      "the certificate the kernel replays)", f"headfusion certify {spec}")
    span = f"m = {excluded[0]}" + (f"..{excluded[-1]}" if len(excluded) > 1 else "")
    return answer("testimony", f"m*(F) = {result.minimum}", f"z3 unsat at {span}; {head}",
                  f"headfusion certify {spec}")


def _smt2_target(text: str) -> Path:
    """The --smt2 file: its folder is writable or can be made (as --out), and the file is no folder itself."""
    from headfusion.spec import options

    path = Path(text)
    options.out_dir(str(path.parent), "--smt2")
    if path.is_dir():
        raise UsageError(f"--smt2 {text}: a folder of that name exists")
    return path


def _write_atoms(atoms: list[dict], source: str) -> None:
    if not atoms:
        return
    sys.stdout.write(f"head ({len(atoms)} atoms, {source}) key | weight | value:\n")
    for atom in atoms[:64]:
        key = ", ".join(str(k) for k in atom["key"])
        sys.stdout.write(f"  ({key}) | {atom['weight']} | {atom['value']}\n")
    if len(atoms) > 64:
        sys.stdout.write(f"  ... {len(atoms) - 64} more (use --json for all)\n")
