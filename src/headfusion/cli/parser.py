"""The argument parser of every command (help texts state the defaults)."""

from __future__ import annotations

import argparse

from headfusion import __version__
from headfusion.cli.analyze import cmd_analyze
from headfusion.cli.atlas import cmd_atlas
from headfusion.cli.certify import cmd_certify
from headfusion.cli.common import HelpFormatter, Parser
from headfusion.cli.explore import cmd_explore
from headfusion.cli.export import cmd_export
from headfusion.cli.search import cmd_search
from headfusion.cli.verify import cmd_verify
from headfusion.guards import checked
from headfusion.proof.replay import DEFAULT_TIMEOUT as VERIFY_TIMEOUT
from headfusion.spec import options
from headfusion.spec.graph_atlas import MAX_GRAPH_VERTICES


def _add_spec(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", help="family name (W, sigmoid-sum, tanh-sum), expression over q1..qN, or a proofs/*.toml path")
    parser.add_argument("-d", "--d", type=checked(lambda v: options.optional_d(v, "--d", True)), default=None, metavar="D",
                        help="the spec's parameter: d of a family or TOML spec, the number of vertices n for graph specs "
                             "(default: a TOML spec's own default; a family needs it)")
    _add_output(parser)


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr (errors still get their one line)")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="headfusion", description="Exact attention-head fusion: bounds, search, certificates.",
                    epilog="Exit codes: 0 success, 1 a check failed, 2 bad input or usage, 130 interrupted (Ctrl-C), "
                           "143 terminated.", formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"headfusion {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    add = lambda name, text: sub.add_parser(name, help=text, description=text, formatter_class=HelpFormatter)  # noqa: E731

    analyze = add("analyze", "exponential-family form, fused head and bounds")
    _add_spec(analyze)
    analyze.add_argument("--no-atoms-list", action="store_true", help="omit the fused head's atom list")
    analyze.add_argument("--timeout", type=checked(lambda v: options.timeout(v, "--timeout", True)), default=60.0,
                         metavar="S", help="wall-clock limit in seconds")
    analyze.set_defaults(handler=cmd_analyze)

    certify_ = add("certify", "write a LaTeX/JSON proof certificate (and PDF)")
    _add_spec(certify_)
    certify_.add_argument("--out", default="out", help="output folder")
    certify_.add_argument("--name", type=checked(lambda v: options.output_name(v)), default=None, metavar="NAME",
                          help="name the output files NAME.json, NAME.tex, NAME.pdf (default: the spec's slug, e.g. W_d3)")
    pdf = certify_.add_mutually_exclusive_group()
    pdf.add_argument("--pdf", action="store_true", help="require the PDF (exit 2 without a LaTeX engine; default: "
                                                        "the PDF when a LaTeX engine is found)")
    pdf.add_argument("--no-pdf", action="store_true", help="write the JSON and LaTeX only, no PDF")
    certify_.add_argument("--no-search", action="store_true", help="skip the solver searches")
    certify_.add_argument("--every-d", action="store_true",
                          help="the theorem for every d of a family F_d = Σ_j f(q_j) (W, tanh-sum, or such a TOML spec)")
    certify_.add_argument("--every", default=None, metavar="A,B",
                          help="the theorem for every pair of positive integers A ≠ B of an expression with parameters "
                               "(sigmoid(a*q1) + sigmoid(b*q1): Theorem P; ±sigmoid(a*q1 + b1) ± sigmoid(b*q1 + b2), all real "
                               "biases b1, b2 too, as names never substituted, also written a,b,b1,b2: Theorem Pβ)")
    certify_.add_argument("--timeout", type=checked(lambda v: options.timeout(v, "--timeout", True)), default=3600.0, metavar="S", help="wall-clock limit for the whole computation in seconds: the searches stop in time to write the certificate of what is proved (the gap stated, answer unknown)")
    certify_.add_argument("--search-timeout", type=checked(lambda v: options.timeout(v, "--search-timeout", True)), default=60.0, metavar="S", help="seconds per question: the solver and the refutation of its unsat together")
    certify_.add_argument("--refutation", action="append", metavar="FILE",
                          help="a refutation found by `search SPEC --atoms M --refute --json > FILE` (e.g. on a cluster); "
                               "replayed by the kernel, it replaces the solver at that M (repeatable)")
    certify_.add_argument("--timings", action="store_true", help="record solver seconds (output no longer byte-identical)")
    certify_.add_argument("--trees-only", action="store_true",
                          help="no lower-bound lemma but L5 (Newton): the searches start at the Newton bound and each step up is a "
                               "refutation tree, the proof whose `export --coq` rests on the fewest lemma axioms (docs/coq.md); "
                               "it may take far longer")
    certify_.set_defaults(handler=cmd_certify)

    explore_ = add("explore", "table of bounds and minima over a family's parameter")
    explore_.add_argument("spec", help="a family name (W, tanh-sum) or a proofs/*.toml spec")
    explore_.add_argument("--range", required=True, help="parameter range, e.g. 1..6 (required)")
    explore_.add_argument("--timeout", type=checked(lambda v: options.timeout(v, "--timeout", True)), default=30.0, metavar="S",
                          help="search seconds per value where the bounds differ")
    explore_.add_argument("--out", default="out", help="output folder")
    explore_.add_argument("--name", type=checked(lambda v: options.output_name(v)), default=None, metavar="NAME",
                          help="name the output files NAME.explore.* (default: the spec's name, e.g. W)")
    explore_.add_argument("--no-pdf", action="store_true", help="write the table (CSV, JSON) and the pgfplots figure only: no PDF or PNG of the plot")
    _add_output(explore_)
    explore_.set_defaults(handler=cmd_explore)

    atlas = add("atlas", "certify every point of a parameter grid; a table, one certificate per point (resumable)")
    atlas.add_argument("spec", nargs="?", help="an expression whose numbers may be parameter names (sigmoid(a*q1) + sigmoid(b*q1)), "
                                    "a proofs/*.toml spec (its parameter), a family name (d), or graphs:N (parameter graph); "
                                    "required unless --graphs")
    atlas.add_argument("ranges", nargs="*", metavar="RANGE", help="a=1..8 b=a+1..8 r=1/2,2,3: one range per parameter, in order; a bound "
                                                                  "may name an earlier integer parameter plus or minus an integer; a list gives 2 to 64 "
                                                                  "exact non-negative rationals (log(r) becomes log(1/2)); required with a spec")
    atlas.add_argument("--graphs", type=checked(lambda v: options.count(v, "--graphs", 2, MAX_GRAPH_VERTICES, True)), default=None,
                       metavar="N", help=f"every graph on at most N vertices (N ≤ {MAX_GRAPH_VERTICES}) without isolated vertices, up to "
                       "isomorphism: its tournament function Σ σ(q_i − q_j); no spec or ranges")
    atlas.add_argument("--out", default=None, help="output folder (default: out/atlas_<spec>); a rerun into it skips done points")
    atlas.add_argument("--search-timeout", type=checked(lambda v: options.timeout(v, "--search-timeout", True)), default=60.0,
                       metavar="S", help="seconds per question of a point: the solver and the refutation of its unsat together")
    atlas.add_argument("--top-timeout", type=checked(lambda v: options.timeout(v, "--top-timeout", True)), default=None,
                       metavar="S", help="seconds for the question that decides a point, m = upper − 1 (its solver question, then "
                       "its refutation tree); default: --search-timeout")
    atlas.add_argument("--cheapest-first", action="store_true", help="compute the points in increasing order of their "
                       "deciding question's m = upper − 1, then its key range, so that a run stopped early has decided the most points")
    atlas.add_argument("--point-timeout", type=checked(lambda v: options.timeout(v, "--point-timeout", True)), default=600.0,
                       metavar="S", help="seconds per point without Dask (a point past it is reported and tried again next run)")
    atlas.add_argument("--scheduler", default=None, metavar="ADDRESS", help="one Dask task per point: tcp://HOST:8786 (an existing "
                       "`dask scheduler` with `dask worker`s), or 'local' for a LocalCluster; needs headfusion[cluster]")
    atlas.add_argument("--jobs", type=checked(lambda v: options.count(v, "--jobs", 1, options.MAX_JOBS, True)), default=None,
                       metavar="N", help="with --scheduler local: N worker processes (default: one per core)")
    atlas.add_argument("--pdf", action="store_true", help="also compile each point's certificate to PDF")
    atlas.add_argument("--no-pdf", action="store_true", help="no PDF of the table and no figure")
    _add_output(atlas)
    atlas.set_defaults(handler=cmd_atlas)

    verify = add("verify", "re-check every claim of a certificate (exact, no solver)")
    verify.add_argument("certificate", help="a certificate .json written by certify")
    verify.add_argument("--resolve", action="store_true", help="also re-solve the solver testimony with z3 (and cvc5): fresh testimony, not proof")
    verify.add_argument("--timeout", type=checked(lambda v: options.timeout(v, "--timeout", True)), default=VERIFY_TIMEOUT, metavar="S",
                        help=f"wall-clock limit of the replay in seconds, killed past it or past 2 GB (default {VERIFY_TIMEOUT:g})")
    _add_output(verify)
    verify.set_defaults(handler=cmd_verify)

    export = add("export", "a certificate for a proof assistant: Coq re-checks its computations")
    export.add_argument("certificate", help="a certificate .json written by certify")
    export.add_argument("--coq", action="store_true", help="write a Coq 8.16 file and the library it loads (required: the only format)")
    export.add_argument("--out", default="out", help="output folder")
    _add_output(export)
    export.set_defaults(handler=cmd_export)

    search_ = add("search", "complete finite search (z3) for a head with at most M atoms")
    _add_spec(search_)
    search_.add_argument("--atoms", type=checked(lambda v: options.count(v, "--atoms", from_text=True)), default=None, metavar="M", help="decide whether a head with at most M atoms exists")
    search_.add_argument("--minimize", action="store_true", help="step m up from the lower bound until a head exists")
    search_.add_argument("--timeout", type=checked(lambda v: options.timeout(v, "--timeout", True)), default=60.0, metavar="S", help="time limit in seconds (total for --minimize; with --refute the refutation stops there with \"unknown\", and a cluster gets up to 30 s more to start and stop)")
    search_.add_argument("--smt2", default=None, metavar="FILE", help="write the exact SMT-LIB 2 query to FILE")
    search_.add_argument("--cross-check", action="store_true", help="re-solve the query with cvc5 (when installed)")
    search_.add_argument("--encoding", choices=("cofactor", "plain"), default="cofactor", help="query encoding")
    search_.add_argument("--symmetry", action="store_true", help="add lex-leader symmetry breaking (coordinate permutations)")
    search_.add_argument("--no-faces", action="store_true", help="omit the face-slice cardinality constraints")
    search_.add_argument("--jobs", type=checked(lambda v: options.count(v, "--jobs", 1, options.MAX_JOBS, True)), default=1, metavar="N",
                         help="solve 8 cubes in N processes; with --refute: N Dask worker processes (default there: one per core)")
    search_.add_argument("--refute", action="store_true", help="exact refutation (replayed by the kernel) by cube-and-conquer on Dask instead of z3")
    search_.add_argument("--scheduler", default=None, metavar="ADDRESS", help="with --refute: an existing Dask scheduler (tcp://HOST:8786; start `dask scheduler`, then `dask worker ADDRESS` on each machine); default: a LocalCluster, one worker process per core (or --jobs); needs headfusion[cluster]")
    search_.add_argument("--checkpoint", default=None, metavar="DIR", help="with --refute: keep solved cubes in DIR; a rerun resumes from them")
    search_.add_argument("--cube-depth", type=checked(lambda v: options.count(v, "--cube-depth", 0, 16, True)), default=3, metavar="K", help="with --refute: at most 2^K cubes at the start")
    search_.add_argument("--cube-timeout", type=checked(lambda v: options.timeout(v, "--cube-timeout", True)), default=60.0, metavar="S", help="with --refute: seconds per cube before it is re-split")
    search_.add_argument("--verbose", action="store_true", help="with --refute: show Dask's own log lines (by default they are hidden)")
    search_.set_defaults(handler=cmd_search)
    return parser
