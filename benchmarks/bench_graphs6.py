"""Graphs on 6 vertices: analyze's seconds before and after a speed-only change, and its lower bounds unchanged.

For each of the 122 graphs on exactly 6 vertices (networkx's atlas, up to isomorphism, no isolated vertex), its
tournament function Σ_{ij} σ(q_i − q_j) (i < j) is analyzed in a fresh process on both sides in one invocation,
one cell at a time by default (timings must not compete): before, the baseline commit (default 8ead73a) checked
out with `git worktree` into a temporary folder; after, this checkout.  Graphs are numbered among all 155 graphs
on at most 6 vertices with an edge and no isolated vertex (34..155), as `headfusion atlas --graphs 6` does.
Columns: lower bound and lemma per side, the upper bound, wall-clock seconds (process start included; a cell past
--cap is killed: "> cap") and before/after.  Then medians, slowest cells, cells over 20 s, and any row whose lower
bound differs between the sides (there should be none).  The load average is printed at start and end.
With --random-orientations SEED each edge is oriented at random (seeded per graph): another tournament function of
the same graph (the same Q′ up to monomials), whose face functions the engine meets in other coordinates.

Run: python3 benchmarks/bench_graphs6.py [--baseline REV] [--cap S] [--only K[,K...]] [--skip-baseline] [--jobs N]
     [--random-orientations SEED]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from headfusion.spec.graph_atlas import graphs_up_to, tournament_text

ROOT = Path(__file__).resolve().parent.parent
SLOW = 20.0  # seconds: a cell above this is counted as slow in the summary

ANALYZE = """
import json, sys
from headfusion.proof.analysis import analyze
from headfusion.spec.load import load_spec
r = analyze(load_spec(sys.argv[1]), list_atoms=False)
print(json.dumps({"lower": r["lower_bound"], "method": r["lower_bound_method"], "upper": r["upper_bound"]}))
"""

Cell = tuple[dict | None, float, str]  # (result or None, seconds, "ok" | "cap" | "error: ...")


def graphs6() -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """(number, edges) of the 6-vertex graphs, numbered as `headfusion atlas --graphs 6` numbers them (34..155)."""
    out = [(k, edges) for k, edges in enumerate(graphs_up_to(6), 1) if len({v for e in edges for v in e}) == 6]
    assert len(out) == 122, len(out)
    return out


def cell(src: Path, text: str, cap: float) -> Cell:
    """Analyze `text` in a fresh process importing headfusion from `src`; killed (with its children) past `cap` seconds."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), *filter(None, [os.environ.get("PYTHONPATH")])]))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", ANALYZE, text], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, time.perf_counter() - start, "cap"
    seconds = time.perf_counter() - start
    if proc.returncode:
        return None, seconds, "error: " + (err.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:120]
    return json.loads(out.strip().splitlines()[-1]), seconds, "ok"


def short(method: str | None) -> str:
    """'rigid-edges (LE)' -> 'LE', 'newton-polytope (L4, L5)' -> 'L5', 'slices (LS, LM)' -> 'LS'."""
    if not method or "(" not in method:
        return str(method)
    names = [n.strip() for n in method.split("(")[-1].rstrip(")").split(",")]
    return "L5" if names[0] == "L4" else names[0]


def show(c: Cell | None, cap: float) -> tuple[str, str]:
    """(lower bound with its lemma, seconds) as table cells."""
    if c is None or c[2] == "cap":
        return ("", "") if c is None else ("—", f"> {cap:g}")
    return (f"{c[0]['lower']} ({short(c[0]['method'])})" if c[0] else c[2]), f"{c[1]:.1f}"


