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
import os
import sys
import time
from pathlib import Path

from headfusion.cli.common import EXIT_OK, UsageError, print_json
from headfusion.cli.progress import Progress
from headfusion.spec import options


MAX_ROW_BYTES = 1 << 20  # a saved row is a few hundred bytes: a larger file is not read


def _read_json(path: Path, limit: int) -> object:
    """A JSON file read as `verify` reads a certificate: a regular file within `limit` bytes, bounded nesting and
    integers, no duplicate keys, no floats, NaN or Infinity (SchemaError otherwise)."""
    from headfusion.kernel.base import parse_json, read_certificate_text

    return parse_json(read_certificate_text(str(path), limit))


def _resumed(atlas, rows_dir: Path, points_dir: Path, values: dict) -> tuple[dict | None, str | None]:
    """(row, None) for a finished point whose certificate the kernel replays and whose row agrees with it;
    (None, None) for a point not yet done; (None, why) for a point that is redone.  UsageError when the folder
    holds another atlas."""
    from headfusion.kernel.base import MAX_FILE_BYTES, SchemaError
    from headfusion.proof.atlas import point_key, recheck_row
    from headfusion.spec.display import printable

    key = point_key(values)
    path = rows_dir / f"{key}.json"
    if not os.path.lexists(path):
        return None, None
    try:
        saved = _read_json(path, MAX_ROW_BYTES)
    except SchemaError as exc:
        return None, f"its saved row is not readable ({printable(str(exc))[:120]})"
    if isinstance(saved, dict) and isinstance(saved.get("spec"), str) and saved["spec"] != atlas.text:
        raise UsageError(f"{rows_dir.parent} holds an atlas of another spec ({path.name}); use another --out")
    cert = None
    cert_path = points_dir / f"{key}.json"
    if os.path.lexists(cert_path):
        try:
            cert = _read_json(cert_path, MAX_FILE_BYTES)
        except SchemaError as exc:
            return None, f"its certificate is not readable ({printable(str(exc))[:120]})"
    return recheck_row(atlas, values, saved, cert)


def _check_targets(out: Path, keys: list[str]) -> None:
    """UsageError, before any work, when a file the run would write is taken by a folder, a link or another non-file."""
    from headfusion.render.files import check_targets
    from headfusion.spec.errors import InputError

    for folder in (out / "points", out / "rows"):
        if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
            raise UsageError(f"cannot write into {folder}: something that is not a folder has that name")
    try:
        check_targets([out / f"atlas.{kind}" for kind in ("md", "csv", "json", "tex", "pdf")]
                      + [out / folder / f"{key}.{kind}" for key in keys for folder, kind in (("rows", "json"), ("points", "json"), ("points", "tex"), ("points", "pdf"))])
    except InputError as exc:
        raise UsageError(str(exc)) from None


