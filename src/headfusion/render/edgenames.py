"""Factors of a graph block named by their edges, in the block's lattice and in the collapsed lattices of V3 (display only).

A lattice exponent δ of a block is the q-vector Σ_k δ_k·row_k / den (the exp-form's rows); the binomial 1 + x^δ of a
tournament edge ij has q-vector ±(e_i − e_j).  Lemma V3's Γ_* collapses the lines in direction ε, whose q-vector is
±(e_i − e_k): a vector w of the quotient lattice is read through any rational preimage δ (Γδ = w) with vertex k merged
into i, which does not depend on the preimage.  A polynomial is named when exact division by such edge binomials
leaves a monomial; otherwise the caller shows its terms.  The certificate was replayed before any of this is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from headfusion.kernel.poly import Poly, divide

MAX_FACTORS = 40  # edge binomials divided out of one polynomial (a six-vertex graph has at most 15 edges, doubled in collapses)


@dataclass(frozen=True)
class Namer:
    """q-vectors of the lattice's coordinates (rows of `basis`), the vertex labels, and merged vertices (k ↦ i)."""

    basis: tuple[tuple[Fraction, ...], ...]
    labels: tuple[str, ...]
    merged: dict = field(default_factory=dict)

    def q_vector(self, delta: tuple) -> list[Fraction]:
        """The q-vector of a lattice vector, with merged vertices added into their representatives."""
        return self.merge([sum((Fraction(d) * row[j] for d, row in zip(delta, self.basis)), Fraction(0)) for j in range(len(self.labels))])

    def merge(self, v: list[Fraction]) -> list[Fraction]:
        """A q-vector with each merged vertex's coordinate added into its representative's."""
        v = list(v)
        for k, i in self.merged.items():
            v[i], v[k] = v[i] + v[k], Fraction(0)
        return v


def block_namer(rows: list, denominator: int, variables: list[int]) -> Namer:
    """The namer of a block shape from its exp-form rows ([[j, v], …] per lattice coordinate) and its q variables."""
    basis = tuple(tuple(Fraction(next((Fraction(v) for jj, v in row if jj == j), 0)) / denominator for j in range(len(variables)))
                  for row in rows)
    return Namer(basis, tuple(str(v) for v in variables))


def _solve(columns: list[list[Fraction]], target: list[Fraction]) -> list[Fraction] | None:
    """x with Σ_k x_k·columns[k] = target (Gauss–Jordan over Q), or None."""
    n = len(columns)
    rows = [[col[j] for col in columns] + [target[j]] for j in range(len(target))]
    pivots, r = [], 0
    for c in range(n):
        p = next((i for i in range(r, len(rows)) if rows[i][c]), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        rows[r] = [x / rows[r][c] for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c]:
                rows[i] = [x - rows[i][c] * y for x, y in zip(rows[i], rows[r])]
        pivots.append(c)
        r += 1
    if any(row[-1] and not any(row[:-1]) for row in rows):
        return None
    x = [Fraction(0)] * n
    for i, c in enumerate(pivots):
        x[c] = rows[i][-1]
    return x


def collapsed(namer: Namer, gamma: list[tuple[int, ...]], eps: tuple[int, ...]) -> Namer | None:
    """The namer of Γ_*'s lattice: coordinate j read through a preimage of e_j, with ε's second vertex merged into its first."""
    v = namer.q_vector(eps)
    ends = [j for j, x in enumerate(v) if x]
    if len(ends) != 2 or sorted(v[j] for j in ends) != [-1, 1]:
        return None
    rank = len(eps)
    basis = []
    for j in range(len(gamma)):
        pre = _solve([[Fraction(row[k]) for row in gamma] for k in range(rank)], [Fraction(int(i == j)) for i in range(len(gamma))])
        if pre is None:
            return None
        basis.append(tuple(namer.q_vector(tuple(pre))))
    merged = {**namer.merged, ends[1]: ends[0]}
    return Namer(tuple(basis), namer.labels, {k: merged.get(i, i) for k, i in merged.items()})


def edge_names(namer: Namer | None, R: Poly) -> list[str] | None:
    """R's factors as edges 'ij' (repeated edges as 'ij^m'), when exact division by edge binomials leaves a monomial."""
    if namer is None or not R:
        return None
    rank, alive = len(namer.basis), [j for j in range(len(namer.labels)) if j not in namer.merged]
    columns = [namer.merge(list(row)) for row in namer.basis]
    counts: dict[str, int] = {}
    for a, b in combinations(alive, 2):
        target = [Fraction(int(j == a) - int(j == b)) for j in range(len(namer.labels))]
        delta = _solve(columns, target)
        if delta is None or any(x.denominator != 1 for x in delta):
            continue
        f = {(0,) * (rank + 1): Fraction(1), tuple(int(x) for x in delta) + (0,): Fraction(1)}
        while sum(counts.values()) < MAX_FACTORS and (q := divide(R, f)) is not None:
            R, counts[namer.labels[a] + namer.labels[b]] = q, counts.get(namer.labels[a] + namer.labels[b], 0) + 1
    if len(R) != 1:
        return None
    return [name if k == 1 else f"{name}^{k}" for name, k in counts.items()]  # loops (merged pairs) were units: not listed


def merged_note(namer: Namer | None) -> str:
    """'2 merged into 1' for the vertices a collapse merged, or ''."""
    if namer is None or not namer.merged:
        return ""
    return ", ".join(f"{namer.labels[k]} merged into {namer.labels[i]}" for k, i in sorted(namer.merged.items()))


def pattern_vertices(namer: Namer | None, exponents: list[tuple[int, ...]]) -> list[str] | None:
    """The graph vertices a grid pattern's monomials m_i = c_i·x^(e_i) stand for: when every e_i − e_0 reads as
    s·(q_a − q_r) for one sign s and one vertex r (the vertex of m_0; s = −1: the pattern read through x ↦ 1/x), else None."""
    if namer is None:
        return None
    vectors = [namer.q_vector(tuple(a - b for a, b in zip(e, exponents[0]))) for e in exponents[1:]]
    for sign in (1, -1):
        ends = [([j for j, x in enumerate(v) if x == sign], [j for j, x in enumerate(v) if x == -sign], sum(1 for x in v if x)) for v in vectors]
        if all(len(p) == 1 and len(m) == 1 and n == 2 for p, m, n in ends) and len({m[0] for _, m, _ in ends}) == 1:
            return [namer.labels[ends[0][1][0]]] + [namer.labels[p[0]] for p, _, _ in ends]
    return None
