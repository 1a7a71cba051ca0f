"""Benchmark of the z3 search encodings (issue 4).

    python benchmarks/bench_search.py [--cap SECONDS] [--no-w4] [--only LABEL,...] [--repeat N]

Prints one table row per (function, m, encoding): verdict, wall seconds (query
generation + solving, measured by `search`), L3 box size, cofactor box size, Boolean
and real variables declared in the query, and query size.  Every encoding is sound and
complete, so all decided rows of one (function, m) must agree; the script checks that.
W_4 at m = 15 runs each encoding under the time cap (default 120 s) and reports how far
it got ("unknown" = cap reached).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time

from headfusion.solving.solver import search
from headfusion.solving.smtlib import Options
from headfusion.spec.load import load_spec

# (label, options, jobs): the plain encoding of DESIGN §4 and each improvement on top.
ENCODINGS: list[tuple[str, Options, int]] = [
    ("plain", Options("plain", symmetry=False, faces=False), 1),
    ("plain+sym", Options("plain", symmetry=True, faces=False), 1),
    ("cofactor", Options("cofactor", symmetry=False, faces=False), 1),
    ("cofactor+sym", Options("cofactor", symmetry=True, faces=False), 1),
    ("cofactor+sym+lines", Options("cofactor", symmetry=True, faces=False, lines=True), 1),
    ("cofactor+sym+nbr", Options("cofactor", symmetry=True, faces=False, neighbours=True), 1),
    ("cofactor+sym, 2 jobs (8 cubes)", Options("cofactor", symmetry=True, faces=False), 2),
    ("plain+faces", Options("plain", symmetry=False, faces=True), 1),
    ("cofactor+sym+faces", Options("cofactor", symmetry=True, faces=True), 1),
    ("cofactor+faces (default)", Options("cofactor", symmetry=False, faces=True), 1),
]

CASES = [("W", 2, 3), ("W", 2, 4), ("W", 3, 7), ("W", 3, 8)]


def _variables(text: str | None) -> tuple[int, int]:
    if not text:
        return 0, 0
    return len(re.findall(r"^\(declare-const \S+ Bool\)$", text, re.M)), len(re.findall(r"^\(declare-const \S+ Real\)$", text, re.M))


def run(cap: float, with_w4: bool, only: set[str] | None, repeat: int = 1) -> int:
    """Run the table; returns 1 when two decided verdicts of one case disagree."""
    cases = CASES + ([("W", 4, 15)] if with_w4 else [])
    header = f"{'function':<8} {'m':>3} {'encoding':<32} {'status':<8} {'seconds':>8} {'box':>7} {'g-box':>7} {'bools':>7} {'reals':>7} {'MB':>6}"
    print(header)
    print("-" * len(header))
    failed = 0
    for family, d, m in cases:
        model = load_spec(family, d).model
        verdicts = set()
        for label, options, jobs in ENCODINGS:
            if only and label not in only:
                continue
            limit = cap if d >= 4 else min(cap, 120.0)
            walls = []
            for _ in range(repeat if d < 4 else 1):  # z3's run time varies a lot: median of repeats
                began = time.monotonic()
                result = search(model, m, timeout=limit, options=options, jobs=jobs)
                walls.append(time.monotonic() - began)
                if result.status in ("sat", "unsat"):
                    verdicts.add(result.status)
            wall = statistics.median(walls)
            spread = f" ({min(walls):.2f}-{max(walls):.2f})" if len(walls) > 1 else ""
            bools, reals = _variables(result.query_text)
            g_points = 1
            for n in result.g_shape or ():
                g_points *= n
            size = len(result.query_text or "") / 1e6
            print(
                f"{family}_{d:<6} {m:>3} {label:<32} {result.status:<8} {wall:>8.2f} {result.box_points:>7} "
                f"{(g_points if result.g_shape else '-'):>7} {bools:>7} {reals:>7} {size:>6.1f}{spread}",
                flush=True,
            )
        if len(verdicts) > 1:
            print(f"!! encodings disagree on {family}_{d}, m = {m}: {sorted(verdicts)}", flush=True)
            failed = 1
    return failed


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="time cap per encoding in seconds (default 120)")
    parser.add_argument("--no-w4", action="store_true", help="skip W_4 at m = 15")
    parser.add_argument("--only", default=None, help="comma-separated encoding labels to run")
    parser.add_argument("--repeat", type=int, default=1, help="runs per W_2/W_3 row; the median is shown (min-max after it)")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    return run(args.cap, not args.no_w4, only, args.repeat)


if __name__ == "__main__":
    sys.exit(main())