def summary(label: str, cells: list[tuple[int, Cell]], cap: float) -> None:
    """Median, slowest and slow count of one side (a capped cell counts as the cap)."""
    if not cells:
        return
    secs = [(cap if c[2] == "cap" else c[1], k) for k, c in cells]
    worst = max(secs)
    capped, errors = sum(c[2] == "cap" for _, c in cells), sum(c[2].startswith("error") for _, c in cells)
    print(f"- {label}: median {statistics.median(s for s, _ in secs):.1f} s; slowest #{worst[1]} "
          f"({'> ' if worst[0] >= cap else ''}{worst[0]:.1f} s); {sum(s > SLOW for s, _ in secs)} over {SLOW:g} s; "
          f"{capped} past the cap; {errors} errors")


def oriented_text(number: int, edges: tuple[tuple[int, int], ...], seed: int) -> str:
    """The graph's tournament function with each edge oriented at random (the same for one seed and graph)."""
    coin = random.Random(seed * 1000 + number)
    return " + ".join(f"sigmoid(q{i} - q{j})" if coin.random() < 0.5 else f"sigmoid(q{j} - q{i})" for i, j in edges)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="8ead73a")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per cell before it is killed")
    parser.add_argument("--only", default=None, help="graph numbers K[,K...] (34..155)")
    parser.add_argument("--skip-baseline", action="store_true", help="run this checkout only")
    parser.add_argument("--jobs", type=int, default=1, help="graphs run at once (default 1: timings must not compete)")
    parser.add_argument("--random-orientations", type=int, default=None, metavar="SEED",
                        help="orient each edge at random (seeded): any tournament function of the graph, not only i < j")
    args = parser.parse_args()
    rows = graphs6()
    if args.only:
        wanted = {int(k) for k in args.only.split(",")}
        if wanted - {k for k, _ in rows}:
            parser.error(f"--only: no 6-vertex graph numbered {sorted(wanted - {k for k, _ in rows})} (34..155)")
        rows = [(k, e) for k, e in rows if k in wanted]
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        if not args.skip_baseline:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline], check=True)
        try:
            def run(row: tuple[int, list[tuple[int, int]]]) -> tuple[Cell | None, Cell]:
                text = tournament_text(row[1]) if args.random_orientations is None else oriented_text(row[0], row[1], args.random_orientations)
                return (None if args.skip_baseline else cell(base / "src", text, args.cap)), cell(ROOT / "src", text, args.cap)

            print(f"| # | edges | before lower ({args.baseline}) | after lower | upper | before s | after s | ratio |")
            print("|---|---|---|---|---|---|---|---|", flush=True)
            done: list[tuple[int, Cell | None, Cell]] = []
            with ThreadPoolExecutor(max(1, args.jobs)) as pool:
                for (k, edges), (before, after) in zip(rows, pool.map(run, rows)):
                    done.append((k, before, after))
                    ok = before is not None and before[2] == "ok" and after[2] == "ok"
                    ratio = f"{before[1] / after[1]:.2f}" if ok else ""
                    upper = after[0]["upper"] if after[0] else (before[0]["upper"] if before and before[0] else "")
                    (bl, bs), (al, as_) = show(before, args.cap), show(after, args.cap)
                    print(f"| {k} | {' '.join(f'{i}{j}' for i, j in edges)} | {bl} | {al} | {upper} | {bs} | {as_} | {ratio} |", flush=True)
        finally:
            if not args.skip_baseline:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    print()
    summary(f"before ({args.baseline})", [(k, b) for k, b, _ in done if b is not None], args.cap)
    summary("after", [(k, a) for k, _, a in done], args.cap)
    ratios = [b[1] / a[1] for _, b, a in done if b is not None and b[2] == "ok" and a[2] == "ok"]
    if ratios:
        print(f"- median ratio before/after: {statistics.median(ratios):.2f} over {len(ratios)} graphs")
    if not args.skip_baseline:
        differ = [(k, b[0], a[0]) for k, b, a in done if b and b[0] and a[0] and b[0]["lower"] != a[0]["lower"]]
        print(f"- lower bounds that differ between the sides: {len(differ) or 'none'}")
        for k, b, a in differ:
            print(f"  - #{k}: before {b['lower']} ({b['method']}), after {a['lower']} ({a['method']})")
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
