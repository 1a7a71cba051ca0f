"""Graphical zonotopes (Lemma LG, DESIGN §9): a block that is the tournament function of a simple graph.

A block whose heads are a·σ(±(q_i − q_j)) + const on distinct edges, and whose Q′_B is the product of
its edge binomials (each once), has Newt(Q′_B) = Z_G: its vertices are the acyclic orientations of G
(counted, not listed: the kernel counts them itself with `kernel.graphs.acyclic_orientations`), every
edge of Z_G is rigid, and LE gives m*(F) ≥ V + 1 as soon as some G_B has a cycle (|supp Q′| > V).
This module only recognises such blocks; `kernel.graphs` re-checks the recognition from the model.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.spec.model import MultiHead
from headfusion.kernel.graphs import MAX_GRAPH_VERTICES, acyclic_orientations


def block_graph(form: ExpForm, block: Block) -> tuple[int, list[tuple[int, int]]] | None:
    """(vertices, edges) of the block's graph in local variables when the block is a simple graph's tournament, else None."""
    local = {j: k for k, j in enumerate(block.variables)}
    edges = []
    for h in block.head_indices:
        head, scale = form.model.heads[h], form.model.scales[h]
        atoms = head.atoms
        if len(atoms) != 2 or atoms[0].weight != atoms[1].weight or not scale or atoms[0].value == atoms[1].value:
            return None
        step = dict(atoms[1].key)
        for j, v in atoms[0].key:
            step[j] = step.get(j, Fraction(0)) - v
        step = {j: v for j, v in step.items() if v}
        if sorted(step.values()) != [-1, 1]:
            return None
        edges.append(tuple(sorted(local[j] for j in step)))
    remaining = [f for f in block.factors if f.in_denominator > f.in_gcd]
    binomials = [f for f in remaining if f.in_denominator - f.in_gcd == 1 and len(x_support(f.poly)) == 2
                 and len({tuple(sorted(c.items())) for c in x_support(f.poly).values()}) == 1]
    if len(set(edges)) != len(edges) or len(binomials) != len(remaining) or len(remaining) != len(edges):
        return None
    directions = set()
    for i, j in edges:  # the factors must be the edge binomials themselves (the kernel compares them)
        c = block.basis.coordinates({i: Fraction(1), j: Fraction(-1)})
        directions |= {c, tuple(-x for x in c)}
    found = set()
    for f in binomials:
        u, w = sorted(x_support(f.poly))
        found |= {tuple(b - a for a, b in zip(u, w)), tuple(a - b for a, b in zip(u, w))}
    if found != directions:
        return None
    if len(block.variables) > MAX_GRAPH_VERTICES:
        return None
    return len(block.variables), edges


def graph_blocks(form: ExpForm) -> list[tuple[int, list[tuple[int, int]]] | None]:
    """Per block its graph (None: not a graph block)."""
    return [block_graph(form, b) for b in form.blocks]


def graph_bound(form: ExpForm) -> int | None:
    """LG for F: V + 1 when every block is a graph block and some graph has a cycle (|supp Q′| > V), else None."""
    graphs = graph_blocks(form)
    if not graphs or any(g is None for g in graphs):
        return None
    V = prod(acyclic_orientations(*g) for g in graphs)  # type: ignore[misc]
    support = prod(len(x_support(b.Q_reduced)) for b in form.blocks)
    return V + 1 if support > V else None


def graph_class(members: dict[int, MultiHead]) -> str:
    """The class of a family's members for Lemma LF: "cycle", "tree" or "complete" (the kernel decides; this only names it)."""
    kinds = {"cycle", "tree", "complete"}
    for n, model in members.items():
        pairs = [tuple(sorted({j for a in h.atoms for j, _ in a.key})) for h in model.heads]
        degrees = [sum(v in e for e in pairs) for v in range(n)]
        kinds &= {k for k, ok in (("cycle", set(degrees) == {2}), ("tree", len(pairs) == n - 1),
                                  ("complete", len(pairs) == n * (n - 1) // 2)) if ok}
    return min(kinds) if kinds else "none"
