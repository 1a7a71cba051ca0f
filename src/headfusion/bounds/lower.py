"""Lower and upper bounds on m*(F) (DESIGN §3: L4, L5, L6).

Newton bound (L4 + L5): with P′/Q′ in lowest terms every head N/D of F has Q′ | D,
so Newt(D) = Newt(g) + Newt(Q′) has at least as many vertices as Newt(Q′), and
m*(F) ≥ #vertices of Newt(Q′).  Since Q′ = Π_B Q′_B over disjoint coordinates,
Newt(Q′) is the product of the blocks' polytopes and its vertices are the tuples of
block vertices: the count is the product and a witness is the concatenation.

Directions for the faces of Lemma LD: `face_directions` (the axes and the facet normals of planar blocks).

Upper bound: the fused head of `algebra` (DESIGN §2, "Upper bounds").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from fractions import Fraction
from itertools import islice, product as cartesian
from math import gcd, lcm
from typing import Iterator

from headfusion.algebra.exact import product_tree
from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.spec.numbers import rational_to_json
from headfusion.bounds.facelimits import axis, used_variables
from headfusion.algebra.laurent import LPoly
from headfusion.algebra.lattice import LatticeBasis
from headfusion.spec.errors import ResourceLimit
from headfusion.spec.model import MultiHead
from headfusion.bounds.lattice import inverse
from headfusion.bounds.polytope import (
    MAX_EXPLICIT_SUPPORT,
    NewtonGraph,
    VertexSet,
    newton_graph,
    zonotope_directions,
    zonotope_vertex_count,
)

MAX_LISTED_WITNESSES = 4096
FACE_LIMIT_MAX_DIMENSION = 24
FACE_LIMIT_MAX_NODES = 4000


@dataclass(frozen=True)
class BlockNewton:
    """Vertices of Newt(Q′_B): explicit with witnesses, or counted as a zonotope."""

    method: str  # "explicit" | "zonotope"
    count: int
    vertices: VertexSet | None
    directions: tuple[tuple[int, ...], ...] | None


@dataclass(frozen=True)
class NewtonBound:
    """m*(F) ≥ Π_B #vertices(Newt(Q′_B))."""

    form: ExpForm
    blocks: tuple[BlockNewton, ...]

    @cached_property
    def count(self) -> int:
        return product_tree(b.count for b in self.blocks)  # once, and fast for 10^5 blocks

    @property
    def explicit(self) -> bool:
        """True when every block's vertices are listed with witnesses."""
        return all(b.method == "explicit" for b in self.blocks)


def block_support(block: Block) -> list[tuple[int, ...]]:
    """x-support of Q′_B in block lattice coordinates, sorted."""
    return sorted(x_support(block.Q_reduced))


def binomial_generators(block: Block) -> list[tuple[int, ...]] | None:
    """Generators of Newt(Q′_B) when Q′_B is (a unit times) a product of binomials, else None."""
    generators = []
    for factor in block.factors:
        remaining = factor.in_denominator - factor.in_gcd
        if remaining == 0:
            continue
        support = sorted(x_support(factor.poly))
        if len(support) != 2:
            return None
        (a, b) = support
        generators += [tuple(x - y for x, y in zip(a, b))] * remaining
    return generators


_block_cache: dict[LPoly, BlockNewton] = {}  # keyed by Q′_B: equal polynomials, equal polytopes
_graph_cache: dict[LPoly, NewtonGraph] = {}


def block_newton(block: Block) -> BlockNewton:
    """Vertices of one block's Newton polytope: listed with witnesses when the support is small, else counted."""
    cached = _block_cache.get(block.Q_reduced)
    if cached is not None:
        return cached
    support_size = len(x_support(block.Q_reduced))
    if support_size <= MAX_EXPLICIT_SUPPORT:
        graph = block_newton_graph(block)  # with its edges: LE needs them next, and the hull finds them anyway
        vertices = VertexSet(block.rank, support_size, graph.vertices)
        result = BlockNewton("explicit", vertices.count, vertices, None)
    else:
        generators = binomial_generators(block)
        if generators is None:
            raise ResourceLimit(
                f"Newton polytope with {support_size:,} support points (explicit limit {MAX_EXPLICIT_SUPPORT:,}) and non-binomial factors")
        directions = zonotope_directions(generators)  # a zonotope: its vertices are counted (LZ), not listed
        result = BlockNewton("zonotope", zonotope_vertex_count(directions), None, directions)
    _block_cache[block.Q_reduced] = result
    return result


def block_newton_graph(block: Block) -> NewtonGraph:
    """All vertices and edges of Newt(Q′_B) with checked witnesses (zonotopes through their generators)."""
    cached = _graph_cache.get(block.Q_reduced)
    if cached is None:
        cached = newton_graph(block_support(block), binomial_generators(block), with_edges=True)
        _graph_cache[block.Q_reduced] = cached
    return cached


