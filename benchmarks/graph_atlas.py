"""The atlas of every graph on at most 5 vertices: its tournament function certified, the bounds and the lemma.

For each graph of networkx's atlas with at most 5 vertices, at least one edge and no isolated vertex (up to
isomorphism: 33 graphs), the tournament function Σ_{ij} σ(q_i − q_j) (i < j) is certified exactly as
`headfusion certify` does (searches only where the bounds differ and the box is small, `--search-timeout`
seconds each), the certificate is replayed by the kernel, and one row is written: the edges, V (the acyclic
orientations), |supp Q′| (the forests), the proved lower bound with its lemma, the construction and m* where the
bounds meet.  Tables: docs/atlas/graphs-5.{md,csv,json}.

Run: python3 benchmarks/graph_atlas.py [--out docs/atlas] [--search-timeout S]
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

import networkx as nx

from headfusion.kernel.verify import verify_certificate
from headfusion.proof.atlas import LEMMA_OF
from headfusion.proof.certify import certify
from headfusion.spec.load import load_spec

ROOT = Path(__file__).resolve().parent.parent


def graphs() -> list[list[tuple[int, int]]]:
    """Edge lists (1-based, i < j) of the graphs on at most 5 vertices with no isolated vertex, up to isomorphism."""
    out = []
    for g in nx.graph_atlas_g()[1:]:
        if g.number_of_nodes() > 5:
            break
        if g.number_of_edges() and all(deg for _, deg in g.degree()):
            out.append(sorted((min(i, j) + 1, max(i, j) + 1) for i, j in g.edges()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "atlas"))
    parser.add_argument("--search-timeout", type=float, default=10.0)
    args = parser.parse_args()
    rows = []
    started = time.perf_counter()
    for k, edges in enumerate(graphs(), 1):
        text = " + ".join(f"sigmoid(q{i} - q{j})" for i, j in edges)
        cert = json.loads(json.dumps(certify(load_spec(text), ["headfusion", "certify", text], search_timeout=args.search_timeout).certificate))
        assert verify_certificate(cert).ok, text
        s = cert["summary"]
        exp = next(c for c in cert["claims"] if c["id"] == "exp-form")["evidence"]
        support = 1
        for block in exp["blocks"]:
            support *= len({tuple(e[:-1]) for e, _ in exp["shapes"][block["shape"]]["Q"]})
        rows.append({"graph": k, "edges": " ".join(f"{i}{j}" for i, j in edges), "vertices": len({v for e in edges for v in e}),
                     "V": s["newton_vertices"], "supp": support, "lower": s["lower_bound"], "upper": s["upper_bound"],
                     "minimum": s["minimum"], "lemma": LEMMA_OF.get(s["lower_bound_claim"], s["lower_bound_claim"])})
        print(rows[-1], flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "graphs-5.json").write_text(json.dumps(rows, indent=1) + "\n")
    with open(out / "graphs-5.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = ["# Atlas: the tournament function of every graph on at most 5 vertices", "",
             "Produced by `python benchmarks/graph_atlas.py` (each row from a certificate that the kernel replays; the function is",
             "Σ σ(q_i − q_j) over the edges ij, i < j; V = the acyclic orientations, |supp Q′| = the forests = the construction).", "",
             "| # | edges | n | V | \\|supp Q′\\| | lower | upper | m* | lower bound by |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['graph']} | {r['edges']} | {r['vertices']} | {r['V']} | {r['supp']} | {r['lower']} | {r['upper']} | "
                     f"{r['minimum'] if r['minimum'] is not None else 'open'} | {r['lemma']} |")
    decided = sum(r["minimum"] is not None for r in rows)
    lines += ["", f"{decided} of {len(rows)} decided; {time.perf_counter() - started:.0f} s on the 2-core machine."]
    (out / "graphs-5.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
