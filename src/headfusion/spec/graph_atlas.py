"""Graph maps: every graph on at most N vertices, up to isomorphism, and its tournament function.

The graphs are those of networkx's atlas (Read and Wilson's order: by vertices, then edges, then degree
sequence) with at least one edge and no isolated vertex, numbered 1, 2, … in that order; a graph's
function is its tournament function Σ_{ij ∈ E} σ(q_i − q_j) with vertices 1..n and i < j.  This module
only supplies definitions: the atlas certifies each function exactly as `certify` does.
"""

from __future__ import annotations

import re
from functools import lru_cache

from headfusion.spec.expressions import SpecError

MAX_GRAPH_VERTICES = 6  # K_7 has 36,961 forests (atoms of its fused head): twelve times K_6's 2,932: beyond one point of a map
GRAPH_SPEC = re.compile(r"graphs:(?P<n>.*)\Z", re.DOTALL)
PLAIN_NUMBER = re.compile(r"[1-9][0-9]{0,2}\Z")  # ASCII digits, no sign, no leading zero: one spelling per map
Edges = tuple[tuple[int, int], ...]


def graph_spec_vertices(text: str) -> int | None:
    """N of a graph-map spec 'graphs:N' (None for any other spec; SpecError for N outside 2..MAX_GRAPH_VERTICES)."""
    match = GRAPH_SPEC.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        return None
    if not PLAIN_NUMBER.match(match.group("n")):
        raise SpecError(f"graphs:N takes N as a plain number from 2 to {MAX_GRAPH_VERTICES} (graphs:6)")
    n = int(match.group("n"))
    if not 2 <= n <= MAX_GRAPH_VERTICES:
        raise SpecError(f"graphs on at most {n} vertices: N must be 2..{MAX_GRAPH_VERTICES} (the limit: K_7 has 36,961 forests, "
                        "twelve times K_6's 2,932: too many for one point of a map)")
    return n


@lru_cache(maxsize=8)
def graphs_up_to(n: int) -> tuple[Edges, ...]:
    """Edge lists (1-based, i < j, sorted) of the graphs on at most n vertices with no isolated vertex, up to isomorphism."""
    import networkx as nx

    if not 1 <= n <= MAX_GRAPH_VERTICES:
        raise SpecError(f"graphs on at most {n} vertices: N must be 2..{MAX_GRAPH_VERTICES}")
    out = []
    for graph in nx.graph_atlas_g()[1:]:
        if graph.number_of_nodes() > n:
            break
        if graph.number_of_edges() and all(degree for _, degree in graph.degree()):
            out.append(tuple(sorted((min(i, j) + 1, max(i, j) + 1) for i, j in graph.edges())))
    return tuple(out)


def tournament_text(edges: Edges) -> str:
    """The tournament function of a graph as an expression: sigmoid(q1 - q2) + … over its edges."""
    return " + ".join(f"sigmoid(q{i} - q{j})" for i, j in edges)


def edges_text(edges: Edges) -> str:
    """'12 13 23': the edges as a reader scans them in a table."""
    return " ".join(f"{i}{j}" for i, j in edges)
