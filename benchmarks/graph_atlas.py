"""The map of every graph on at most N vertices: `headfusion atlas --graphs N`, timed, copied into docs/atlas.

Runs the command (resumable: a rerun into the same --work folder replays the points already done and computes
the rest), on one machine or on a Dask scheduler (--scheduler tcp://HOST:8786, started with `dask scheduler`
and `dask worker` processes), then writes docs/atlas/graphs-N.{md,csv,json}: the command's tables, with a
summary (decided count, lemmas of the lower bounds, heads of the upper bounds) and the wall time of the run.

With --kill-after S the first run is stopped by SIGTERM after S seconds and the same command run again (the
resumability check): the summary gives both invocations.

Run: python3 benchmarks/graph_atlas.py [--graphs 6] [--work out/atlas_graphs-6] [--scheduler ADDRESS] [--kill-after S]
     [--where TEXT] [--docs docs/atlas]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def summary(runs: list[str], where: str, argv: list[str]) -> list[str]:
    """Markdown lines: the time and the command (the decided count and how the bounds were obtained are the table's own
    summary lines, `render.atlas.summary_lines`, in the Markdown and the PDF alike)."""
    lines = ["", "## The run", "",
             f"- The run {where}: " + "; ".join(runs) + ".",
             f"- Command: `{' '.join(argv)}`.", ""]
    return lines


def _bounds(row: dict) -> str:
    return str(row["minimum"]) if row["minimum"] is not None else f"{row['lower']}–{row['upper']}"


def moved(before: list[dict], rows: list[dict]) -> list[str]:
    """Markdown: the rows whose bounds changed since `before` (the previous map), before and now side by side."""
    old = {row["edges"]: row for row in before}
    changed = [(old[row["edges"]], row) for row in rows if row["edges"] in old
               and (old[row["edges"]]["lower"], old[row["edges"]]["upper"]) != (row["lower"], row["upper"])]
    if not changed:
        return []
    decided = [row for was, row in changed if was["minimum"] is None and row["minimum"] is not None]
    lines = ["## Rows that moved", "",
             f"{len(changed)} rows changed since the previous map, {len(decided)} now decided "
             f"({', '.join(str(row['point']['graph']) for row in decided) or 'none'}), {sum(r['minimum'] is not None for r in before)} → "
             f"{sum(r['minimum'] is not None for r in rows)} decided in all.", "",
             "| graph | edges | before | now | lower bound by (now) |", "|---|---|---|---|---|"]
    lines += [f"| {row['point']['graph']} | {row['edges']} | {_bounds(was)} | **{_bounds(row)}** | {row['lemma']} |" for was, row in changed]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", type=int, default=6)
    parser.add_argument("--work", default=None, help="the atlas folder (default out/atlas_graphs-N)")
    parser.add_argument("--scheduler", default=None)
    parser.add_argument("--search-timeout", default="20")
    parser.add_argument("--docs", default=str(ROOT / "docs" / "atlas"))
    parser.add_argument("--kill-after", type=float, default=None, metavar="S", help="SIGTERM the first run after S seconds, then rerun")
    parser.add_argument("--where", default="on the shared 2-core machine", help="how the run was made, for the summary line")
    parser.add_argument("--before", default=None, help="the previous map's JSON (default: the docs' graphs-N.json before this run)")
    args = parser.parse_args()
    previous = Path(args.before or Path(args.docs) / f"graphs-{args.graphs}.json")
    before = json.loads(previous.read_text())["rows"] if previous.is_file() else []
    work = Path(args.work or ROOT / "out" / f"atlas_graphs-{args.graphs}")
    argv = ["headfusion", "atlas", "--graphs", str(args.graphs), "--search-timeout", args.search_timeout, "--no-pdf", "-q"]
    if args.scheduler:
        argv += ["--scheduler", args.scheduler]
    command = [sys.executable, "-m", "headfusion", *argv[1:], "--out", str(work), "--json"]
    runs = []  # (seconds, computed, replayed) of each invocation
    if args.kill_after:  # the resumability check: SIGTERM after S seconds, then the same command again
        began = time.monotonic()
        first = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=dict(os.environ), start_new_session=True)
        try:
            first.wait(timeout=args.kill_after)
            stopped = "finished before the SIGTERM"
        except subprocess.TimeoutExpired:
            os.killpg(first.pid, signal.SIGTERM)
            first.wait(timeout=120)
            stopped = f"SIGTERM (exit {first.returncode})"
        finished = len(list((work / "rows").glob("*.json")))
        runs.append(f"{stopped} after {time.monotonic() - began:.0f} s with {finished} rows saved")
    began = time.monotonic()
    done = subprocess.run(command, check=True, env=dict(os.environ), stdout=subprocess.PIPE, text=True)
    seconds = time.monotonic() - began
    report = json.loads(done.stdout)
    runs.append(("then " if runs else "") + f"{report['computed']} graphs computed and {report['reused']} replayed from the earlier run (their certificates "
                f"checked by the kernel), {len(report['redone'])} redone, in {seconds:.0f} s")
    docs = Path(args.docs)
    docs.mkdir(parents=True, exist_ok=True)
    stem = f"graphs-{args.graphs}"
    shutil.copyfile(work / "atlas.csv", docs / f"{stem}.csv")
    shutil.copyfile(work / "atlas.json", docs / f"{stem}.json")
    markdown = (work / "atlas.md").read_text().rstrip("\n").splitlines()
    (docs / f"{stem}.md").write_text("\n".join(markdown + summary(runs, args.where, argv) + moved(before, rows)) + "\n")
    print("; ".join(runs) + f"; wrote {docs / stem}.{{md,csv,json}}")


if __name__ == "__main__":
    main()
