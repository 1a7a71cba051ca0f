"""Replay of refutations: "no head with at most m atoms" (DESIGN §5), exact, no solver.

The question is generated here from (P′, Q′) and m alone, so a refutation cannot choose
its own question.  By L2 and L3 a connected head with m atoms has keys of lattice width
at most (m−1)·w_c in coordinate c (w_c: the width of supp P′ ∪ supp Q′); by L4 it is
D = g·Q′, N = g·P′ with g translated so that min_c supp g = 0, hence supp g ⊆ the box
G = Π_c {0..(m−1)·w_c − width_c(Q′)}.  Rows: D_e for e ∈ E = G + supp Q′ and N_e for
e ∈ G + supp P′.  A head gives each e ∈ E a side: OUT (D_e = N_e = 0) or IN (D_e > 0,
scaled so that D_e ≥ 1).  The tree branches on points; every leaf is closed by (OUT at a
leaf: on its path, or any point not IN once m are IN: a head has no room for another)
- count: more than m points IN;
- layer c: every point of E on Q′'s lowest c-layer is OUT, yet D's lowest c-slice is
  g's lowest slice (at 0) times Q′'s, a nonzero product;
- farkas k: multipliers λ on rows with Σ λ·row ≡ 0 in g and Σ λ·rhs > 0, where a D row
  with λ < 0 and an N row inside E must be OUT (equalities) and rhs = 1 exactly on IN D rows;
- image k s: node k is closed (in replay order: IN child first) and π_s maps its OUT and IN
  points into this node's; π_s permutes coordinates with P′∘π = λP′, Q′∘π = λQ′, λ > 0,
  and keeps G, so a head g here gives the head g∘π (D ↦ λ⁻¹·D∘π) that node k excludes;
- interior e C: m ≤ V (Newt(Q′)'s checked vertex count) and e IN is the convex combination
  C of other IN points, yet by L5 all of supp D ⊇ IN are vertices of Newt(D) (lemma LT).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import prod

from headfusion.kernel.base import MAX_NODES, MAX_POINTS, MAX_TERMS, integer, rational, require, within
from headfusion.kernel.poly import Poly

Point = tuple[int, ...]


def search_box(P: Poly, Q: Poly, m: int) -> tuple[int, ...] | None:
    """The sizes G_c of the box of g for heads with m atoms (None: no head fits, L3)."""
    require(all(e[-1] == 0 for e in list(P) + list(Q)), "refutations need rational weights (no t)")
    support = [e[:-1] for e in list(P) + list(Q)]
    sizes = []
    for c in range(len(support[0])):
        width = max(e[c] for e in support) - min(e[c] for e in support)
        q_width = max(e[c] for e in Q) - min(e[c] for e in Q)
        sizes.append((m - 1) * width - q_width)
    if any(s < 0 for s in sizes):
        return None
    within(prod(s + 1 for s in sizes), MAX_POINTS, "points of the search box")
    return tuple(sizes)


def box_points(sizes: tuple[int, ...]) -> list[Point]:
    """All a with 0 ≤ a_c ≤ sizes_c, lexicographically."""
    return list(product(*(range(s + 1) for s in sizes)))


def rows(P: Poly, Q: Poly, sizes: tuple[int, ...]) -> tuple[dict, dict]:
    """D rows {e: {a: Q′_{e−a}}} over E and N rows {e: {a: P′_{e−a}}} over G + supp P′ (integral coefficients as int)."""
    D: dict[Point, dict[Point, Fraction]] = {}
    N: dict[Point, dict[Point, Fraction]] = {}
    for a in box_points(sizes):
        for target, poly in ((D, Q), (N, P)):
            for s, c in poly.items():
                e = tuple(x + y for x, y in zip(a, s[:-1]))
                target.setdefault(e, {})[a] = c.numerator if c.denominator == 1 else c  # int arithmetic where it can be
    within(len(D) + len(N), 2 * MAX_POINTS, "rows of the search")
    return D, N


def _point(data: object, rank: int | None = None) -> Point:
    require(isinstance(data, list) and (rank is None or len(data) == rank), "a point must be a list (of the lattice's rank)")
    return tuple(integer(v) for v in data)  # type: ignore[union-attr]


def _closes(vector: list, D: dict, N: dict) -> list[tuple[str, Point, Fraction | int]]:
    """Parse a multiplier vector and check that Σ λ·row vanishes on every unknown g_a."""
    require(isinstance(vector, list) and vector, "a multiplier vector must be a non-empty list")
    entries: dict[tuple[str, Point], Fraction] = {}  # a row named once: no padding by cancelling copies
    total: dict[Point, Fraction] = {}
    for item in vector:
        require(isinstance(item, list) and len(item) == 3 and item[0] in ("D", "N"), "malformed multiplier")
        side, e, lam = item[0], _point(item[1]), rational(item[2])
        row = (D if side == "D" else N).get(e)
        require(row is not None and lam != 0 and (side, e) not in entries, f"multiplier on a row that does not exist or twice: {side}{list(e)}")
        lam = lam.numerator if lam.denominator == 1 else lam  # the same number; int·int is much faster than Fraction·Fraction
        entries[side, e] = lam
        for a, c in row.items():
            total[a] = total.get(a, 0) + lam * c
    require(not any(total.values()), "a multiplier vector does not cancel every unknown")
    return [(side, e, lam) for (side, e), lam in entries.items()]


def _symmetry(P: Poly, Q: Poly, sizes: tuple[int, ...], data: object) -> list[int]:
    """A coordinate permutation π with P′∘π = λP′, Q′∘π = λQ′ for one λ > 0 and G∘π = G."""
    require(isinstance(data, list) and all(type(v) is int for v in data) and sorted(data) == list(range(len(sizes))), "a symmetry must permute the coordinates")
    perm: list[int] = data  # type: ignore[assignment]
    require(all(sizes[p] == s for p, s in zip(perm, sizes)), "a symmetry must keep the box")
    some = next(iter(Q))
    lam = Q.get(tuple(some[p] for p in perm) + some[-1:], Fraction(0)) / Q[some]
    for poly in (P, Q):
        require(all(poly.get(tuple(e[p] for p in perm) + e[-1:]) == lam * c for e, c in poly.items()), "not a symmetry of P′ and Q′")
    require(lam > 0, "a symmetry must scale P′ and Q′ by a positive factor")
    return perm


def replay(P: Poly, Q: Poly, m: int, evidence: dict, vertices: int = 0) -> dict[str, int]:
    """Check a refutation tree; return its leaf counts by kind (CheckFailed if it does not close).

    `vertices`: the checked vertex count V of Newt(Q′) (interior leaves need m ≤ V).
    """
    sizes = search_box(P, Q, m)
    if sizes is None:
        require(evidence.get("tree") == [], "the box is empty (L3): the tree must be empty")
        return {"empty box": 1}
    D, N = rows(P, Q, sizes)
    tree, vectors = evidence.get("tree"), evidence.get("multipliers")
    require(isinstance(tree, list) and tree and isinstance(vectors, list), "malformed refutation")
    within(len(tree), MAX_NODES, "refutation nodes")  # type: ignore[arg-type]
    symmetries = evidence.get("symmetries", [])
    require(isinstance(symmetries, list), "malformed symmetries")
    within(len(symmetries) * (len(P) + len(Q)), MAX_TERMS, "terms of the symmetry checks")  # type: ignore[arg-type]
    perms = [_symmetry(P, Q, sizes, s) for s in symmetries]  # type: ignore[union-attr]
    targets = {n[1] for n in tree if isinstance(n, list) and len(n) == 3 and n[0] == "image" and isinstance(n[1], int)}  # type: ignore[union-attr]
    q_low = [min(e[c] for e in Q) for c in range(len(sizes))]
    checked: dict[int, list] = {}
    counts = {"count": 0, "layer": 0, "farkas": 0, "image": 0, "interior": 0, "split": 0}
    seen, closed, saved, copied = set(), set(), {}, 0
    out: set[Point] = set()  # the path's assignment, one set each, undone on the way back:
    inside: set[Point] = set()  # memory stays linear in the depth whatever the tree
    stack: list[tuple[str, object, object]] = [("visit", 0, None)]
    while stack:
        op, index, value = stack.pop()
        if op == "closed":  # every leaf below split `index` is checked; its point leaves the path
            closed.add(index)
            out.discard(value)  # type: ignore[arg-type]
            continue
        if op != "visit":  # the split's point on the path: IN for the IN child, then OUT for the OUT child
            inside.discard(index)  # type: ignore[arg-type]
            (inside if op == "in" else out).add(index)  # type: ignore[arg-type]
            continue
        require(isinstance(index, int) and 0 <= index < len(tree) and index not in seen, f"node {index} missing or reached twice")
        seen.add(index)
        node = tree[index]  # type: ignore[index]
        require(isinstance(node, list) and node and isinstance(node[0], str) and node[0] in counts, f"node {index}: malformed")
        counts[node[0]] += 1
        if index in targets:
            copied += len(out) + len(inside)
            within(copied, MAX_TERMS, "points kept for image leaves")
            saved[index] = (frozenset(out), frozenset(inside))
        if node[0] == "split":
            require(len(node) == 4, f"node {index}: malformed split")
            e = _point(node[1])
            require(e in D and e not in out and e not in inside, f"node {index}: splits on {list(e)}, not a free point of E")
            stack += [("closed", index, e), ("visit", node[2], None), ("out", e, None), ("visit", node[3], None), ("in", e, None)]
            continue
        if node[0] == "image":
            require(len(node) == 3 and integer(node[1]) in closed and integer(node[2]) in range(len(perms)), f"node {index}: an image of a node not closed before it")
            perm, (out_k, in_k) = perms[node[2]], saved[node[1]]
            image = lambda e: tuple(e[p] for p in perm)  # noqa: E731
            require(all(image(e) in out for e in out_k) and all(image(e) in inside for e in in_k), f"node {index}: the symmetry does not map node {node[1]} into it")
        elif node[0] == "interior":
            require(len(node) == 3 and m <= vertices and isinstance(node[2], list) and node[2], f"node {index}: an interior leaf needs m ≤ V (Newton) and a combination")
            e, combo = _point(node[1]), [(_point(f), rational(c)) for f, c in node[2]]
            require(e in inside and all(f in inside and f != e and c >= 0 for f, c in combo) and sum(c for _, c in combo) == 1, f"node {index}: not a convex combination of other points IN")
            require(all(sum(c * f[i] for f, c in combo) == x for i, x in enumerate(e)), f"node {index}: the combination is not {list(e)}")
        elif node[0] == "count":
            require(len(inside) > m, f"node {index}: count leaf with {len(inside)} points IN, not more than {m}")
        elif node[0] == "layer":
            c = integer(node[1]) if len(node) == 2 else -1
            require(0 <= c < len(sizes), f"node {index}: no coordinate {c}")
            require(all(e in out or len(inside) >= m and e not in inside for e in D if e[c] == q_low[c]), f"node {index}: a point of layer {c} is not OUT")
        else:
            k = integer(node[1]) if len(node) == 2 else -1
            require(0 <= k < len(vectors), f"node {index}: no multiplier vector {k}")  # type: ignore[arg-type]
            if k not in checked:
                checked[k] = _closes(vectors[k], D, N)  # type: ignore[index]
            rhs = 0  # an int, or a Fraction once a λ is one: exact either way
            for side, e, lam in checked[k]:
                if side == "N" and e in D or side == "D" and lam < 0:
                    require(e in out or len(inside) >= m and e not in inside, f"node {index}: multipliers use the equality of {side}{list(e)}, which is not OUT")
                if side == "D" and lam > 0 and e in inside:
                    rhs += lam
            require(rhs > 0, f"node {index}: the multipliers prove 0 ≥ {rhs}, no contradiction")
        closed.add(index)  # a leaf whose check passed
    require(len(seen) == len(tree), "the refutation has nodes outside the tree")
    return counts
