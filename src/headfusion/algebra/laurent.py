"""Sparse Laurent polynomials with exact rational coefficients.

A `LPoly` maps exponent tuples (integers, possibly negative) to nonzero Fractions.
It is immutable by convention.  Factorisation and exact division go through
sympy's polynomial ring over QQ after shifting exponents to be nonnegative
(monomials are units in the Laurent ring, so the shift loses nothing).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, prod
from typing import Iterable, Iterator, Mapping

import sympy

try:  # optional accelerator (cyclotomic polynomials, univariate division); exact fallbacks below
    import flint  # type: ignore
except ImportError:  # pragma: no cover - exercised only without python-flint
    flint = None

from headfusion.spec.numbers import rational_from_json as _rational_from_json
from headfusion.spec.numbers import rational_to_json as _rational_json
from sympy.polys.domains import QQ

Exponent = tuple[int, ...]


class LPoly:
    """Σ c_e x^e over Q with e ∈ Z^nvars."""

    __slots__ = ("nvars", "terms", "_hash")

    def __init__(self, nvars: int, terms: Mapping[Exponent, Fraction] | Iterable[tuple[Exponent, Fraction]] = ()):
        self.nvars = nvars
        items = terms.items() if isinstance(terms, Mapping) else terms
        clean: dict[Exponent, Fraction] = {}
        for e, c in items:
            if c:
                e = tuple(e)
                c = c if type(c) is Fraction else Fraction(c)
                clean[e] = clean[e] + c if e in clean else c
        self.terms = {e: c for e, c in clean.items() if c}
        self._hash: int | None = None

    # -- construction -------------------------------------------------------------------
    @classmethod
    def constant(cls, nvars: int, value: Fraction) -> "LPoly":
        return cls(nvars, {(0,) * nvars: Fraction(value)})

    @classmethod
    def monomial(cls, exponent: Exponent, coef: Fraction = Fraction(1)) -> "LPoly":
        return cls(len(exponent), {tuple(exponent): Fraction(coef)})

    # -- arithmetic ---------------------------------------------------------------------
    def __add__(self, other: "LPoly") -> "LPoly":
        out = dict(self.terms)
        for e, c in other.terms.items():
            out[e] = out.get(e, Fraction(0)) + c
        return LPoly(self.nvars, out)

    def __neg__(self) -> "LPoly":
        return LPoly(self.nvars, {e: -c for e, c in self.terms.items()})

    def __sub__(self, other: "LPoly") -> "LPoly":
        return self + (-other)

    def __mul__(self, other: "LPoly | Fraction | int") -> "LPoly":
        if not isinstance(other, LPoly):
            factor = Fraction(other)
            return LPoly(self.nvars, {e: c * factor for e, c in self.terms.items()})
        if MPOLY and len(self.terms) * len(other.terms) > FLINT_PRODUCT_WORK:
            low = tuple(a + b for a, b in zip(self.min_exponent(), other.min_exponent()))
            return LPoly(self.nvars, _from_flint(_to_flint(self) * _to_flint(other), low))
        out: dict[Exponent, Fraction] = {}
        for e1, c1 in self.terms.items():
            for e2, c2 in other.terms.items():
                e = tuple(a + b for a, b in zip(e1, e2))
                out[e] = out.get(e, Fraction(0)) + c1 * c2
        return LPoly(self.nvars, out)

    __rmul__ = __mul__

    def shift(self, exponent: Exponent) -> "LPoly":
        """Multiply by the monomial x^exponent."""
        return LPoly(self.nvars, {tuple(a + b for a, b in zip(e, exponent)): c for e, c in self.terms.items()})

    # -- inspection ---------------------------------------------------------------------
    def __bool__(self) -> bool:
        return bool(self.terms)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LPoly) and self.nvars == other.nvars and self.terms == other.terms

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.nvars, frozenset(self.terms.items())))
        return self._hash

    def __iter__(self) -> Iterator[tuple[Exponent, Fraction]]:
        return iter(sorted(self.terms.items()))

    def __len__(self) -> int:
        return len(self.terms)

    def __repr__(self) -> str:
        return f"LPoly({self.nvars}, {dict(sorted(self.terms.items()))})"

    def min_exponent(self) -> Exponent:
        """Coordinate-wise minimum of the support (zeros for the zero polynomial)."""
        if not self.terms:
            return (0,) * self.nvars
        return tuple(min(e[i] for e in self.terms) for i in range(self.nvars))

    def normalized_shift(self) -> "LPoly":
        """The translate with coordinate-wise minimum exponent 0."""
        low = self.min_exponent()
        return self.shift(tuple(-v for v in low))

    def is_monomial(self) -> bool:
        return len(self.terms) == 1

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict:
        """{"nvars": n, "terms": [[exponent, coefficient], ...]} sorted, coefficients exact."""
        return {
            "nvars": self.nvars,
            "terms": [[list(e), _rational_json(c)] for e, c in sorted(self.terms.items())],
        }

    @classmethod
    def from_json(cls, data: dict) -> "LPoly":
        """Inverse of `to_json` (ValueError/KeyError/TypeError on malformed data)."""
        nvars = int(data["nvars"])
        terms = {}
        for exponent, coef in data["terms"]:
            e = tuple(int(x) for x in exponent)
            if len(e) != nvars or e in terms:
                raise ValueError("malformed polynomial")
            terms[e] = _rational_from_json(coef)
        return cls(nvars, terms)

    # -- sympy bridge -------------------------------------------------------------------
    def to_sympy(self, gens: tuple[sympy.Symbol, ...]) -> tuple[sympy.Poly, Exponent]:
        """(Poly over QQ, shift) with self = Poly · x^shift."""
        low = self.min_exponent()
        data = {tuple(a - b for a, b in zip(e, low)): QQ(c.numerator, c.denominator) for e, c in self.terms.items()}
        if not data:
            data = {(0,) * self.nvars: QQ(0)}
        return sympy.Poly.from_dict(data, *gens, domain=QQ), low

    @classmethod
    def from_sympy(cls, poly: sympy.Poly, nvars: int, shift: Exponent | None = None) -> "LPoly":
        """LPoly from a sympy Poly (times x^shift)."""
        shift = shift or (0,) * nvars
        terms = {}
        for e, c in poly.terms():
            c = QQ.convert(c)
            terms[tuple(a + b for a, b in zip(e, shift))] = Fraction(int(QQ.numer(c)), int(QQ.denom(c)))
        return cls(nvars, terms)


def generators(nvars: int) -> tuple[sympy.Symbol, ...]:
    """Symbols x1..x_nvars for the sympy bridge."""
    return tuple(sympy.Symbol(f"x{i + 1}") for i in range(nvars)) if nvars else (sympy.Symbol("x_"),)


def product(polys: Iterable[LPoly], nvars: int) -> LPoly:
    """Π polys (the constant 1 for an empty product)."""
    polys = list(polys)
    if MPOLY and len(polys) > 2 and prod(len(p) for p in polys) > FLINT_PRODUCT_WORK:  # one conversion each way
        low = tuple(sum(column) for column in zip((0,) * nvars, *(p.min_exponent() for p in polys)))
        out_flint = _to_flint(LPoly.constant(nvars, Fraction(1)))
        for p in polys:
            out_flint = out_flint * _to_flint(p)
        return LPoly(nvars, _from_flint(out_flint, low))
    out = LPoly.constant(nvars, Fraction(1))
    for p in polys:
        out = out * p
    return out


def exact_divide(numerator: LPoly, divisor: LPoly) -> LPoly | None:
    """numerator / divisor when it divides exactly in the Laurent ring, else None.

    Both are shifted to polynomials with minimum exponent 0 in every variable (the
    minimum of a product is the sum of the minima), then divided in lex order: if
    divisor | numerator, the leading monomial of every remainder is divisible by the
    divisor's, so a non-divisible leading monomial proves non-divisibility.
    """
    nvars = numerator.nvars
    if not numerator:
        return LPoly(nvars)
    if not divisor:
        raise ZeroDivisionError("division by the zero polynomial")
    low_n, low_d = numerator.min_exponent(), divisor.min_exponent()
    remainder = {tuple(a - b for a, b in zip(e, low_n)): c for e, c in numerator.terms.items()}
    divisor_terms = [(tuple(a - b for a, b in zip(e, low_d)), c) for e, c in divisor.terms.items()]
    if flint is not None and max(sum(e) for e in remainder) > UNIVARIATE_FLINT_DEGREE:
        quotient_terms = _univariate_divide(remainder, dict(divisor_terms), nvars)
        if quotient_terms is not NotImplemented:
            if quotient_terms is None:
                return None
            offset = tuple(a - b for a, b in zip(low_n, low_d))
            return LPoly(nvars, {tuple(a + b for a, b in zip(e, offset)): c for e, c in quotient_terms.items()})
    if MPOLY and len(remainder) * len(divisor_terms) > FLINT_PRODUCT_WORK:
        quotient_flint, rest = divmod(_to_flint(numerator), _to_flint(divisor))
        return None if not rest.is_zero() else LPoly(nvars, _from_flint(quotient_flint, tuple(a - b for a, b in zip(low_n, low_d))))
    lead_e, lead_c = max(divisor_terms)
    quotient: dict[Exponent, Fraction] = {}
    while remainder:
        top = max(remainder)
        shift = tuple(a - b for a, b in zip(top, lead_e))
        if any(v < 0 for v in shift):
            return None
        factor = remainder[top] / lead_c
        quotient[shift] = factor
        for e, c in divisor_terms:
            key = tuple(a + b for a, b in zip(e, shift))
            value = remainder.get(key, Fraction(0)) - factor * c
            if value:
                remainder[key] = value
            else:
                remainder.pop(key, None)
    offset = tuple(a - b for a, b in zip(low_n, low_d))
    return LPoly(nvars, {tuple(a + b for a, b in zip(e, offset)): c for e, c in quotient.items()})


FLINT_PRODUCT_WORK = 4096  # products and divisions with more term pairs than this go through flint's fmpq_mpoly (same exact result)
MPOLY = flint is not None and hasattr(getattr(flint, "fmpq_mpoly_ctx", None), "get")  # where this python-flint has it; else the loops


def _to_flint(poly: LPoly) -> "flint.fmpq_mpoly":
    """poly · x^(−min exponent) as a flint polynomial over Q (exponents shifted to start at 0)."""
    low = poly.min_exponent()
    context = flint.fmpq_mpoly_ctx.get(("x", max(poly.nvars, 1)), "lex")
    return context.from_dict({tuple(a - b for a, b in zip(e, low)) or (0,): flint.fmpq(c.numerator, c.denominator)
                              for e, c in poly.terms.items()})


def _from_flint(poly: "flint.fmpq_mpoly", low: Exponent) -> dict[Exponent, Fraction]:
    """The terms of a flint polynomial times x^low (Fractions; the inverse of `_to_flint`)."""
    width = len(low)
    return {tuple(int(a) + b for a, b in zip(e[:width], low)): Fraction(int(c.p), int(c.q)) for e, c in poly.to_dict().items()}


UNIVARIATE_FLINT_DEGREE = 64  # exact division of polynomials of higher degree in one variable goes through flint


def _univariate_divide(numerator: dict, divisor: dict, nvars: int) -> dict | None:
    """Exact division with flint's fmpq_poly when both live in one coordinate (NotImplemented otherwise)."""
    moving = {i for e in (*numerator, *divisor) for i, x in enumerate(e) if x}
    if len(moving) > 1:
        return NotImplemented
    i = moving.pop() if moving else 0

    def dense(terms: dict) -> "flint.fmpq_poly":
        coeffs = [flint.fmpq(0)] * (max(e[i] for e in terms) + 1)
        for e, c in terms.items():
            coeffs[e[i]] = flint.fmpq(c.numerator, c.denominator)
        return flint.fmpq_poly(coeffs)

    quotient, remainder = divmod(dense(numerator), dense(divisor))
    if remainder != 0:
        return None
    out = {}
    for k, c in enumerate(quotient.coeffs()):
        if c != 0:
            e = [0] * nvars
            e[i] = k
            out[tuple(e)] = Fraction(int(c.p), int(c.q))
    return out


