"""Benchmark: refutations plain, with symmetry pruning (image leaves), and with interior leaves.

    python benchmarks/bench_pruning.py [--cap SECONDS] [--repeat N] [--only LABEL,...]

For each question: the coordinate symmetries found (permutations π with P′∘π = λP′,
Q′∘π = λQ′) and V = #vertices of Newt(Q′) as the kernel checks it; then tree nodes, LP solves
and the median seconds to find a refutation over N runs, for three producers side by side:
plain (no pruning), + symmetries (image leaves), + interior leaves (only when m ≤ V: the
argument of lemma LT, DESIGN §4).  Ratios are plain / pruned (> 1: pruning pays).  Every
refutation is replayed by the kernel (with V).
"""

from __future__ import annotations

import argparse
import statistics
import time

from headfusion.algebra.expform import exponential_form
from headfusion.kernel.refutation import replay
from headfusion.proof.certify import kernel_question
from headfusion.solving.refute import refute, symmetries_of
from headfusion.spec.load import load_spec

CASES: list[tuple[str, str, int | None, int]] = [
    ("tanh(q1)+tanh(q2)", "tanh(q1) + tanh(q2)", None, 3),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None, 6),
    ("σ(q1)+σ(q2)+σ(2q1)+σ(2q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(2*q1) + sigmoid(2*q2)", None, 6),
    ("σ(q1+q2)+σ(q1)+σ(q2)+σ(q1+q2+q3)+σ(q3)",
     "sigmoid(q1 + q2) + sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2 + q3) + sigmoid(q3)", None, 3),
    ("two 3-atom heads", "attn([0,q1,2*q1],[0,1,3]) + attn([0,q2,2*q2],[0,1,3])", None, 8),
    ("W_3", "W", 3, 7),
    ("triangle tournament", "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)", None, 6),
]


def _runs(P: dict, Q: dict, m: int, cap: float, repeat: int, **pruning) -> tuple[str, int, int, float]:
    """(status, nodes, LP solves, median find seconds); each unsat is replayed by the kernel."""
    finds, status, nodes, lps = [], "", 0, 0
    for _ in range(repeat):
        start = time.monotonic()
        result = refute(P, Q, m, deadline=time.time() + cap, verify=False, **pruning)
        finds.append(time.monotonic() - start)
        status, nodes, lps = result.status, result.stats.get("nodes", 0), result.stats.get("lp_solves", 0)
        if status == "unsat":
            replay(P, Q, m, result.evidence, pruning.get("vertices", 0))
    return status, nodes, lps, statistics.median(finds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="deadline per run in seconds")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell (median)")
    parser.add_argument("--only", default="", help="comma-separated labels")
    args = parser.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    header = (f"{'question':40} {'m':>2} {'V':>3} {'syms':>4} {'status':7} | {'plain nodes/LPs/s':>20} | "
              f"{'+sym nodes/LPs/s':>20} {'ratio':>5} | {'+interior nodes/LPs/s':>21} {'ratio':>5}")
    print(header)
    print("-" * len(header))
    for label, text, d, m in CASES:
        if only and label not in only:
            continue
        P, Q, vertices = kernel_question(exponential_form(load_spec(text, d).model))
        plain = _runs(P, Q, m, args.cap, args.repeat, symmetric=False)
        sym = _runs(P, Q, m, args.cap, args.repeat, symmetric=True)
        cells = [f"{r[1]:>7}/{r[2]:>4}/{r[3]:>7.2f}" for r in (plain, sym)]
        inner, inner_ratio = "—", "—"
        if m <= vertices:
            interior = _runs(P, Q, m, args.cap, args.repeat, symmetric=True, vertices=vertices)
            inner, inner_ratio = f"{interior[1]:>7}/{interior[2]:>4}/{interior[3]:>7.2f}", f"{plain[3] / interior[3]:.2f}"
        print(f"{label:40} {m:>2} {vertices:>3} {len(symmetries_of(P, Q)):>4} {plain[0]:7} | {cells[0]:>20} | "
              f"{cells[1]:>20} {plain[3] / sym[3]:>5.2f} | {inner:>21} {inner_ratio:>5}", flush=True)


if __name__ == "__main__":
    main()
