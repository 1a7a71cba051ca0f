"""Command line: `headfusion analyze | search | certify | verify | explore`.

The only module (with render.py) that does I/O.  Exit codes: 0 success, 1 a check
failed (`headfusion.CheckFailed`), 2 bad input or usage (`headfusion.InputError`, which
includes the cost model's refusals).  Either gets one line on stderr, never a traceback.
Option values are checked by `spec.options` (the same checks as the API) before any work;
SIGTERM is turned into an orderly exit (143) so temporary files and folders are removed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, NoReturn

from headfusion import __version__
from headfusion.spec import options
from headfusion.guards import Terminated, checked as _checked, deadline as _deadline, on_sigterm as _on_sigterm
from headfusion.spec.errors import CheckFailed, InputError

EXIT_OK, EXIT_CHECK_FAILED, EXIT_BAD_INPUT = 0, 1, 2


class UsageError(InputError):
    """Bad usage: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)  # `--ou DIR` would slip past the --out filter below
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one clear line, exit 2
        raise UsageError(f"{self.prog}: {message}")


def _without_out(argv: list[str]) -> list[str]:
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
    from headfusion.proof.analysis import analyze, write_json
    from headfusion.spec.load import load_spec

    with _deadline(args.timeout, "analyze"):
        spec = load_spec(args.spec, args.d)
        _progress(f"analyzing {spec.title[:60]}: exponential form, bounds ...")
        result = analyze(spec, list_atoms=not args.no_atoms_list, stream=args.json)
        if args.json:  # the atom list streams (generated while written), within the deadline
            _progress_done()
            write_json(result, sys.stdout)
            return EXIT_OK
    _progress_done()
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
    classes, edges = result.get("residue_classes"), result.get("rigid_edges")
    if classes:  # Lemma LK's instance: one line per block (the JSON has every class)
        for b in classes["blocks"][:3]:
            sums = sorted({c["sum"] for c in b["class_sums"]})
            tilt = "" if all(t == "1" for t in b["tilt"]) else f", tilt {', '.join(b['tilt'])}"
            out.write(f"  residue classes (LK): m* >= {_big(classes['bound'])}; block {b['block']}: {b['index']} classes{tilt}, "
                      f"every class sum = {sums[0]}\n")
    if edges:
        count = sum(len(b["edges"]) for b in edges["blocks"])
        out.write(f"  rigid edges (LE): m* >= {_big(edges['bound'])}; {count} tree edge{'s' if count != 1 else ''} with non-constant "
                  f"face limits, |supp Q'| = {_big(edges['support'])} > V = {_big(edges['vertices'])}\n")
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
    if value > 0 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{text[:6]}...{text[-6:]} ({len(text)} digits)"


# -- certify ------------------------------------------------------------------------------


def cmd_certify(args: argparse.Namespace) -> int:
    """`certify`: the certificate computed under a wall-clock guard, then written atomically."""
    from headfusion.cli_certify import certify_command

    return certify_command(args)


# -- explore ------------------------------------------------------------------------------


