"""Grid factors among a product's binomials: a triangle with two doubled edges (W14) and a K_4 (K35), DESIGN §11.

A binomial factor f = φx^u(1 + λx^δ) (λ = r·t^s, r > 0) is an edge between two vertex monomials m, m′ with m′/m = λx^δ.
Fixing m_0 = 1, a star of binomials at vertex 0 (each read in one of its two orientations) names the other vertex
monomials; the pattern is there when every other edge m_i + m_j is, up to a unit, a factor too (with the multiplicity the
pattern needs), and the substitution is injective (the e_i independent).  `kernel.grids` re-checks the division.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

from headfusion.bounds.lattice import rank as rank_of

Ratio = tuple[tuple[int, ...], Fraction, int]  # m_j/m_i = r·t^s·x^δ
M12_LEVELS = ((0, 1, 2, 3),) * 3  # the index levels of M12's core: four, alternating, per variable


def _inverse(q: Ratio) -> Ratio:
    return tuple(-d for d in q[0]), 1 / q[1], -q[2]


def edge_key(q: Ratio) -> Ratio:
    """The ratio or its inverse, whichever has the lexicographically larger δ: one key per edge."""
    return q if q[0] > tuple(-d for d in q[0]) else _inverse(q)


def _quotient(a: Ratio, b: Ratio) -> Ratio:
    """(m_a)/(m_b) for m_a = a, m_b = b read from m_0 = 1."""
    return tuple(x - y for x, y in zip(a[0], b[0])), a[1] / b[1], a[2] - b[2]


def _vertices(star: tuple[Ratio, ...]) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """The vertex monomials (exponent with t last, coefficient): m_0 = 1, then the star's ends."""
    rank = len(star[0][0])
    return (((0,) * (rank + 1), Fraction(1)),) + tuple((d + (s,), r) for d, r, s in star)


def find_grid(edges: dict[Ratio, int], rank: int) -> tuple[str, tuple] | None:
    """('K35', vertices) for a K_4 among the edges, else ('W14', vertices) for a triangle with two doubled edges, else None.

    `edges` maps each binomial factor's normalised ratio to its multiplicity."""
    keys = sorted(edges, key=lambda q: (q[0], q[1], q[2]))
    for trio in combinations(keys, 3):
        for signs in product((1, -1), repeat=3):
            star = tuple(q if sg == 1 else _inverse(q) for q, sg in zip(trio, signs))
            if rank_of([q[0] for q in star]) == 3 and all(edge_key(_quotient(a, b)) in edges for a, b in combinations(star, 2)):
                return "K35", _vertices(star)
    doubled = [q for q in keys if edges[q] >= 2]
    for pair in combinations(doubled, 2):
        for signs in product((1, -1), repeat=2):
            star = tuple(q if sg == 1 else _inverse(q) for q, sg in zip(pair, signs))
            if rank_of([q[0] for q in star]) == 2 and edge_key(_quotient(*star)) in edges:
                return "W14", _vertices(star)
    return None
