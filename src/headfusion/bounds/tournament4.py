"""Four-vertex tournaments (Theorem K, DESIGN §9 "K_4 beyond 28"): m*(F) ≥ 32.

A function that is one block, the tournament function of K_4 (heads a·σ(±(q_i − q_j)) + const on the six
edges, Q′_B the product of the six edge binomials: `bounds.graphs.block_graph` recognises it), has
32 ≤ m*: its four source faces hold ≥ 4·7 terms (LD with LH) and each of its four sink faces a further term
off every source face (Lemma LN).  This module recognises such functions and lists the instance the
certificate prints (the eight faces ±e_v with their triangles, the twelve pair maxima); the kernel
(`kernel.tournament4`) recomputes all of it from the model.  The bound uses the numerator (LN's rigid edges):
it bounds m*, not the terms of multiples, so the every-d theorem does not use it.
"""

from __future__ import annotations

from headfusion.algebra.expform import ExpForm, x_support
from headfusion.bounds.graphs import block_graph

BOUND = 32
K4 = [(a, b) for a in range(4) for b in range(a + 1, 4)]


def theorem_k_bound(form: ExpForm) -> int | None:
    """32 when F is one block whose graph is K_4 (any orientation, any nonzero head scales), else None."""
    if len(form.blocks) != 1:
        return None
    graph = block_graph(form, form.blocks[0])
    return BOUND if graph is not None and graph[0] == 4 and sorted(graph[1]) == K4 else None


def theorem_k_instance(form: ExpForm) -> dict:
    """The evidence of lower:theorem-k: per direction +e_v then −e_v (v in the block's order) [direction, the face function's
    three edges (1-based q indices)], and [k, l, max c_k + max c_l − max(c_k + c_l) over supp Q′_B] for the 12 pairs."""
    block = form.blocks[0]
    points = sorted(x_support(block.Q_reduced))
    faces, values = [], []
    for sign in (1, -1):
        for local, v in enumerate(block.variables):
            level = {e: sign * block.basis.point(e)[local] for e in points}  # ⟨±e_v, key(e)⟩, keys in the block's q columns
            values.append(level)
            others = [j + 1 for j in block.variables if j != v]
            faces.append([[[v + 1, sign]], [[a, b] for i, a in enumerate(others) for b in others[i + 1:]]])
    pairs = [[k, l, int(max(values[k].values()) + max(values[l].values()) - max(x + values[l][e] for e, x in values[k].items()))]
             for group in (range(4), range(4, 8)) for k in group for l in group if k < l]
    return {"faces": faces, "pairs": pairs}
