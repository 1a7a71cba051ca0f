"""Laurent polynomials over Q in (x_1..x_r, t), exact division, signs at t = e^(1/L), lattice coordinates.

A polynomial is a dict exponent-tuple -> nonzero Fraction; the last exponent is the
power of t = e^(1/L).  t is transcendental, so an identity of exponential polynomials is
an identity of these dicts, coefficient by coefficient (DESIGN §2).
"""

from __future__ import annotations

from fractions import Fraction
from heapq import heappop, heappush

from headfusion.kernel.base import MAX_EXPONENT, MAX_T_POWER, MAX_TERMS, CheckFailed, integer, rational, require, within

Poly = dict[tuple[int, ...], Fraction]


def poly_from_json(data: object, nvars: int) -> Poly:
    """[[exponent, coefficient], ...] with exponents of length nvars (x's then t)."""
    require(isinstance(data, list), "a polynomial must be a list of terms")
    within(len(data), MAX_TERMS, "terms of a polynomial")  # type: ignore[arg-type]
    out: Poly = {}
    for term in data:  # type: ignore[union-attr]
        require(isinstance(term, list) and len(term) == 2 and isinstance(term[0], list), "malformed term")
        e = tuple(integer(v) for v in term[0])
        within(max(map(abs, e), default=0), MAX_EXPONENT, "size of an exponent")
        c = rational(term[1])
        require(len(e) == nvars and e not in out and c != 0, "malformed polynomial (length, repeated or zero term)")
        out[e] = c
    return out


def add(a: Poly, b: Poly, factor: Fraction = Fraction(1)) -> Poly:
    """a + factor·b."""
    out = dict(a)
    for e, c in b.items():
        out[e] = out.get(e, 0) + factor * c
    return {e: c for e, c in out.items() if c}


def mul(a: Poly, b: Poly) -> Poly:
    """a·b (refused above MAX_TERMS term pairs)."""
    within(len(a) * len(b), MAX_TERMS, "term pairs of one product")
    out: Poly = {}
    for e, c in a.items():
        for f, d in b.items():
            g = tuple(x + y for x, y in zip(e, f))
            out[g] = out.get(g, 0) + c * d
    return {e: c for e, c in out.items() if c}


def same_fraction(a: Poly, b: Poly, c: Poly, d: Poly) -> bool:
    """a/b = c/d for nonzero b, d.  When (a, b) = κ·x^s·(c, d) for one rational κ and one monomial x^s (a block already
    in lowest terms, stored translated), that is seen in linear time; else a·d = c·b coefficient by coefficient."""
    if b and d and len(b) == len(d) and len(a) == len(c):
        low_b, low_d = min(b), min(d)  # a translation keeps the lexicographic order: the least terms correspond
        s = tuple(x - y for x, y in zip(low_b, low_d))
        ratio = b[low_b] / d[low_d]
        moved = lambda e: tuple(x + y for x, y in zip(e, s))  # noqa: E731
        if all(b.get(moved(e)) == ratio * v for e, v in d.items()) and all(a.get(moved(e)) == ratio * v for e, v in c.items()):
            return True  # equal lengths and every term matched: (a, b) = ratio·x^s·(c, d)
    return not add(mul(a, d), mul(c, b), Fraction(-1))


def product(polys: list[Poly], nvars: int) -> Poly:
    """Π polys (1 for the empty product)."""
    out: Poly = {(0,) * nvars: Fraction(1)}
    for p in polys:
        out = mul(out, p)
    return out


def divide(a: Poly, f: Poly) -> Poly | None:
    """a/f when f divides a in the Laurent ring Q[x^±, t^±], else None: long division by lex-leading terms.

    A heap of negated exponents gives the remainder's leading term; updates are in place.  If a = f·h,
    h's support lies in [min a − min f, max a − max f] per coordinate (extreme slices of a product never
    cancel), so a quotient term outside that box proves that f does not divide a."""
    require(bool(f), "division by zero")
    n = len(next(iter(f)))
    if not a:
        return {}
    low = [min(e[i] for e in a) - min(e[i] for e in f) for i in range(n)]
    high = [max(e[i] for e in a) - max(e[i] for e in f) for i in range(n)]
    lead = max(f)
    rest, quotient, heap = dict(a), {}, sorted(tuple(-x for x in e) for e in a)  # a sorted list is a heap
    while heap:
        top = tuple(-x for x in heappop(heap))
        if not rest.get(top):  # cancelled since it was pushed (zeros stay in `rest`)
            continue
        within(len(quotient), MAX_TERMS, "terms of a quotient")
        e = tuple(x - y for x, y in zip(top, lead))
        if any(not lo <= v <= hi for v, lo, hi in zip(e, low, high)):
            return None
        quotient[e] = c = rest[top] / f[lead]
        for g, d in f.items():
            k = tuple(x + y for x, y in zip(e, g))
            if not rest.get(k):
                heappush(heap, tuple(-x for x in k))
            rest[k] = rest.get(k, 0) - c * d
    return quotient


