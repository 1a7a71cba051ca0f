"""Exponential-family form of a multi-head function (DESIGN §2, L1, L4, upper bounds).

Write x^k for e^<k,q> and t for e^(1/L) (exact weights, see `exact`).  Head h is
N_h/D_h with D_h = Σ w_i x^{k_i}, N_h = Σ v_i w_i x^{k_i}.  Heads are grouped into
*blocks*: heads that share a variable q_j are in one block, so different blocks live
on disjoint coordinates and the key lattice is the direct sum of the blocks'
lattices.  Within a block B the form P_B/Q_B with Q_B = Π D_h is expanded exactly in
lattice coordinates and reduced to lowest terms P′_B/Q′_B by removing the irreducible
factors of the D_h that divide P_B.  Across blocks nothing is expanded:

    F = c + Σ_B P′_B/Q′_B,   Q′ = Π_B Q′_B,

and Q′ is the lowest-terms denominator of F (an irreducible factor of Q′_B involves
only B's variables, so it divides no Q′_B′ of another block and not P′_B).
The fused head is the product head: one atom per tuple (k_B)_B of keys of the
blocks' heads, weight Π_B q_B(k_B), value c + Σ_B p_B(k_B)/q_B(k_B) (`algebra.fused`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from fractions import Fraction
from math import prod
from typing import Iterable, Iterator

from headfusion.spec.errors import ResourceLimit
from headfusion.algebra.exact import product_tree, sign_at_t, t_scale
from headfusion.algebra.lattice import LatticeBasis, lattice_basis
from headfusion.algebra.laurent import LPoly, exact_divide, irreducible_factors, product
from headfusion.spec.model import Head, Key, MultiHead, group_by_shared_variables

MAX_BLOCK_TERMS = 250_000  # Π n_h inside one block: larger blocks are not expanded
MAX_LISTED_ATOMS = 65_536  # fused-head atoms listed explicitly at most

TPolyDict = dict[int, Fraction]


class TooLarge(ResourceLimit):
    """An explicit expansion that would not fit in memory: one line for stderr."""


@dataclass(frozen=True)
class Factor:
    """An irreducible factor f of Q_B with its multiplicity in Q_B and in gcd(P_B, Q_B)."""

    poly: LPoly
    in_denominator: int
    in_gcd: int


@dataclass(frozen=True)
class Block:
    """Heads on a common set of variables, in exact lattice coordinates (x_1..x_r, t)."""

    head_indices: tuple[int, ...]
    variables: tuple[int, ...]  # 0-based q indices the block's keys use, in order
    basis: LatticeBasis  # over the block's local coordinates (position i ↔ q index variables[i])
    numerators: tuple[LPoly, ...]  # N_h
    denominators: tuple[LPoly, ...]  # D_h
    P: LPoly
    Q: LPoly
    factors: tuple[Factor, ...]
    P_reduced: LPoly  # P′_B
    Q_reduced: LPoly  # Q′_B (sign fixed so its coefficients are positive when valid)
    reduced_is_head: bool  # L1/upper bound: Q′ positive and supp P′ ⊆ supp Q′
    shift: tuple[int, ...]  # lattice shift applied to the chosen head (x coordinates)
    construction: tuple[LPoly, LPoly] | None = None  # (N_B, D_B) of a smaller head (bounds.constructions), same coordinates
    construction_kind: str | None = None  # how that head was found: uniform, blocks, search

    @property
    def rank(self) -> int:
        return self.basis.rank

    @property
    def head_numerator(self) -> LPoly:
        """Numerator of the block's fused head (a construction's, else reduced when valid, else naive)."""
        if self.construction is not None:
            return self.construction[0]
        return self.P_reduced if self.reduced_is_head else self.P

    @property
    def head_denominator(self) -> LPoly:
        """Denominator of the block's fused head (a construction's, else reduced when valid, else naive)."""
        if self.construction is not None:
            return self.construction[1]
        return self.Q_reduced if self.reduced_is_head else self.Q

    @property
    def head_size(self) -> int:
        return len(x_support(self.head_denominator))

    @property
    def naive_size(self) -> int:
        return len(x_support(self.Q))

    @property
    def reduced_support_size(self) -> int:
        return len(x_support(self.Q_reduced))


@dataclass(frozen=True)
class ExpForm:
    """F = constant + Σ_B P′_B/Q′_B with exact data per block."""

    model: MultiHead
    t_scale: int
    base: dict[int, Fraction]  # Σ_h base_h (sparse): the heads' translations
    blocks: tuple[Block, ...]

    @property
    def constant(self) -> Fraction:
        return self.model.constant

    @cached_property
    def upper_bound(self) -> int:
        """Size of the fused head: Π_B (|supp Q′_B| when (P′_B, Q′_B) is a head, else |supp Q_B|)."""
        return product_tree(_support_sizes(block.head_denominator for block in self.blocks))

    @cached_property
    def naive_size(self) -> int:
        """|supp Q| for the naive fused head D = Π_h D_h."""
        return product_tree(_support_sizes(block.Q for block in self.blocks))

    @cached_property
    def reduced_support_size(self) -> int:
        """|supp Q′| of the lowest-terms denominator."""
        return product_tree(_support_sizes(block.Q_reduced for block in self.blocks))

    @property
    def reduced_is_head(self) -> bool:
        return all(block.reduced_is_head for block in self.blocks)

    @property
    def is_rational(self) -> bool:
        """True when every weight is rational (no e^b with irrational e^b)."""
        return self.t_scale == 1 and all(
            all(e[-1] == 0 for e in b.Q.terms) for b in self.blocks
        )

    def key(self, block_coords: tuple[tuple[int, ...], ...]) -> tuple[Fraction, ...]:
        """q-coordinates of the fused-head key with block lattice coordinates (k_B)_B."""
        total = [Fraction(0)] * self.model.dimension
        for j, v in self.base.items():
            total[j] += v
        for block, coords in zip(self.blocks, block_coords):
            shifted = tuple(c + s for c, s in zip(coords, block.shift))
            if any(shifted):
                for j, v in zip(block.variables, block.basis.point(shifted)):
                    total[j] += v
        return tuple(total)


def _support_sizes(polys: Iterable[LPoly]) -> Iterator[int]:
    """|x-support| of each polynomial; blocks that are copies share their polynomials, counted once."""
    seen: dict[int, int] = {}
    for poly in polys:
        if id(poly) not in seen:
            seen[id(poly)] = len(x_support(poly))
        yield seen[id(poly)]


def x_support(poly: LPoly) -> dict[tuple[int, ...], TPolyDict]:
    """Group the terms of a polynomial in (x, t) by x-exponent: x^k ↦ coefficient in Q[t^±]."""
    grouped: dict[tuple[int, ...], TPolyDict] = {}
    for e, c in poly.terms.items():
        grouped.setdefault(e[:-1], {})[e[-1]] = c
    return grouped


def _blocks_of(model: MultiHead, bases: list[dict[int, Fraction]]) -> list[tuple[list[int], list[int]]]:
    """Partition heads into blocks by shared variables (of their translated keys; `bases`: each head's `head_base`)."""
    return group_by_shared_variables(
        [sorted({j for a in head.atoms for j in relative_key(a.key, base)}) for head, base in zip(model.heads, bases)]
    )


def head_base(head: Head) -> dict[int, Fraction]:
    """The translation of a head: its lexicographically least key (sparse).

    Translating by a key of the head (not the coordinate-wise minimum) makes the translated
    keys differences of keys, so the block lattice is the difference lattice of L2.
    """
    anchor = head.atoms[0].key
    for atom in head.atoms[1:]:  # linear in the key entries (attn with 10^4 atoms in 10^4 variables)
        if _sparse_less(atom.key, anchor):
            anchor = atom.key
    return {j: c for j, c in anchor if c}


def _sparse_less(a: Key, b: Key) -> bool:
    """a < b lexicographically as dense vectors (sparse keys sorted by index, zeros omitted)."""
    i = k = 0
    while i < len(a) or k < len(b):
        ja = a[i][0] if i < len(a) else None
        jb = b[k][0] if k < len(b) else None
        if ja is not None and (jb is None or ja < jb):
            return a[i][1] < 0  # b is 0 at ja
        if jb is not None and (ja is None or jb < ja):
            return b[k][1] > 0  # a is 0 at jb
        if a[i][1] != b[k][1]:
            return a[i][1] < b[k][1]
        i, k = i + 1, k + 1
    return False


def relative_key(key: Key, base: dict[int, Fraction]) -> dict[int, Fraction]:
    """key − base as a sparse mapping (nonzero entries only)."""
    rel = dict(key)
    for j, c in base.items():
        rel[j] = rel.get(j, Fraction(0)) - c
    return {j: c for j, c in rel.items() if c}


def _reduce(P: LPoly, denominators: tuple[LPoly, ...]) -> tuple[tuple[Factor, ...], LPoly]:
    """Irreducible factors of Q = Π D_h (those involving x) and the gcd Π f^j with P (L4)."""
    nvars = P.nvars
    multiplicity: dict[LPoly, int] = {}
    for D in denominators:
        for f, k in irreducible_factors(D):
            if all(e[:-1] == next(iter(f.terms))[:-1] for e in f.terms):
                continue  # no x-variable: a unit over Q(t), not a factor of the Laurent ring over Q(t)
            multiplicity[f] = multiplicity.get(f, 0) + k
    factors: list[Factor] = []
    gcd = LPoly.constant(nvars, Fraction(1))
    remaining = P
    for f in sorted(multiplicity, key=lambda p: sorted(p.terms.items())):
        j = 0
        while j < multiplicity[f] and remaining:
            quotient = exact_divide(remaining, f)
            if quotient is None:
                break
            remaining, j = quotient, j + 1
        if not remaining:
            j = multiplicity[f]
        factors.append(Factor(f, multiplicity[f], j))
        gcd = gcd * product([f] * j, nvars) if j else gcd
    return tuple(factors), gcd


def _x_signs(poly: LPoly, scale: int) -> set[int]:
    return {sign_at_t(coef, scale) for coef in x_support(poly).values()}


def build_block(model: MultiHead, heads: list[int], variables: list[int], scale: int,
                bases: list[dict[int, Fraction]] | None = None) -> Block:
    """Expand one block exactly and reduce it to lowest terms.

    The work is done on the block's local coordinates (variables renumbered 0..k−1)
    and memoised on that local data, so blocks that are copies of each other up to a
    renaming of variables (as in sums over coordinates) are computed once.
    """
    n_product = prod(len(model.heads[h].atoms) for h in heads)  # at least Π size (L1): the exact count only when it matters
    if n_product > MAX_BLOCK_TERMS:
        n_product = prod(model.heads[h].size for h in heads)
    if n_product > MAX_BLOCK_TERMS:
        raise TooLarge(
            f"heads {', '.join(model.heads[h].label or str(h) for h in heads[:4])}"
            f"{', ...' if len(heads) > 4 else ''} share variables and their product has up to {n_product} terms; "
            f"explicit expansion is limited to {MAX_BLOCK_TERMS} terms per block"
        )
    local_index = {j: i for i, j in enumerate(variables)}
    local_heads = []
    for h in heads:
        head = model.heads[h]
        base = head_base(head) if bases is None else bases[h]
        if base:
            atoms = tuple(
                (tuple(sorted((local_index[j], c) for j, c in relative_key(a.key, base).items())), a.weight, a.value)
                for a in head.atoms
            )
        else:  # keys already relative (sorted by variable, and the renaming keeps the order)
            atoms = tuple((tuple((local_index[j], c) for j, c in a.key), a.weight, a.value) for a in head.atoms)
        local_heads.append((model.scales[h], atoms))
    shape = (_light(local_heads), len(variables), scale)  # hashed in C: Fraction's own hash is Python code
    local = _LOCAL_SHAPES.get(shape)
    if local is None:
        local = _build_local(tuple(local_heads), len(variables), scale)
        if len(_LOCAL_SHAPES) >= 4096:
            _LOCAL_SHAPES.clear()
        _LOCAL_SHAPES[shape] = local
    return Block(tuple(heads), tuple(variables), *local)


_LOCAL_SHAPES: dict = {}  # light form of a block's local data -> _build_local's result


def _light(local_heads: list) -> tuple:
    """The block's local data with each rational as an int (integral) or a (p, q) pair: equal iff the data are equal."""
    def num(x: Fraction) -> object:
        p, q = x.numerator, x.denominator
        return p if q == 1 else (p, q)

    return tuple((num(scale), tuple((tuple((i, num(c)) for i, c in key), num(w.coef), num(w.exponent), num(v))
                                    for key, w, v in atoms)) for scale, atoms in local_heads)


@lru_cache(maxsize=4096)
def _build_local(local_heads: tuple, width: int, scale: int) -> tuple:
    basis = lattice_basis(width, (dict(key) for _, atoms in local_heads for key, _, _ in atoms))
    nvars = basis.rank + 1
    numerators_list, denominators_list = [], []
    for _, atoms in local_heads:
        num: dict[tuple[int, ...], Fraction] = {}
        den: dict[tuple[int, ...], Fraction] = {}
        for key, weight, value in atoms:  # L1: equal keys merge as coefficients
            t_exp = weight.exponent * scale
            e = basis.coordinates(dict(key)) + (int(t_exp),)
            den[e] = den.get(e, Fraction(0)) + weight.coef
            num[e] = num.get(e, Fraction(0)) + weight.coef * value
        numerators_list.append(LPoly(nvars, num))
        denominators_list.append(LPoly(nvars, den))
    check_degrees(denominators_list, nvars)
    numerators, denominators = tuple(numerators_list), tuple(denominators_list)
    Q = product(denominators, nvars)
    P = LPoly(nvars)
    for i, (head_scale, _) in enumerate(local_heads):
        others = product((d for g, d in enumerate(denominators) if g != i), nvars)
        P = P + numerators[i] * others * head_scale
    if not P:
        factors = tuple(Factor(f, k, k) for f, k in _merged_factors(denominators))
        P_red, Q_red = LPoly(nvars), LPoly.constant(nvars, Fraction(1))
    else:
        factors, gcd = _reduce(P, denominators)
        if gcd.is_monomial():
            P_red, Q_red = P, Q
        else:
            P_red = exact_divide(P, gcd)
            Q_red = exact_divide(Q, gcd)
            assert P_red is not None and Q_red is not None
    signs = _x_signs(Q_red, scale)
    if signs == {-1}:
        P_red, Q_red = -P_red, -Q_red
        signs = {1}
    valid = signs == {1} and set(x_support(P_red)) <= set(x_support(Q_red))
    chosen = Q_red if valid else Q
    low = chosen.min_exponent()[:-1]
    unshift = tuple(-v for v in low) + (0,)
    if any(low):  # one translation for both pairs, recorded in Block.shift
        P_red, Q_red = P_red.shift(unshift), Q_red.shift(unshift)
        P, Q = P.shift(unshift), Q.shift(unshift)
    return basis, numerators, denominators, P, Q, factors, P_red, Q_red, valid, tuple(low)


def check_degrees(denominators: list[LPoly], nvars: int) -> None:
    """Refuse (TooLarge) a block whose Q = Π D_h has a degree beyond the cost model's limits.

    The exact lattice degrees, checked before any product or factorisation; the spec layer
    estimated them before the lattice was built (`spec.cost`).
    """
    from headfusion.spec.cost import MAX_BINOMIAL_DEGREE, MAX_DEGREE, MAX_T_DEGREE

    binomials = all(len({e[:-1] for e in D.terms}) <= 2 for D in denominators)  # factored in closed form
    for i in range(nvars):
        degree = sum(max(e[i] for e in D.terms) - min(e[i] for e in D.terms) for D in denominators if D.terms)
        limit = MAX_T_DEGREE if i == nvars - 1 else (MAX_BINOMIAL_DEGREE if binomials else MAX_DEGREE)
        if degree > limit:
            what = "powers of t (the e^b weights)" if i == nvars - 1 else f"lattice steps along coordinate {i + 1}"
            raise TooLarge(f"a block spans {degree} {what} (limit {limit}); the exact engine cannot expand this yet")


def _merged_factors(denominators: tuple[LPoly, ...]) -> list[tuple[LPoly, int]]:
    multiplicity: dict[LPoly, int] = {}
    for D in denominators:
        for f, k in irreducible_factors(D):
            multiplicity[f] = multiplicity.get(f, 0) + k
    return sorted(multiplicity.items(), key=lambda fk: sorted(fk[0].terms.items()))


def exponential_form(model: MultiHead) -> ExpForm:
    """The exponential-family form of F with blocks reduced to lowest terms."""
    scale = t_scale(a.weight.exponent for h in model.heads for a in h.atoms)
    bases = [head_base(head) for head in model.heads]  # once per head: every step below needs them
    base: dict[int, Fraction] = {}
    for head_shift in bases:
        for j, v in head_shift.items():
            base[j] = base.get(j, Fraction(0)) + v
    blocks = tuple(build_block(model, heads, variables, scale, bases) for heads, variables in _blocks_of(model, bases))
    return ExpForm(model, scale, {j: v for j, v in base.items() if v}, blocks)


def embed(poly: LPoly, offset: int, nvars: int) -> LPoly:
    """Embed a block polynomial (x_1..x_r, t) into the concatenated coordinates plus t."""
    r = poly.nvars - 1
    out = {}
    for e, c in poly.terms.items():
        full = [0] * nvars
        full[offset : offset + r] = e[:-1]
        full[-1] = e[-1]
        out[tuple(full)] = c
    return LPoly(nvars, out)


def combined_polys(form: ExpForm, reduced: bool = True) -> tuple[LPoly, LPoly]:
    """(P, Q) with F = P/Q over the concatenated block coordinates plus t.

    reduced=True gives the lowest-terms pair P′ = c·Q′ + Σ_B P′_B Π_{B′≠B} Q′_B′,
    Q′ = Π_B Q′_B; reduced=False the naive pair with Q = Π_h D_h.  Exponent e maps to
    the q-coordinates `combined_key(form, e)`.
    """
    widths = [b.rank for b in form.blocks]
    nvars = sum(widths) + 1
    pairs: list[tuple[LPoly, LPoly]] = []
    offset = 0
    for block in form.blocks:
        p, q = (block.P_reduced, block.Q_reduced) if reduced else (block.P, block.Q)
        pairs.append((embed(p, offset, nvars), embed(q, offset, nvars)))
        offset += block.rank
    Q = product((q for _, q in pairs), nvars)
    P = Q * form.constant
    for i, (p, _) in enumerate(pairs):
        P = P + p * product((q for j, (_, q) in enumerate(pairs) if j != i), nvars)
    return P, Q


def multihead_polys(form: ExpForm) -> tuple[LPoly, LPoly]:
    """(P, Q) with F = P/Q and Q = Π_h D_h over the concatenated coordinates (naive, unreduced)."""
    return combined_polys(form, reduced=False)


def combined_key(form: ExpForm, exponent: tuple[int, ...]) -> tuple[Fraction, ...]:
    """q-coordinates of a key given in concatenated block coordinates (t part ignored)."""
    coords, offset = [], 0
    for block in form.blocks:
        coords.append(tuple(exponent[offset : offset + block.rank]))
        offset += block.rank
    return form.key(tuple(coords))