def cmd_atlas(args: argparse.Namespace) -> int:
    """`atlas`: every point certified (or reused from an earlier run), then the tables."""
    from headfusion.guards import deadline
    from headfusion.proof.atlas import atlas_spec, certify_point, graph_of, point_key, row_of, run_points, top_cost
    from headfusion.render.atlas import write_atlas
    from headfusion.render.files import atomic_write
    from headfusion.render.write import write_certificate
    from headfusion.spec.errors import ResourceLimit
    from headfusion.spec.graph_atlas import graph_spec_vertices, graphs_up_to
    from headfusion.spec.load import slug_of

    if args.graphs is not None:
        if args.spec is not None or args.ranges:
            raise UsageError("--graphs N maps every graph on at most N vertices: give no spec or ranges with it")
        args.spec, args.ranges = f"graphs:{args.graphs}", [f"graph=1..{len(graphs_up_to(args.graphs))}"]
    elif args.spec is None or not args.ranges:
        raise UsageError("give a spec and its ranges (atlas \"sigmoid(a*q1) + sigmoid(b*q1)\" a=1..8 b=a+1..8), or --graphs N")
    atlas = atlas_spec(args.spec, args.ranges)  # names, ranges and spec checked before any work
    points = atlas.points()
    if args.jobs is not None and args.scheduler != "local":
        raise UsageError("--jobs sets the workers of a Dask LocalCluster: give --scheduler local with it")
    default = f"out/atlas_graphs-{args.graphs}" if args.graphs is not None else f"out/atlas_{slug_of(atlas.text + ' ' + ' '.join(args.ranges))}"
    out = options.out_dir(args.out or default)
    points_dir, rows_dir = out / "points", out / "rows"
    _check_targets(out, [point_key(p) for p in points])
    for folder in (points_dir, rows_dir):
        folder.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict | None] = {}
    redone: list[dict] = []
    with Progress("atlas: replaying saved points", quiet=args.quiet, total=len(points), unit="point") as progress:
        for k, p in enumerate(points):
            rows[point_key(p)], why = _resumed(atlas, rows_dir, points_dir, p)
            if why is not None:  # one line per point: what was wrong with it
                redone.append({"point": point_key(p), "reason": why})
                sys.stderr.write(f"headfusion: atlas: {point_key(p)} is computed again: {why}\n")
            progress.update(done=k + 1)
    todo = [p for p in points if rows[point_key(p)] is None]
    if args.cheapest_first:  # a run stopped early (it resumes) has then decided the most points it could
        todo.sort(key=lambda p: top_cost(atlas, p))
    reused = len(points) - len(todo)
    with Progress("atlas", quiet=args.quiet, total=len(points), unit="point") as progress:
        progress.update(done=reused, note=f"{reused} points from an earlier run, replayed by the kernel" if reused else None)

        def edges_of(values: dict) -> tuple | None:
            return graph_of(atlas, values) if atlas.kind == "graphs" else None

        def compute(values: dict) -> dict:
            began = time.monotonic()
            try:
                with deadline(args.point_timeout, f"the point {point_key(values)}", "a larger --point-timeout"):
                    result = certify_point(atlas.text, args.ranges, values, args.search_timeout, args.top_timeout)
            except ResourceLimit as exc:  # over the time limit: reported, not saved (a rerun tries again)
                return {"row": None, "reason": str(exc)}
            if result["certificate"] is None and time.monotonic() - began >= args.point_timeout:
                return {"row": None, "reason": result["row"]["reason"]}  # the deadline, caught as a refusal inside
            return result

        def done(values: dict, result: dict) -> None:
            key = point_key(values)
            if result.get("row") is None:
                status = "time limit" if "did not finish within" in str(result.get("reason")) else "failed"
                rows[key] = row_of(values, None, result.get("reason"), edges_of(values)) | {"status": status}
            else:
                row = result["row"]
                if result["certificate"] is not None:  # replayed by the kernel inside certify; the row is read off it here
                    row = row_of(values, result["certificate"], edges=edges_of(values))
                    write_certificate(result["certificate"], points_dir, result["queries"], pdf=args.pdf, name=key)
                atomic_write(rows_dir / f"{key}.json", (json.dumps({"spec": atlas.text, "row": row}, indent=1) + "\n").encode())
                rows[key] = row
            progress.update(done=sum(1 for r in rows.values() if r is not None), note=f"{key}: {rows[key]['status']}")

        run_points(todo, compute, done, args.scheduler, args.jobs,
                   submit_args=lambda values: (atlas.text, list(args.ranges), values, args.search_timeout, args.top_timeout))
    table = [rows[point_key(p)] for p in points]
    if atlas.kind == "graphs":
        n = graph_spec_vertices(atlas.text)
        title = f"the tournament function of every graph on at most {n} vertices"
        call = f"headfusion atlas --graphs {n}" if args.graphs is not None else f"headfusion atlas {atlas.text} {' '.join(args.ranges)}"
        note = (f"Produced by `{call}`: each graph of networkx's atlas with no isolated vertex, up to isomorphism, and its "
                "function Σ σ(q_i − q_j) over the edges ij, i < j; V = the acyclic orientations (vertices of Newt(Q′)), "
                "|supp Q′| = the forests (the product head).  Each row is read off its point's certificate in points/, "
                "which the kernel replays (`headfusion verify`).")
    else:
        title = atlas.text + " over " + " ".join(args.ranges)
        note = (f"Produced by `headfusion atlas \"{atlas.text}\" {' '.join(args.ranges)}`; each point's certificate is in "
                "points/ and replays with `headfusion verify`.")
    paths = write_atlas(table, out, title, atlas.names, atlas.text, list(args.ranges), note, pdf=not args.no_pdf)
    if args.json:
        print_json({"rows": table, "reused": reused, "computed": len(todo), "redone": redone,
                    "files": {k: str(v) for k, v in sorted(paths.items())}})
        return EXIT_OK
    width = max(len(n) for n in atlas.names)
    graphs = atlas.kind == "graphs"
    sys.stdout.write(" ".join(f"{n:>{max(width, 3)}}" for n in atlas.names) + (f" {'edges':<45}" if graphs else "")
                     + f" {'lower':>6} {'upper':>6} {'m*':>6}  lower bound by\n")
    for row in table:
        values = " ".join(f"{v:>{max(width, 3)}}" for v in row["point"].values()) + (f" {row['edges']:<45}" if graphs else "")
        numbers = " ".join(f"{'' if row[k] is None else row[k]:>6}" for k in ("lower", "upper", "minimum"))
        sys.stdout.write(f"{values} {numbers}  {row['lemma'] or row['status']}\n")
    sys.stdout.write(f"{len(points)} points ({reused} from an earlier run, replayed by the kernel; {len(todo)} computed now"
                     + (f", {len(redone)} of them redone" if redone else "") + ")\n")
    for kind, path in sorted(paths.items()):
        sys.stdout.write(f"wrote {path}\n")
    return EXIT_OK