def newton_bound(form: ExpForm) -> NewtonBound:
    """The L5 bound for F with per-block evidence."""
    return NewtonBound(form, tuple(block_newton(b) for b in form.blocks))


def witness_in_q(block: Block, witness: tuple[int, ...]) -> dict[int, Fraction]:
    """A functional c′ on q-space with ⟨c′, b_i⟩ = c_i for the block's basis vectors b_i.

    Then ⟨c′, key(k)⟩ = const + ⟨c, k⟩, so c′ witnesses the same vertex among the keys.
    Solved exactly in the span of the basis (Gram system), then scaled to integers.
    """
    if block.rank == 0:
        return {}
    rows = _dual_rows(block.basis)  # c′ = Σ_i c_i · rows_i (one Gram solve per basis, not per witness)
    functional = [sum((w * row[j] for w, row in zip(witness, rows) if w), Fraction(0)) for j in range(len(block.variables))]
    scale = lcm(1, *(v.denominator for v in functional))
    return {block.variables[j]: v * scale for j, v in enumerate(functional) if v}


@lru_cache(maxsize=256)
def _dual_rows(basis: LatticeBasis) -> tuple[tuple[Fraction, ...], ...]:
    """Rows G⁻¹B of the dual basis in span(B) (G the Gram matrix of B): ⟨row_i, b_j⟩ = δ_ij."""
    r = basis.rank
    vectors = [basis.point(tuple(1 if j == i else 0 for j in range(r))) for i in range(r)]
    gram = [[sum((a * b for a, b in zip(vectors[i], vectors[j])), Fraction(0)) for j in range(r)] for i in range(r)]
    columns = inverse(gram)  # G⁻¹, symmetric: its rows are its columns
    width = len(vectors[0])
    return tuple(
        tuple(sum((columns[l][i] * vectors[i][j] for i in range(r)), Fraction(0)) for j in range(width)) for l in range(r)
    )


def vertex_witnesses(bound: NewtonBound, limit: int = MAX_LISTED_WITNESSES) -> Iterator[dict]:
    """Vertices of Newt(Q′) with witnesses in q coordinates (product over blocks), at most `limit`."""
    if not bound.explicit:
        return iter(())
    form = bound.form
    per_block = []
    for block, nb in zip(form.blocks, bound.blocks):
        assert nb.vertices is not None
        per_block.append([(v, witness_in_q(block, w)) for v, w in nb.vertices.vertices])

    def generate() -> Iterator[dict]:
        for choice in cartesian(*per_block):
            vertex = form.key(tuple(v for v, _ in choice))
            witness = [Fraction(0)] * form.model.dimension
            for _, w in choice:
                for j, value in w.items():
                    witness[j] += value
            yield {
                "vertex": [rational_to_json(x) for x in vertex],
                "witness": [rational_to_json(x) for x in witness],
            }

    return islice(generate(), limit)


# -- directions for faces (LD) --------------------------------------------------------------------


def _hull_normals_2d(points: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    """Outer normals of the edges of the convex hull of planar integer points (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return []

    def cross(o: tuple[int, ...], a: tuple[int, ...], b: tuple[int, ...]) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    hull: list[tuple[int, ...]] = []
    for sequence in (pts, pts[::-1]):
        start = len(hull)
        for p in sequence:
            while len(hull) >= start + 2 and cross(hull[-2], hull[-1], p) <= 0:
                hull.pop()
            hull.append(p)
        hull.pop()
    normals = []
    for a, b in zip(hull, hull[1:] + hull[:1]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        g = gcd(dx, dy) or 1
        normals.append((dy // g, -dx // g))  # counter-clockwise hull: (dy, −dx) points outwards
    return normals


def primitive_direction(c: dict[int, Fraction]) -> tuple:
    """The primitive integer multiple of c with a positive first entry."""
    if not c:
        return ()
    scale = lcm(*(v.denominator for v in c.values()))
    ints = {j: int(v * scale) for j, v in c.items()}
    g = gcd(*ints.values()) * (1 if ints[min(ints)] > 0 else -1)
    return tuple(sorted((j, Fraction(v // g)) for j, v in ints.items()))


def face_directions(model: MultiHead, form: ExpForm) -> list[tuple]:
    """Directions for LD: the coordinate axes, then the facet normals of planar blocks' Newt(Q′_B).

    Facet normals are mapped to q-space functionals with ⟨c′, b_i⟩ = c_i (`witness_in_q`).
    Any direction is sound for LD; these are ones where faces are large.
    """
    directions: list[tuple] = [axis(j) for j in used_variables(model)]
    seen = set(directions)
    for block in form.blocks:
        if block.rank != 2:
            continue
        for normal in _hull_normals_2d(block_support(block)):
            functional = witness_in_q(block, normal)
            direction = primitive_direction({j: Fraction(v) for j, v in functional.items() if v})
            if direction and direction not in seen:
                seen.add(direction)
                directions.append(direction)
    return directions
