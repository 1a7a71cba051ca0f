"""The chromatic polynomial χ_G(k) of a small graph, printed beside its count of acyclic orientations (display only).

Stanley: a(G) = (−1)^n χ_G(−1), so a reader can check the count a(G) of Lemma LG by hand from χ_G.  The kernel
counts a(G) itself (kernel.graphs); nothing here is evidence.
"""

from __future__ import annotations

from functools import lru_cache

MAX_CHROMATIC_EDGES = 21  # deletion–contraction beyond this is not worth a line of the certificate


def chromatic(n: int, edges: list[tuple[int, int]]) -> list[int] | None:
    """Coefficients c_0..c_n of χ_G(k) = Σ c_i k^i for a simple graph on vertices 0..n−1 (None when too large)."""
    if len(edges) > MAX_CHROMATIC_EDGES:
        return None
    return list(_chi(n, frozenset(tuple(sorted(e)) for e in edges)))


@lru_cache(maxsize=None)
def _chi(n: int, edges: frozenset) -> tuple[int, ...]:
    """Deletion–contraction: χ(G) = χ(G − e) − χ(G / e); with no edge, k^n."""
    if not edges:
        return tuple([0] * n + [1])
    (a, b), rest = min(edges), edges - {min(edges)}
    deleted = _chi(n, rest)
    merged = {tuple(sorted((a if x == b else x, a if y == b else y))) for x, y in rest}  # b merged into a
    relabel = {v: v - (v > b) for v in range(n)}  # close the gap left by b
    contracted = _chi(n - 1, frozenset((relabel[x], relabel[y]) for x, y in merged if x != y))
    return tuple(d - (contracted[i] if i < len(contracted) else 0) for i, d in enumerate(deleted))


def chromatic_tex(coefficients: list[int], variable: str = "k") -> str:
    """χ as LaTeX, highest power first (k^4-6k^3+11k^2-6k)."""
    terms = []
    for i in range(len(coefficients) - 1, -1, -1):
        c = coefficients[i]
        if c == 0:
            continue
        sign = "-" if c < 0 else ("+" if terms else "")
        size = "" if abs(c) == 1 and i > 0 else str(abs(c))
        power = "" if i == 0 else variable if i == 1 else f"{variable}^{{{i}}}"
        terms.append(f"{sign}{size}{power}")
    return "".join(terms) or "0"


def at_minus_one(coefficients: list[int]) -> int:
    """|χ_G(−1)|: the number of acyclic orientations (Stanley)."""
    return abs(sum(c * (-1) ** i for i, c in enumerate(coefficients)))


def block_edges(heads: list[dict], indices: list[int]) -> tuple[int, list[tuple[int, int]]]:
    """(vertices, edges ij in q indices, 1-based) of a graph block read from the model's heads (display only)."""
    edges = []
    for h in indices:
        keys = [{int(j): str(v) for j, v in a["key"]} for a in heads[h]["atoms"]]
        edges.append(tuple(sorted(set(keys[0]) | set(keys[1]))))
    return len({j for e in edges for j in e}), edges


def local_graph(graph: tuple[int, list[tuple[int, int]]]) -> tuple[int, list[tuple[int, int]]]:
    """The graph on vertices 0..n−1 (its q indices renumbered in order)."""
    names = sorted({j for e in graph[1] for j in e})
    index = {j: k for k, j in enumerate(names)}
    return len(names), [(index[i], index[j]) for i, j in graph[1]]


def graph_chromatic_tex(graph: tuple) -> str | None:
    """χ_G(k) of a block's graph as LaTeX (a(G) = |χ_G(−1)|, Stanley), or None when too large to print."""
    chi = chromatic(*local_graph(graph))
    return None if chi is None else chromatic_tex(chi)