def is_primitive_binomial(poly: LPoly) -> bool:
    """A binomial c1·x^a + c2·x^b with gcd(a − b) = 1 is irreducible in Q[x^±].

    A unimodular change of lattice coordinates maps a − b to e_1, turning the
    binomial into a unit times (x_1 + c), which is irreducible.
    """
    if len(poly.terms) != 2:
        return False
    (a, _), (b, _) = poly.terms.items()
    return gcd(*(x - y for x, y in zip(a, b))) == 1


def irreducible_factors(poly: LPoly) -> list[tuple[LPoly, int]]:
    """Irreducible non-monomial factors over Q with multiplicities (content and monomials dropped)."""
    if poly.is_monomial() or not poly:
        return []
    if len(poly.terms) == 2:
        factors = binomial_factors(poly)
        if factors is not None:
            return factors
    gens = generators(poly.nvars)
    p, _ = poly.to_sympy(gens)
    _, factors = p.factor_list()
    out = []
    for f, k in factors:
        lf = LPoly.from_sympy(f, poly.nvars)
        if not lf.is_monomial():
            out.append((canonical_associate(lf), k))
    return out


def binomial_factors(poly: LPoly) -> list[tuple[LPoly, int]] | None:
    """Factors of a binomial a·x^u + b·x^v by the cyclotomic rule, or None when it does not apply.

    With n = gcd(u − v) and y = x^((u − v)/n) (a unimodular change of coordinates maps it
    to a coordinate, so irreducibility over Q carries over), the binomial is a unit times
    y^n − r, r = −b/a.  For r = 1, y^n − 1 = Π_{k | n} Φ_k(y); for r = −1,
    y^n + 1 = Π_{k | 2n, k ∤ n} Φ_k(y); each Φ_k is irreducible over Q, of degree φ(k).
    Other r (y^n − 2, y^4 + 4) are left to general factorisation (None).
    """
    (u, a), (v, b) = sorted(poly.terms.items(), reverse=True)
    w = tuple(x - y for x, y in zip(u, v))
    n = gcd(*w)
    if n == 1:
        return [(canonical_associate(poly), 1)]
    r = -b / a
    if r == 1:
        orders = [k for k in divisors(n)]
    elif r == -1:
        orders = [k for k in divisors(2 * n) if n % k]
    else:
        return None
    step = tuple(x // n for x in w)
    out = []
    for k in orders:
        terms = {tuple(i * s for s in step): Fraction(c) for i, c in enumerate(cyclotomic(k)) if c}
        out.append((canonical_associate(LPoly(poly.nvars, terms)), 1))
    return out


def divisors(n: int) -> list[int]:
    """The positive divisors of n ≥ 1, increasing."""
    small, large = [], []
    i = 1
    while i * i <= n:
        if n % i == 0:
            small.append(i)
            if i * i != n:
                large.append(n // i)
        i += 1
    return small + large[::-1]


def cyclotomic(k: int) -> list[int]:
    """Integer coefficients (constant first) of the k-th cyclotomic polynomial Φ_k.

    python-flint's fmpz_poly.cyclotomic when installed; else Φ_k = Π_{d | k} (x^d − 1)^μ(k/d),
    multiplying and dividing dense integer lists by binomials x^d − 1 (exact).
    """
    if flint is not None:
        return [int(c) for c in flint.fmpz_poly.cyclotomic(k).coeffs()]
    coeffs = [1]
    for d in divisors(k):
        m = _moebius(k // d)
        if m == 1:  # multiply by x^d − 1
            grown = [0] * d + coeffs
            for i, c in enumerate(coeffs):
                grown[i] -= c
            coeffs = grown
    for d in divisors(k):
        if _moebius(k // d) == -1:  # divide exactly by x^d − 1: q_i = q_{i−d} − c_i from the bottom
            degree = len(coeffs) - 1 - d
            quotient = [0] * (degree + 1)
            for i in range(degree + 1):
                quotient[i] = -coeffs[i] + (quotient[i - d] if i >= d else 0)
            coeffs = quotient
    return coeffs if coeffs[-1] > 0 else [-c for c in coeffs]


def _moebius(n: int) -> int:
    result, p = 1, 2
    while p * p <= n:
        if n % p == 0:
            n //= p
            if n % p == 0:
                return 0
            result = -result
        p += 1
    return -result if n > 1 else result


def canonical_associate(poly: LPoly) -> LPoly:
    """The associate (up to unit c·x^e) with minimum exponent 0 and leading coefficient 1."""
    shifted = poly.normalized_shift()
    lead = max(shifted.terms)
    return shifted * (1 / shifted.terms[lead])