def binomial(f: Poly) -> tuple[tuple[int, ...], Fraction, int]:
    """(δ, r, s) for f = φx^u + ψx^(u+δ) with φ, ψ positive multiples of powers of t: λ = ψ/φ = r·t^s."""
    groups = sorted(x_groups(f).items())
    require(len(groups) == 2 and all(len(c) == 1 and min(c.values()) > 0 for _, c in groups),
            "a binomial factor must have two terms with positive monomial coefficients")
    (u, (su, au)), (w, (sw, aw)) = ((e, next(iter(c.items()))) for e, c in groups)
    return tuple(b - a for a, b in zip(u, w)), aw / au, sw - su


def unit_multiple(R: Poly, S: Poly) -> bool:
    """R = c·x^a·t^k·S for a nonzero rational c (compared term by term)."""
    if not R or len(R) != len(S):
        return False
    top_r, top_s = max(R), max(S)
    shift, ratio = [x - y for x, y in zip(top_r, top_s)], R[top_r] / S[top_s]
    return all(R.get(tuple(x + y for x, y in zip(e, shift))) == ratio * c for e, c in S.items())


def x_groups(p: Poly) -> dict[tuple[int, ...], dict[int, Fraction]]:
    """x-exponent ↦ its coefficient in Q[t^±] (as t-exponent ↦ rational)."""
    out: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for e, c in p.items():
        out.setdefault(e[:-1], {})[e[-1]] = c
    return out


def t_sign(coef: dict[int, Fraction], scale: int) -> int:
    """The exact sign of Σ c_k t^k at t = e^(1/scale), t^(min k) > 0 factored out: rigorous bounds, refined.

    With b bits, lo ≤ 2^b·e^x ≤ hi from n Taylor terms (tail < 2x^n/n! for 0 < x ≤ 1), every term, power and
    product rounded down for lower and up for upper bounds.  Undecided after the precision cap: CheckFailed."""
    items = [(k, c) for k, c in coef.items() if c]
    if not items:
        return 0
    if all(c > 0 for _, c in items) or all(c < 0 for _, c in items):
        return 1 if items[0][1] > 0 else -1
    base = min(k for k, _ in items)
    items = [(k - base, c) for k, c in items]  # the powers 0..top, top ≤ the limit
    top = max(k for k, _ in items)
    within(top, MAX_T_POWER, "power of t in a sign decision")
    for n in (8, 16, 32, 64, 128, 256):
        bits = 8 * n + 64
        lo, hi, down, up = 0, 0, 1 << bits, 1 << bits
        for k in range(n):  # down = floor(2^b/(k!·scale^k)), up = its ceiling
            lo, hi, down, up = lo + down, hi + up, down // ((k + 1) * scale), -(-up // ((k + 1) * scale))
        powers_lo, powers_hi, hi = [1 << bits], [1 << bits], hi + 2 * up
        for _ in range(top):
            powers_lo.append(powers_lo[-1] * lo >> bits)
            powers_hi.append(-(-powers_hi[-1] * hi >> bits))
        low = sum(c.numerator * (powers_lo if c > 0 else powers_hi)[k] // c.denominator for k, c in items)
        high = -sum(-c.numerator * (powers_hi if c > 0 else powers_lo)[k] // c.denominator for k, c in items)
        if low > 0 or high < 0:
            return 1 if low > 0 else -1
    raise CheckFailed("the sign of a coefficient in t = e^(1/L) is not decided within the precision cap")


def lattice_coordinates(vector: dict[int, Fraction], denominator: int, rows: list[list[tuple[int, int]]]) -> tuple[int, ...]:
    """Integer c with Σ c_r·row_r = denominator·vector, for echelon rows (strictly increasing pivots)."""
    target = {j: v * denominator for j, v in vector.items() if v}
    coords = []
    for row in rows:
        pivot, lead = row[0]
        c = target.get(pivot, Fraction(0)) / lead
        require(c.denominator == 1, "a key is not in the block lattice")
        coords.append(int(c))
        for j, v in row:
            target[j] = target.get(j, Fraction(0)) - c * v
    require(not any(target.values()), "a key is not in the block lattice")
    return tuple(coords)
