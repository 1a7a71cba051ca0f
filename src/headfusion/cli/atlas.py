"""`headfusion atlas`: certify every point of a parameter grid, resumably, on one machine or on Dask.

Layout of the output folder: `points/` holds one certificate per point (json, tex, and the searches'
SMT-LIB queries) and `rows/<point>.json` the row of each finished point, written after its
certificate; a run skips every point whose row (and certificate) is there, so a killed run resumes
where it stopped.  The tables (atlas.md, atlas.csv, atlas.json, atlas.tex, and with a LaTeX engine
atlas.pdf and a figure for two parameters) are written from the rows at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from headfusion.cli.common import EXIT_OK, UsageError, print_json
from headfusion.cli.progress import Progress
from headfusion.spec import options


def _saved_row(rows_dir: Path, points_dir: Path, key: str, values: dict, text: str) -> dict | None:
    """The row of a finished point, if its files are there; UsageError when the folder holds another atlas."""
    path = rows_dir / f"{key}.json"
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # a damaged row is computed again
    if not isinstance(saved, dict) or saved.get("spec") != text or saved.get("row", {}).get("point") != values:
        raise UsageError(f"{rows_dir.parent} holds an atlas of another spec ({path.name}); use another --out")
    row = saved["row"]
    if row.get("certificate") and not (points_dir / f"{row['certificate']}.json").is_file():
        return None  # the certificate went missing: compute it again
    return row


def cmd_atlas(args: argparse.Namespace) -> int:
    """`atlas`: every point certified (or reused from an earlier run), then the tables."""
    from headfusion.guards import deadline
    from headfusion.proof.atlas import atlas_spec, certify_point, point_key, run_points
    from headfusion.render.files import atomic_write
    from headfusion.render.write import write_certificate
    from headfusion.render.atlas import write_atlas
    from headfusion.spec.errors import ResourceLimit
    from headfusion.spec.load import slug_of

    atlas = atlas_spec(args.spec, args.ranges)  # names, ranges and spec checked before any work
    points = atlas.points()
    if args.jobs is not None and args.scheduler != "local":
        raise UsageError("--jobs sets the workers of a Dask LocalCluster: give --scheduler local with it")
    out = options.out_dir(args.out or f"out/atlas_{slug_of(atlas.text + ' ' + ' '.join(args.ranges))}")
    points_dir, rows_dir = out / "points", out / "rows"
    for folder in (points_dir, rows_dir):
        folder.mkdir(parents=True, exist_ok=True)
    rows = {point_key(p): _saved_row(rows_dir, points_dir, point_key(p), p, atlas.text) for p in points}
    todo = [p for p in points if rows[point_key(p)] is None]
    reused = len(points) - len(todo)
    with Progress("atlas", quiet=args.quiet, total=len(points), unit="point") as progress:
        progress.update(done=reused, note=f"{reused} points from an earlier run" if reused else None)

        def compute(values: dict) -> dict:
            began = time.monotonic()
            try:
                with deadline(args.point_timeout, f"the point {point_key(values)}", "a larger --point-timeout"):
                    result = certify_point(atlas.text, args.ranges, values, args.search_timeout)
            except ResourceLimit as exc:  # over the time limit: reported, not saved (a rerun tries again)
                return {"row": None, "reason": str(exc)}
            if result["certificate"] is None and time.monotonic() - began >= args.point_timeout:
                return {"row": None, "reason": result["row"]["reason"]}  # the deadline, caught as a refusal inside
            return result

        def done(values: dict, result: dict) -> None:
            key = point_key(values)
            if result.get("row") is None:
                status = "time limit" if "did not finish within" in str(result.get("reason")) else "failed"
                rows[key] = {"point": dict(values), "lower": None, "upper": None, "minimum": None, "status": status,
                             "lemma": None, "claim": None, "reason": result.get("reason"), "certificate": None}
            else:
                if result["certificate"] is not None:
                    write_certificate(result["certificate"], points_dir, result["queries"], pdf=args.pdf, name=key)
                atomic_write(rows_dir / f"{key}.json", (json.dumps({"spec": atlas.text, "row": result["row"]}, indent=1) + "\n").encode())
                rows[key] = result["row"]
            progress.update(done=sum(1 for r in rows.values() if r is not None), note=f"{key}: {rows[key]['status']}")

        run_points(todo, compute, done, args.scheduler, args.jobs,
                   submit_args=lambda values: (atlas.text, list(args.ranges), values, args.search_timeout))
    table = [rows[point_key(p)] for p in points]
    title = atlas.text + " over " + " ".join(args.ranges)
    note = (f"Produced by `headfusion atlas \"{atlas.text}\" {' '.join(args.ranges)}`; each point's certificate is in "
            "points/ and replays with `headfusion verify`.")
    paths = write_atlas(table, out, title, atlas.names, atlas.text, list(args.ranges), note, pdf=not args.no_pdf)
    if args.json:
        print_json({"rows": table, "reused": reused, "computed": len(todo), "files": {k: str(v) for k, v in sorted(paths.items())}})
        return EXIT_OK
    width = max(len(n) for n in atlas.names)
    sys.stdout.write(" ".join(f"{n:>{max(width, 3)}}" for n in atlas.names) + f" {'lower':>6} {'upper':>6} {'m*':>6}  lower bound by\n")
    for row in table:
        values = " ".join(f"{v:>{max(width, 3)}}" for v in row["point"].values())
        numbers = " ".join(f"{'' if row[k] is None else row[k]:>6}" for k in ("lower", "upper", "minimum"))
        sys.stdout.write(f"{values} {numbers}  {row['lemma'] or row['status']}\n")
    sys.stdout.write(f"{len(points)} points ({reused} from an earlier run, {len(todo)} computed now)\n")
    for kind, path in sorted(paths.items()):
        sys.stdout.write(f"wrote {path}\n")
    return EXIT_OK