def cmd_explore(args: argparse.Namespace) -> int:
    from headfusion.proof.explore import explore, parse_range
    from headfusion.render.errors import RenderError
    from headfusion.render.explore import write_explore
    from headfusion.render.files import sanitize_slug
    from headfusion.spec.load import load_spec

    out_dir = options.out_dir(args.out)  # a writable folder, checked before any work
    values = parse_range(args.range)
    first = load_spec(args.spec, values.start)  # validates the spec and the range start before any work
    rows = [r.to_json() for r in explore(args.spec, values, args.timeout, progress=_progress)]
    _progress_done()
    slug = sanitize_slug(first.slug.rsplit("_", 1)[0] if first.d is not None else first.slug)
    title = _parameterised_title(first)
    try:
        paths = write_explore(rows, out_dir, slug, title)
    except RenderError as exc:
        sys.stderr.write(f"headfusion: error: {_one_line(str(exc))}\n")
        return EXIT_CHECK_FAILED
    if args.json:
        _print_json({"rows": rows, "files": {k: str(v) for k, v in sorted(paths.items())}})
        return EXIT_OK
    out = sys.stdout
    out.write(f"{'d':>4} {'terms':>7} {'lower':>10} {'upper':>10} {'minimum':>10}  decided by\n")
    for r in rows:
        minimum = "unknown" if r["minimum"] is None else _big(r["minimum"])
        out.write(f"{r['d']:>4} {r['head_atom_terms']:>7} {_big(r['lower_bound']):>10} {_big(r['upper_bound']):>10} "
                  f"{minimum:>10}  {r['decided_by']}\n")
    for kind, path in sorted(paths.items()):
        out.write(f"wrote {path}\n")
    if "png" not in paths:
        out.write("no plot image: needs a LaTeX engine and pdftoppm (poppler-utils)\n")
    return EXIT_OK


def _parameterised_title(spec) -> str:
    """The title with its parameter left symbolic (W_d(q) = ..., tournament on K_n, ...)."""
    if spec.kind == "family":
        from headfusion.spec.families import FAMILIES

        return FAMILIES[spec.text].title
    if spec.kind == "toml":
        from headfusion.spec.toml import read_toml_spec

        document = read_toml_spec(spec.text)
        name = document.parameter.name if document.parameter else "d"
        return document.title.replace("{" + name + "}", name)
    return spec.title


# -- verify -------------------------------------------------------------------------------


def cmd_verify(args: argparse.Namespace) -> int:
    """Replay every claim with the kernel; exit 1 if any fails, 2 if the file is not a bounded certificate."""
    from headfusion.kernel.base import SchemaError, parse_json, read_certificate_text
    from headfusion.proof.replay import verify_bounded

    try:
        _progress("verifying claims ...")
        report = verify_bounded(args.certificate, args.timeout)  # cost model, then the kernel in a child with a deadline
        cert = parse_json(read_certificate_text(args.certificate)) if args.resolve and report.ok else None
    except SchemaError as exc:
        raise UsageError(f"{args.certificate}: {exc}") from None
    except OSError as exc:  # e.g. /proc/self/mem: a "regular file" that cannot be read
        raise UsageError(f"cannot read {args.certificate}: {exc.strerror or exc}") from None
    resolved: list[tuple[str, str, str]] = []
    if args.resolve and report.ok:
        from headfusion.solving.resolve import resolve_testimony

        resolved = resolve_testimony(cert)
    _progress_done()
    ok = report.ok and not any(v == "sat" or v.startswith("hash mismatch") for _, _, v in resolved)
    rows = [{"id": i, "kind": k, "outcome": o, "message": m} for i, k, o, m in report.rows]
    if args.json:
        _print_json({"ok": ok, **dict(zip(("function", "title", "theorem"), report.shown)), "claims": rows,
                     "resolve": [{"claim": c, "solver": s, "verdict": v} for c, s, v in resolved]})
        return EXIT_OK if ok else EXIT_CHECK_FAILED
    for outcome in ("checked", "testimony", "undecided"):
        ids = [r["id"] for r in rows if r["outcome"] == outcome]
        if ids:
            label = {"checked": "proved and replayed", "testimony": "solver testimony, NOT checked",
                     "undecided": "undecided searches"}[outcome]
            sys.stdout.write(f"{label}: {len(ids)} ({', '.join(ids[:12])}{', ...' if len(ids) > 12 else ''})\n")
    for r in rows:
        if r["outcome"] == "failed":
            sys.stdout.write(_one_line(f"FAILED {r['id']} ({r['kind']}): {r['message']}") + "\n")  # ids and kinds are the file's
    for claim, solver, verdict in resolved:
        sys.stdout.write(f"re-solved {claim} with {solver}: {verdict}\n")
    if ok:
        function, title, statement = report.shown  # the kernel's text, never the file's
        sys.stdout.write(f"certificate verified: {statement}\n  F = {function}\n  (title, the spec's own label: {title})\n")
    else:
        sys.stdout.write("certificate REJECTED\n")
    return EXIT_OK if ok else EXIT_CHECK_FAILED


