"""One process (plain `refute`) against cube-and-conquer on a LocalCluster of 2 workers.

    python benchmarks/bench_distribute.py [--cap SECONDS] [--heavy-cap SECONDS] [--only LABEL,...]
                                          [--workers 2] [--cube-depth 3] [--cube-timeout 30]

Side by side in one run, one row per question: status and seconds of each, the ratio
(one process / cluster: above 1 means the cluster is faster), cubes solved/total and
re-splits.  The cluster is started once (its start-up time is printed, not counted in the
rows).  A capped row that does not close reports "unknown" with cubes solved/total and a
projected time = elapsed · total / solved — a LOWER estimate, since the cubes still open
are the hard ones (and re-splits add more).  Every "unsat" of either side is replayed by
the kernel (the cluster's glued refutation is replayed inside distributed_refute).  Both
sides use the same producer: symmetries, and interior leaves when m ≤ V (Newton-tight rows).
"""

from __future__ import annotations

import argparse
import time

from headfusion.algebra.expform import exponential_form
from headfusion.kernel.refutation import replay
from headfusion.proof.certify import kernel_question
from headfusion.solving.distribute import distributed_refute
from headfusion.solving.refute import refute
from headfusion.spec.load import load_spec

# (label, spec, d, m, heavy): heavy rows run under --heavy-cap
CASES: list[tuple[str, str, int | None, int, bool]] = [
    ("W_3", "W", 3, 7, False),
    ("triangle", "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)", None, 6, False),
    ("two 3-atom heads", "attn([0,q1,2*q1],[0,1,3]) + attn([0,q2,2*q2],[0,1,3])", None, 8, False),
    ("3-atom heads, 2nd", "attn([0,q1,2*q1],[0,2,1]) + attn([0,q2,2*q2],[0,2,1])", None, 8, False),
    ("W_4", "W", 4, 15, True),
    ("C_4", "proofs/tournament_cycle.toml", 4, 14, True),
]


def one_process(P: dict, Q: dict, m: int, cap: float, vertices: int) -> tuple[str, float]:
    start = time.monotonic()
    result = refute(P, Q, m, deadline=time.time() + cap, verify=False, vertices=vertices)
    elapsed = time.monotonic() - start
    if result.status == "unsat":
        replay(P, Q, m, result.evidence, vertices)
    return result.status, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per side for the small rows")
    parser.add_argument("--heavy-cap", type=float, default=300.0, help="seconds per side for W_4 and C_4")
    parser.add_argument("--only", default="", help="comma-separated labels")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cube-depth", type=int, default=3)
    parser.add_argument("--cube-timeout", type=float, default=30.0)
    args = parser.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    import distributed

    start = time.monotonic()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        print(f"LocalCluster: {args.workers} worker processes, started in {time.monotonic() - start:.1f} s; "
              f"cube depth {args.cube_depth}, cube timeout {args.cube_timeout:g} s")
        header = (f"{'question':18} {'m':>2} | {'1 process':>9} {'s':>8} | {'cluster':>8} {'s':>8} | "
                  f"{'ratio':>6} | {'cubes':>9} {'resplits':>8} {'projected s':>11}")
        print(header)
        print("-" * len(header))
        for label, text, d, m, heavy in CASES:
            if only and label not in only:
                continue
            cap = args.heavy_cap if heavy else args.cap
            P, Q, vertices = kernel_question(exponential_form(load_spec(text, d).model))  # V: interior leaves at m ≤ V
            s1, t1 = one_process(P, Q, m, cap, vertices)
            start = time.monotonic()
            result = distributed_refute(P, Q, m, scheduler=cluster.scheduler_address, cube_depth=args.cube_depth,
                                        cube_timeout=args.cube_timeout, deadline=time.time() + cap, vertices=vertices)
            t2 = time.monotonic() - start
            st = result.stats
            solved, total = st.get("solved", 0), st.get("cubes", 0)
            projected = "-"
            if result.status == "unknown":
                projected = f">{t2 * total / solved:.0f}" if solved else "n/a"
            ratio = f"{t1 / t2:.2f}" if result.status != "unknown" and s1 != "unknown" else "-"
            print(f"{label:18} {m:>2} | {s1:>9} {t1:>8.2f} | {result.status:>8} {t2:>8.2f} | {ratio:>6} | "
                  f"{f'{solved}/{total}':>9} {st.get('resplits', 0):>8} {projected:>11}", flush=True)


if __name__ == "__main__":
    main()
