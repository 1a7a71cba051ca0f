"""Terms of nonnegative multiples (DESIGN §9, §10): the hexagon (LH), slices (LS), three slices (V3), 2-adic classes (V2), per block.

μ(R) is the least number of terms of a nonzero Laurent polynomial D ≥ 0 with R | D; a head has
D = g·Q′, so m*(F) ≥ μ(Q′) ≥ Π_B μ(Q′_B) (Lemma LM).  This module finds certificates for μ(Q′_B):

- LH: three binomial factors whose directions are δ_1, δ_2, ±δ_1 ± δ_2 with matching coefficient
  ratios (the hexagon of a triangle tournament, tilted): μ ≥ 7;
- LS: an integer functional ω that is constant on the support of some factors (A, their product) and
  moves the others (B); at x′ = (1, …, 1) each binomial factor of B with ⟨ω, δ⟩ = ±1 and rational
  coefficients contributes a negative root of s ↦ B(x′ ⊙ s^ω), so μ ≥ (r + 1)·μ(A), with μ(A) found
  the same way (recursively), or from its Newton vertices (L5);
- V3: ω with exactly two binomial factors off one ω-level, f_k = unit·(1 + λ_k x^(δ_k)), ⟨ω, δ_k⟩ = 1 and ε = δ_1 − δ_2
  primitive: μ ≥ min(4μ′, 3μ′ + L, 2μ′ + max(μ′, c·L)), μ′ = μ(A) and L = μ(P_*A) for the projection P along ε (the
  lines of direction ε collapse to points), both found the same way; c = 4 when A has the factor 1 + (λ_1/λ_2)x^ε;
  DM (the diamond, 24) is its first case, and every μ found here feeds LS, LM and LD wherever the factor recurs;
- V2 (rank 1, any biases): binomials 1 + w·x^a (w > 0) of t distinct 2-adic valuations v₂(a) divide the product: μ ≥ 2^t;
  CD: with n of them of scales A·odd and distinct moduli w^(1/odd), and t levels below v₂(A): μ ≥ (n + 1)·2^t.  The
  candidates are the product's binomial factors and the block's head denominators 1 + w·x^a that divide it.

Candidates for ω are the lattice's coordinate functionals and the functionals of the q-axes (a
coordinate q_j, read in the block's lattice).  `kernel.multiples` re-checks every certificate.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import gcd, lcm, prod

from headfusion.algebra.expform import Block
from headfusion.bounds.grids import edge_key, find_grid
from headfusion.bounds.polytope import newton_graph
from headfusion.kernel.grids import VALUES
from headfusion.kernel.base import MAX_POINTS
from headfusion.kernel.poly import divide, mul
from headfusion.kernel.threeslices import projected

Poly = dict[tuple[int, ...], Fraction]
MAX_VERTEX_SUPPORT = 300  # μ(A) from a hull only for small nested supports (the block's own V_B is known)
MAX_DEPTH = 8
MAX_EXPANSION = 2_000_000  # term pairs spent expanding Q′_B to test a head's denominator for V2 (box × factor terms)


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
    projection: tuple[tuple[int, ...], ...] = ()  # V3: P with Pε = 0
    lines: "Multiple | None" = None  # V3: μ(P_*A), a lower bound for the lines in direction ε
    edge: int = 0  # V3: c (4 when A has the line factor, else 3)
    levels: tuple[tuple[int, Fraction, int], ...] = ()  # V2: binomials 1 + c·t^s·x^a as (a, c, s), distinct v₂(a)
    modulus: int | None = None  # CD: A
    klass: tuple[tuple[int, Fraction, int], ...] = ()  # CD: binomials of scales A·odd with distinct moduli
    lemma: str = ""  # grid: W14 or K35
    images: tuple = ()  # grid: the pattern's vertex monomials ((exponent with t, coefficient), …)


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

    def __init__(self, rank: int, functionals: list[tuple[int, ...]], binomials: tuple = ()):
        self.rank = rank
        self.binomials = binomials  # rank 1: (a, c, s) of the block's head denominators, V2/CD candidates
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
            options += [s for omega in self.functionals if (s := self.three_slices(factors, omega, depth)) is not None]
        grid = self.grid(factors)
        if grid is not None:
            options.append(grid)
        if self.rank == 1:
            adic = self.two_adic(factors)
            if adic is not None:
                options.append(adic)
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


    def three_slices(self, factors: Factors, omega: tuple[int, ...], depth: int) -> Multiple | None:
        """V3 along ω: exactly two root binomials off the ω-level of A, their difference ε primitive."""
        if self.rank < 2:
            return None
        inside = tuple((f, k) for f, k in factors if _level_set(dict(f), omega))
        outside = tuple((f, k) for f, k in factors if not _level_set(dict(f), omega))
        if len(outside) != 2 or any(k != 1 for _, k in outside):
            return None
        oriented = [_oriented(dict(f), omega) for f, _ in outside]
        if None in oriented:
            return None
        (d1, r1, s1), (d2, r2, s2) = oriented  # type: ignore[misc]
        eps = tuple(a - b for a, b in zip(d1, d2))
        if not any(eps) or gcd(*eps) != 1:
            return None
        inner = self.best(inside, depth + 1)
        if inner is None or _product_box(inside, self.rank + 1) > MAX_POINTS:  # the kernel's limit on the line division
            return None
        U, U_inv = _unimodular_to_last(eps)
        P = tuple(U[:-1])
        image = tuple(sorted(_freeze(projected(dict(f), P)) for f, k in inside for _ in range(k)))  # P_*A exactly: monomials stay, as units
        quotient = [w for omega2 in self.functionals if sum(a * b for a, b in zip(omega2, eps)) == 0
                    if any(w := tuple(sum(omega2[i] * U_inv[i][j] for i in range(self.rank)) for j in range(self.rank - 1)))]
        coordinates = [tuple(1 if i == c else 0 for i in range(self.rank - 1)) for c in range(self.rank - 1)]
        functionals = list(dict.fromkeys(coordinates + quotient + [tuple(-x for x in w) for w in coordinates + quotient]))
        lines = MultipleFinder(self.rank - 1, functionals).best(_merged(image), depth + 1)
        if lines is None:
            return None
        line = (tuple(eps), r1 / r2, s1 - s2)
        c = 4 if any(o is not None and (o[0], o[1], o[2]) == line for f, _ in inside for o in [_oriented_along(dict(f), eps)]) else 3
        mu, L = inner.value, lines.value
        value = min(4 * mu, 3 * mu + L, 2 * mu + max(mu, c * L))
        return Multiple(value, "three-slices", inside=inside, outside=outside, omega=omega, inner=inner, projection=P, lines=lines, edge=c)

    def grid(self, factors: Factors) -> Multiple | None:
        """W14 or K35 on the binomial factors (kernel.grids): a triangle with two doubled edges, or a K_4."""
        if self.rank < 2:
            return None
        edges: dict = {}
        for f, k in factors:
            b = _binomial(dict(f))
            if b is not None:
                key = edge_key(b)
                edges[key] = edges.get(key, 0) + k
        found = find_grid(edges, self.rank)
        return None if found is None else Multiple(VALUES[found[0]], "grid", lemma=found[0], images=found[1])

    def two_adic(self, factors: Factors) -> Multiple | None:
        """V2 or CD in rank 1: binomials 1 + c·t^s·x^a dividing the product (its binomial factors, or a head's denominator
        when it divides exactly), within the kernel's work limit; the stronger of V2 alone and the best class modulus A."""
        box = _product_box(factors, 2)  # at least the terms of the product, which the kernel's work limit counts
        if box > MAX_POINTS:
            return None
        span = sum(k * (max(e[0] for e in f) - min(e[0] for e in f)) for f, k in ((dict(f), k) for f, k in factors))
        found = {(b[0][0], b[1], b[2]) for f, _ in factors if (b := _binomial(dict(f))) is not None}
        extra = [b for b in self.binomials if b not in found and (span // b[0] + 1) * box <= MAX_POINTS]
        if extra and box * sum(len(f) * k for f, k in factors) <= MAX_EXPANSION:
            # a head's denominator that is no factor of Q′ itself (1 + 4x⁴ = (1 + 2x + 2x²)(1 − 2x + 2x²)): divide
            R = _product(factors, 2)
            found |= {b for b in extra if _divides(R, b)}
        usable = sorted(b for b in found if (span // b[0] + 1) * box <= MAX_POINTS)
        best = Multiple(2 ** len(_levels(usable, 99)), "two-adic", levels=_levels(usable, 99)) if usable else None
        for A in sorted({a // o for a, _, _ in usable for o in range(1, a + 1, 2) if a % o == 0}):
            klass: list[tuple[int, Fraction, int]] = []
            for a, c, s in usable:
                o = a // A
                if a % A == 0 and o % 2 and all(c**p != d**o or s * p != u * o for b, d, u in klass for p in [b // A]):
                    klass.append((a, c, s))
            levels = _levels(usable, _valuation(A))
            value = (len(klass) + 1) * 2 ** len(levels)
            if len(klass) >= 2 and (best is None or value > best.value):
                best = Multiple(value, "two-adic", levels=levels, modulus=A, klass=tuple(klass))
        return best


def _valuation(a: int) -> int:
    return (a & -a).bit_length() - 1


def _levels(binomials: list[tuple[int, Fraction, int]], below: int) -> tuple[tuple[int, Fraction, int], ...]:
    """One binomial per 2-adic valuation v₂(a) < below (the least a of each: the cheapest division)."""
    out: dict[int, tuple[int, Fraction, int]] = {}
    for b in binomials:
        if _valuation(b[0]) < below:
            out.setdefault(_valuation(b[0]), b)
    return tuple(out[v] for v in sorted(out))


def _divides(R: Poly, binomial: tuple[int, Fraction, int]) -> bool:
    """1 + c·t^s·x^a divides R exactly (the kernel's division, within its work limit)."""
    a, c, s = binomial
    span = max(e[0] for e in R) - min(e[0] for e in R)
    return (span // a + 1) * len(R) <= MAX_POINTS and divide(R, {(0, 0): Fraction(1), (a, s): c}) is not None


def _product_box(factors: Factors, nvars: int) -> int:
    """The points of the bounding box of Π f^k (kernel.threeslices.quotient_box of the product), without expanding it:
    the widths of a product's support add up, as its extreme terms never cancel (Newt(fg) = Newt(f) + Newt(g))."""
    box = 1
    for i in range(nvars):
        box *= sum(k * (max(e[i] for e in f) - min(e[i] for e in f)) for f, k in ((dict(f), k) for f, k in factors)) + 1
    return box


def _oriented(f: Poly, omega: tuple[int, ...]) -> tuple[tuple[int, ...], Fraction, int] | None:
    """(δ, r, s) of a binomial f = unit·(1 + r·t^s·x^δ) with ⟨ω, δ⟩ = 1, else None."""
    b = _binomial(f)
    if b is None:
        return None
    delta, r, s = b
    step = sum(w * d for w, d in zip(omega, delta))
    return (delta, r, s) if step == 1 else ((tuple(-d for d in delta), 1 / r, -s) if step == -1 else None)


def _oriented_along(f: Poly, eps: tuple[int, ...]) -> tuple[tuple[int, ...], Fraction, int] | None:
    """(δ, r, s) of a binomial f with δ = ±ε, oriented to δ = ε, else None."""
    b = _binomial(f)
    if b is None:
        return None
    delta, r, s = b
    if delta == eps:
        return delta, r, s
    return (eps, 1 / r, -s) if tuple(-d for d in delta) == eps else None


def _unimodular_to_last(eps: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """(U, U⁻¹), integer and unimodular, with U·ε = e_last, for a primitive ε (Euclid's steps on the rows)."""
    n = len(eps)
    U = [[int(i == j) for j in range(n)] for i in range(n)]
    V = [[int(i == j) for j in range(n)] for i in range(n)]  # V = U⁻¹, kept by the inverse column steps
    v = list(eps)
    while sum(1 for x in v if x) > 1:
        i = min((k for k in range(n) if v[k]), key=lambda k: (abs(v[k]), k))
        for j in range(n):
            if j != i and v[j]:
                q = v[j] // v[i]
                v[j] -= q * v[i]
                U[j] = [a - q * b for a, b in zip(U[j], U[i])]
                for row in V:
                    row[i] += q * row[j]
    i = next(k for k in range(n) if v[k])
    U[i], U[n - 1] = U[n - 1], U[i]
    for row in V:
        row[i], row[n - 1] = row[n - 1], row[i]
    if v[i] < 0:
        U[n - 1] = [-a for a in U[n - 1]]
        for row in V:
            row[n - 1] = -row[n - 1]
    return [tuple(r) for r in U], [tuple(r) for r in V]


def _merged(image: tuple) -> Factors:
    """Equal factors counted once, with their multiplicity."""
    out: dict[tuple, int] = {}
    for f in image:
        out[f] = out.get(f, 0) + 1
    return tuple(sorted(out.items()))


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
    binomials = tuple(sorted({(b[0][0], b[1], b[2]) for D in block.denominators if block.rank == 1
                              and (b := _binomial(dict(D.terms))) is not None}))
    finder = MultipleFinder(block.rank, block_functionals(block), binomials)
    return finder.best(block_factors(block), 0, vertices)
