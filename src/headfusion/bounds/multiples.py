"""Terms of nonnegative multiples (DESIGN §9): the hexagon (LH) and slices (LS), per block.

μ(R) is the least number of terms of a nonzero Laurent polynomial D ≥ 0 with R | D; a head has
D = g·Q′, so m*(F) ≥ μ(Q′) ≥ Π_B μ(Q′_B) (Lemma LM).  This module finds certificates for μ(Q′_B):

- LH: three binomial factors whose directions are δ_1, δ_2, ±δ_1 ± δ_2 with matching coefficient
  ratios (the hexagon of a triangle tournament, tilted): μ ≥ 7;
- LS: an integer functional ω that is constant on the support of some factors (A, their product) and
  moves the others (B); at x′ = (1, …, 1) each binomial factor of B with ⟨ω, δ⟩ = ±1 and rational
  coefficients contributes a negative root of s ↦ B(x′ ⊙ s^ω), so μ ≥ (r + 1)·μ(A), with μ(A) found
  the same way (recursively), or from its Newton vertices (L5).

Candidates for ω are the lattice's coordinate functionals and the functionals of the q-axes (a
coordinate q_j, read in the block's lattice).  `kernel.multiples` re-checks every certificate.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import lcm, prod

from headfusion.algebra.expform import Block
from headfusion.bounds.polytope import newton_graph
from headfusion.kernel.poly import mul

Poly = dict[tuple[int, ...], Fraction]
MAX_VERTEX_SUPPORT = 300  # μ(A) from a hull only for small nested supports (the block's own V_B is known)
MAX_DEPTH = 8


@dataclass(frozen=True)
class Multiple:
    """A certificate that every nonnegative multiple of R has at least `value` terms (kernel JSON aside)."""

    value: int
    method: str  # "vertices" | "hexagon" | "slices"
    vertices: tuple = ()  # ((vertex, witness), …)
    factors: tuple = ()  # the hexagon's three binomials
    inside: "Factors" = ()  # the factors of Y (supp on one ω-level): Y = their product, expanded only for the evidence
    outside: "Factors" = ()  # the factors of Z
    omega: tuple[int, ...] = ()
    roots: tuple[tuple[Fraction, int], ...] = ()
    inner: "Multiple | None" = None  # μ(A)


Factors = tuple[tuple[tuple, int], ...]  # ((frozen polynomial, multiplicity), …), sorted


def _freeze(p: Poly) -> tuple:
    return tuple(sorted(p.items()))


def _binomial(f: Poly) -> tuple[tuple[int, ...], Fraction, int] | None:
    """(δ, r, s) of f = φx^u + ψx^(u+δ) with positive monomial coefficients (λ = ψ/φ = r·t^s), else None."""
    groups = sorted(x_support_of(f).items())
    if len(groups) != 2 or any(len(c) != 1 or min(c.values()) <= 0 for _, c in groups):
        return None
    (u, cu), (w, cw) = groups
    (su, au), (sw, aw) = next(iter(cu.items())), next(iter(cw.items()))
    return tuple(b - a for a, b in zip(u, w)), aw / au, sw - su


def x_support_of(p: Poly) -> dict[tuple[int, ...], dict[int, Fraction]]:
    """x-exponent ↦ its coefficient in Q[t^±]."""
    out: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for e, c in p.items():
        out.setdefault(e[:-1], {})[e[-1]] = c
    return out


def hexagon_triple(factors: Factors) -> tuple[Poly, Poly, Poly] | None:
    """Three binomial factors forming a tilted hexagon (kernel.multiples.hexagon's conditions), or None.

    Returned as (f_1, f_2, f_3) with δ_1, δ_2 independent and δ_3 = ε_1δ_1 + ε_2δ_2, λ_3 = λ_1^ε_1·λ_2^ε_2."""
    binomials = [(dict(f), b) for f, _ in factors if (b := _binomial(dict(f))) is not None]
    for trio in combinations(binomials, 3):
        for (f1, (d1, r1, s1)), (f2, (d2, r2, s2)), (f3, (d3, r3, s3)) in ((trio[0], trio[1], trio[2]), (trio[0], trio[2], trio[1]),
                                                                           (trio[1], trio[2], trio[0])):
            if not _independent(d1, d2):
                continue
            for e1, e2 in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                if all(z == e1 * x + e2 * y for x, y, z in zip(d1, d2, d3)) and r3 == r1**e1 * r2**e2 and s3 == e1 * s1 + e2 * s2:
                    return f1, f2, f3
    return None


def _independent(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return any(a[i] * b[j] != a[j] * b[i] for i in range(len(a)) for j in range(i + 1, len(a)))


def product_of(factors: Factors, nvars: int) -> Poly:
    """Π f^k, expanded (the evidence of LS carries Y and Z)."""
    return _product(factors, nvars)


def _product(factors: Factors, nvars: int) -> Poly:
    out: Poly = {(0,) * nvars: Fraction(1)}
    for f, k in factors:
        for _ in range(k):
            out = mul(out, dict(f))
    return out


def _level_set(f: Poly, omega: tuple[int, ...]) -> bool:
    return len({sum(w * x for w, x in zip(omega, e)) for e in x_support_of(f)}) == 1


def _root(f: Poly, omega: tuple[int, ...]) -> Fraction | None:
    """ρ > 0 with f(1 ⊙ s^ω) divisible by s + ρ, for a binomial with rational coefficients and ⟨ω, δ⟩ = ±1."""
    b = _binomial(f)
    if b is None or b[2] != 0 or any(e[-1] for e in f):
        return None
    delta, ratio, _ = b  # f = φx^u(1 + λx^δ) ↦ φ s^a (1 + λ s^(±1))
    step = sum(w * x for w, x in zip(omega, delta))
    return 1 / ratio if step == 1 else (ratio if step == -1 else None)


class MultipleFinder:
    """μ certificates for products of a block's factors, memoised (one finder per block lattice)."""

    def __init__(self, rank: int, functionals: list[tuple[int, ...]]):
        self.rank = rank
        self.functionals = functionals
        self.memo: dict[Factors, Multiple | None] = {}

    def best(self, factors: Factors, depth: int = 0, known: int = 0) -> Multiple | None:
        """The strongest certificate for Π factors above `known` (hexagon, slices, small hulls), or None."""
        if factors in self.memo:
            found = self.memo[factors]
            return found if found is not None and found.value > known else None
        options: list[Multiple] = []
        triple = hexagon_triple(factors)
        if triple is not None:
            options.append(Multiple(7, "hexagon", factors=triple))
        if depth < MAX_DEPTH:
            options += [s for omega in self.functionals if (s := self.slices(factors, omega, depth)) is not None]
        if depth:  # a nested A: its Newton vertices when its support is small (the block's own V_B is known)
            vertices = self.vertices(factors)
            if vertices is not None:
                options.append(vertices)
        found = max(options, key=lambda m: m.value, default=None)  # the first of equal values: hexagon, then slices
        self.memo[factors] = found
        return found if found is not None and found.value > known else None

    def vertices(self, factors: Factors) -> Multiple | None:
        """L5 on Π factors: its Newton vertices with witnesses (A = 1: its one term), for small supports."""
        if prod(len(f) ** k for f, k in factors) > 50 * MAX_VERTEX_SUPPORT:  # a bound on the expanded size: skip big products unexpanded
            return None
        R = _product(factors, self.rank + 1)
        if len(R) > MAX_VERTEX_SUPPORT:
            return None
        deltas = [b[0] for f, k in factors if (b := _binomial(dict(f))) is not None for _ in range(k)]
        generators = deltas if len(deltas) == sum(k for _, k in factors) else None  # a zonotope: no hull needed
        graph = newton_graph(sorted(x_support_of(R)), generators, with_edges=False)
        return Multiple(len(graph.vertices), "vertices", vertices=tuple(graph.vertices))

    def slices(self, factors: Factors, omega: tuple[int, ...], depth: int) -> Multiple | None:
        """LS along ω: A = the factors on one ω-level, B = the others with their negative roots at x′ = 1."""
        inside = tuple((f, k) for f, k in factors if _level_set(dict(f), omega))
        outside = tuple((f, k) for f, k in factors if not _level_set(dict(f), omega))
        roots: dict[Fraction, int] = {}
        for f, k in outside:
            rho = _root(dict(f), omega)
            if rho is not None:
                roots[rho] = roots.get(rho, 0) + k
        if not roots:
            return None
        inner = self.best(inside, depth + 1)
        if inner is None:
            return None
        r = sum(roots.values())
        return Multiple((r + 1) * inner.value, "slices", inside=inside, outside=outside, omega=omega,
                        roots=tuple(sorted(roots.items())), inner=inner)


def block_functionals(block: Block) -> list[tuple[int, ...]]:
    """ω candidates: the lattice coordinates and the q-axes read in the lattice (integer, primitive), ± each."""
    r = block.rank
    out: list[tuple[int, ...]] = [tuple(1 if i == c else 0 for i in range(r)) for c in range(r)]
    vectors = [block.basis.point(tuple(1 if i == c else 0 for i in range(r))) for c in range(r)]
    for j in range(len(block.variables)):
        column = [v[j] for v in vectors]
        scale = lcm(1, *(x.denominator for x in column))
        ints = tuple(int(x * scale) for x in column)
        if any(ints) and ints not in out:
            out.append(ints)
    return out + [tuple(-x for x in w) for w in out if tuple(-x for x in w) not in out]


def block_factors(block: Block) -> Factors:
    """The irreducible factors of Q′_B with their multiplicities (Q′_B is a unit times their product)."""
    return tuple(sorted((_freeze(f.poly.terms), f.in_denominator - f.in_gcd) for f in block.factors if f.in_denominator > f.in_gcd))


def block_multiple(block: Block, vertices: int) -> Multiple | None:
    """The strongest LH or LS certificate for μ(Q′_B) above V_B, or None."""
    if block.rank == 0:
        return None
    finder = MultipleFinder(block.rank, block_functionals(block))
    return finder.best(block_factors(block), 0, vertices)