# -- search -------------------------------------------------------------------------------


def cmd_search(args: argparse.Namespace) -> int:
    """The whole search, bounds included, under a wall-clock guard of --timeout plus a little slack."""
    with _deadline(args.timeout + 5, "search"):
        return _search(args)


def _search(args: argparse.Namespace) -> int:
    """`search SPEC --atoms M` (one question) or `search SPEC --minimize` (least m)."""
    import time

    from headfusion.solving.process import cross_check_cvc5
    from headfusion.solving.solver import minimize, search, write_query_atomic
    from headfusion.solving.smtlib import Options
    from headfusion.spec.load import load_spec

    if (args.atoms is None) == (not args.minimize):
        raise UsageError("search: give exactly one of --atoms M and --minimize")
    if args.atoms is not None and args.atoms < 1:
        raise UsageError(f"search: --atoms must be at least 1, got {args.atoms}")
    if args.minimize and (args.smt2 or args.cross_check):
        raise UsageError("search: --smt2 and --cross-check apply to a single --atoms M")
    spec = load_spec(args.spec, args.d)
    if args.refute:
        from headfusion.cli_refute import search_refute

        return search_refute(args, spec)
    options = Options(args.encoding, symmetry=args.symmetry, faces=not args.no_faces)
    if args.minimize:
        began = time.monotonic()
        result = minimize(
            spec.model, args.timeout, options, args.jobs,
            progress=lambda m, points, elapsed: _progress(
                f"m = {m}: box {points} points, {time.monotonic() - began:.1f} s elapsed ..."
            ),
        )
        _progress_done()
        if args.json:
            _print_json({"spec": spec.text, "title": spec.title, **result.to_json()})
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
        return EXIT_OK
    _progress(f"searching for a head with at most {args.atoms} atoms ...")
    result = search(spec.model, args.atoms, args.timeout, options, args.jobs)
    _progress_done()
    if args.smt2:
        if result.query_text is None:
            sys.stderr.write(f"headfusion: no query written: {result.reason}\n")
        else:
            try:
                write_query_atomic(args.smt2, result.query_text)
            except OSError as exc:
                raise UsageError(f"cannot write {args.smt2}: {exc.strerror or exc}") from None
    code = EXIT_OK if result.checked is not False else EXIT_CHECK_FAILED
    if args.cross_check:
        if result.query_text is None:
            result.cross_check = {"solver": "cvc5", "status": "not run", "reason": result.reason}
        else:
            _progress("cross-checking with cvc5 ...")
            result.cross_check = cross_check_cvc5(result.query_text, args.timeout)
            _progress_done()
            other = result.cross_check["status"]
            if {other, result.status} == {"sat", "unsat"}:
                code = EXIT_CHECK_FAILED  # the two solvers disagree: nothing can be trusted
    if args.json:
        _print_json({"spec": spec.text, "title": spec.title, **result.to_json()})
        return code
    out = sys.stdout
    meaning = {
        "sat": f"a head with at most {args.atoms} atoms exists",
        "unsat": f"no head with at most {args.atoms} atoms: m*(F) > {args.atoms}",
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
    return code


def _write_atoms(atoms: list[dict], source: str) -> None:
    if not atoms:
        return
    sys.stdout.write(f"head ({len(atoms)} atoms, {source}) key | weight | value:\n")
    for atom in atoms[:64]:
        key = ", ".join(str(k) for k in atom["key"])
        sys.stdout.write(f"  ({key}) | {atom['weight']} | {atom['value']}\n")
    if len(atoms) > 64:
        sys.stdout.write(f"  ... {len(atoms) - 64} more (use --json for all)\n")


# -- parser -------------------------------------------------------------------------------


def _add_spec(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", help="family name (W), expression over q1..qN, or a proofs/*.toml path")
    parser.add_argument("--d", type=_checked(lambda v: options.optional_d(v, "--d", True)), default=None, help="the spec's parameter: d of a family or TOML spec, the number of vertices n for graph specs")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    from headfusion.proof.replay import DEFAULT_TIMEOUT as VERIFY_TIMEOUT

    parser = _Parser(prog="headfusion", description="Exact attention-head fusion: bounds, search, certificates.")
    parser.add_argument("--version", action="version", version=f"headfusion {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    analyze = sub.add_parser("analyze", help="exponential-family form, fused head and bounds")
    _add_spec(analyze)
    analyze.add_argument("--no-atoms-list", action="store_true", help="omit the fused head's atom list")
    analyze.add_argument("--timeout", type=_checked(lambda v: options.timeout(v, "--timeout", True)), default=60.0,
                         metavar="S", help="wall-clock limit in seconds (default 60)")
    analyze.set_defaults(handler=cmd_analyze)

    certify_ = sub.add_parser("certify", help="write a LaTeX/JSON proof certificate (and PDF)")
    _add_spec(certify_)
    certify_.add_argument("--out", default="out", help="output folder (default out/)")
    certify_.add_argument("--pdf", action="store_true", help="require the PDF (exit 2 without a LaTeX engine)")
    certify_.add_argument("--no-search", action="store_true", help="skip the solver searches")
    certify_.add_argument("--every-d", action="store_true",
                          help="the theorem for every d of a family F_d = Σ_j f(q_j) (W, tanh-sum, or such a TOML spec)")
    certify_.add_argument("--timeout", type=_checked(lambda v: options.timeout(v, "--timeout", True)), default=3600.0, metavar="S", help="wall-clock limit for the whole computation (default 3600 s)")
    certify_.add_argument("--search-timeout", type=_checked(lambda v: options.timeout(v, "--search-timeout", True)), default=60.0, help="seconds per solver question")
    certify_.add_argument("--refutation", action="append", metavar="FILE",
                          help="a refutation found by `search SPEC --atoms M --refute --json > FILE` (e.g. on a cluster); "
                               "replayed by the kernel, it replaces the solver at that M (repeatable)")
    certify_.add_argument("--timings", action="store_true", help="record solver seconds (output no longer byte-identical)")
    certify_.set_defaults(handler=cmd_certify)

    explore_ = sub.add_parser("explore", help="table of bounds and minima over a family's parameter")
    explore_.add_argument("spec", help="a family name (W, tanh-sum) or a proofs/*.toml spec")
    explore_.add_argument("--range", required=True, help="parameter range, e.g. 1..6")
    explore_.add_argument("--timeout", type=_checked(lambda v: options.timeout(v, "--timeout", True)), default=30.0, help="search seconds per value where bounds differ")
    explore_.add_argument("--out", default="out", help="output folder (default out/)")
    explore_.add_argument("--json", action="store_true", help="machine-readable output")
    explore_.set_defaults(handler=cmd_explore)

    verify = sub.add_parser("verify", help="re-check every claim of a certificate (exact, no solver)")
    verify.add_argument("certificate", help="a certificate .json written by certify")
    verify.add_argument("--resolve", action="store_true", help="also re-solve the solver testimony with z3 (and cvc5): fresh testimony, not proof")
    verify.add_argument("--json", action="store_true", help="machine-readable output")
    verify.add_argument("--timeout", type=_checked(lambda v: options.timeout(v, "--timeout", True)), default=VERIFY_TIMEOUT, metavar="S",
                        help=f"wall-clock limit of the replay in seconds, killed past it or past 2 GB (default {VERIFY_TIMEOUT:g})")
    verify.set_defaults(handler=cmd_verify)

    search_ = sub.add_parser("search", help="complete finite search (z3) for a head with at most M atoms")
    _add_spec(search_)
    search_.add_argument("--atoms", type=_checked(lambda v: options.count(v, "--atoms", from_text=True)), default=None, metavar="M", help="decide whether a head with at most M atoms exists")
    search_.add_argument("--minimize", action="store_true", help="step m up from the lower bound until a head exists")
    search_.add_argument("--timeout", type=_checked(lambda v: options.timeout(v, "--timeout", True)), default=60.0, metavar="S", help="time limit in seconds (total for --minimize)")
    search_.add_argument("--smt2", default=None, metavar="FILE", help="write the exact SMT-LIB 2 query to FILE")
    search_.add_argument("--cross-check", action="store_true", help="re-solve the query with cvc5 (when installed)")
    search_.add_argument("--encoding", choices=("cofactor", "plain"), default="cofactor", help="query encoding (default cofactor)")
    search_.add_argument("--symmetry", action="store_true", help="add lex-leader symmetry breaking (coordinate permutations)")
    search_.add_argument("--no-faces", action="store_true", help="omit the face-slice cardinality constraints")
    search_.add_argument("--jobs", type=_checked(lambda v: options.count(v, "--jobs", 1, options.MAX_JOBS, True)), default=1, metavar="N", help="solve 8 cubes in N processes")
    search_.add_argument("--refute", action="store_true", help="exact refutation (replayed by the kernel) by cube-and-conquer on Dask instead of z3")
    search_.add_argument("--scheduler", default=None, metavar="ADDRESS", help="with --refute: an existing Dask scheduler (tcp://HOST:8786; start `dask scheduler`, then `dask worker ADDRESS` on each machine); default: a LocalCluster, one worker process per core (or --jobs)")
    search_.add_argument("--checkpoint", default=None, metavar="DIR", help="with --refute: keep solved cubes in DIR; a rerun resumes from them")
    search_.add_argument("--cube-depth", type=_checked(lambda v: options.count(v, "--cube-depth", 0, 16, True)), default=3, metavar="K", help="with --refute: at most 2^K cubes at the start")
    search_.add_argument("--cube-timeout", type=_checked(lambda v: options.timeout(v, "--cube-timeout", True)), default=60.0, metavar="S", help="with --refute: seconds per cube before it is re-split")
    search_.set_defaults(handler=cmd_search)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `headfusion` command."""
    sys.set_int_max_str_digits(0)  # exact big integers such as 2^10000 in JSON
    parser = build_parser()
    import signal
    import threading

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if in_main else None
    try:
        return _main(parser, argv)
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


def _main(parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    try:
        raw_argv = list(sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(raw_argv)
        args.argv_for_record = _without_out(raw_argv[1:])  # recorded in certificates: never the output folder
        handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return EXIT_BAD_INPUT
        return handler(args)
    except InputError as exc:  # bad input, options, paths, and the cost model's refusals
        _progress_done()
        sys.stderr.write(f"headfusion: error: {_one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    except CheckFailed as exc:
        _progress_done()
        sys.stderr.write(f"headfusion: error: {_one_line(str(exc))}\n")
        return EXIT_CHECK_FAILED
    except RecursionError:
        _progress_done()
        sys.stderr.write("headfusion: error: input nested too deeply\n")
        return EXIT_BAD_INPUT
    except MemoryError:
        _progress_done()
        sys.stderr.write("headfusion: error: out of memory: use a smaller input or d, or --no-atoms-list\n")
        return EXIT_BAD_INPUT
    except Terminated:
        _progress_done()
        sys.stderr.write("headfusion: terminated\n")
        return 143
    except BrokenPipeError:  # output piped into e.g. head: stop quietly
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        _progress_done()
        sys.stderr.write("headfusion: interrupted\n")
        return 130


def _one_line(text: str) -> str:
    from headfusion.spec.display import printable

    return printable(text)  # one line, and no escape sequence or control character from any input


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
