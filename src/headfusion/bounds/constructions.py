"""Heads in closed form: the upper bounds beyond the product head (DESIGN §10, L1, L4, LP).

Every head of a block is N/D with D = g·Q′_B and N = g·P′_B (L4); the constructions below are
choices of D that need no search, each an explicit (N_B, D_B) that the kernel's construction
check replays (N_B·Q′_B = D_B·P′_B, positive weights, supp N_B ⊆ supp D_B):

* **product**: D_B = Π_h D_h (the naive fused head), or Q′_B itself when (P′_B, Q′_B) is a head
  (**reduced**) — what `algebra.expform` already chooses;
* **uniform** (§10): for heads whose keys lie on one line x^{kδ}, with lowest-terms denominator
  Q′(y) = R(y^h) (y = x^δ) dividing z^L − 1 (R(1) ≠ 0), D = 1 + y^h + … + y^{h(L−1)} is a multiple
  of Q′ with L terms; it is a head when supp(g·P′) ⊆ supp D.  For Σ σ(a_i q): L = 2·lcm(a_i)/h;
* **interval** (Lemma IH, bounds/intervals.py): for a block in one variable, D = g·Q′ with positive
  coefficients at every exponent of [0, deg D], the least such found by an LP in g of growing degree;
* **blocks**: partition the heads (heads with proportional denominators merged first: equal keys
  merge, L1); each part's head is uniform, reduced or its heads' own; the product of the parts'
  heads is a head of the sum (N = Σ_G N_G Π_{G′≠G} D_G′), of size |Σ_G supp D_G| (a sumset: no
  cancellation among positive weights).

Only blocks with rational weights are rebuilt (weights e^b keep the product head).  Pure functions
over exact data; the answer is a new `ExpForm` whose blocks carry the chosen head and its kind.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from math import gcd

import flint

from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.algebra.laurent import LPoly, product
from headfusion.bounds.intervals import interval_head

KINDS = ("product", "reduced", "uniform", "interval", "blocks", "search")  # how a head was found, in increasing cleverness
MAX_PARTITIONED = 6  # heads of one direction whose every partition is tried (Bell(6) = 203); beyond, coarse choices only
MAX_UNIFORM = 4096  # the longest uniform support tried (L terms)

Uni = "flint.fmpq_poly"


def _uni(coeffs: dict[int, Fraction]) -> Uni:
    """A univariate polynomial Σ c_k y^k (k ≥ 0) as flint.fmpq_poly."""
    top = max(coeffs) if coeffs else 0
    dense = [Fraction(0)] * (top + 1)
    for k, c in coeffs.items():
        dense[k] += c
    return flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in dense])


def _coeffs(p: Uni) -> dict[int, Fraction]:
    """Nonzero coefficients of a flint.fmpq_poly as {k: Fraction}."""
    out = {}
    for k, c in enumerate(p.coeffs()):
        if c != 0:
            out[k] = Fraction(int(c.p), int(c.q))
    return out


def _support(p: Uni) -> set[int]:
    return set(_coeffs(p))


def _positive(p: Uni) -> bool:
    return p != 0 and all(c > 0 for c in _coeffs(p).values())


def _is_head(n: Uni, d: Uni) -> bool:
    """(n, d) is a head: d's coefficients positive and supp n ⊆ supp d (L1)."""
    return _positive(d) and _support(n) <= _support(d)


def _line(poly: LPoly) -> tuple[tuple[int, ...], dict[int, int]] | None:
    """(δ, position k of each exponent base + kδ) when supp poly lies on one line (δ primitive, lexicographically
    positive, base the lexicographically least exponent, so every k ≥ 0)."""
    points = sorted({e[:-1] for e in poly.terms})
    if len(points) < 2:
        return None
    base = points[0]
    diffs = [tuple(a - b for a, b in zip(p, base)) for p in points[1:]]
    step = 0
    for v in diffs[0]:
        step = gcd(step, v)
    delta = tuple(v // step for v in diffs[0])
    positions = {}
    for p, d in zip(points[1:], diffs):
        j = next(i for i, v in enumerate(delta) if v)
        k = d[j] // delta[j]
        if tuple(k * v for v in delta) != d:
            return None
        positions[p] = k
    positions[base] = 0
    return delta, positions


def _member(num: LPoly, den: LPoly) -> tuple[tuple[int, ...], Uni, Uni] | None:
    """A head N/D on a line as (δ, n(y), d(y)) with y = x^δ, δ primitive and lexicographically positive, d(0) ≠ 0.

    The head is translated so that its lowest key is 0 (a common translation of all keys changes nothing).
    """
    line = _line(den)
    if line is None:
        return None
    delta, positions = line
    if not {e[:-1] for e in num.terms} <= set(positions):
        return None
    n = _uni({positions[e[:-1]]: c for e, c in num.terms.items()})
    d = _uni({positions[e[:-1]]: c for e, c in den.terms.items()})
    return delta, n, d


def uniform_head(P: Uni, Q: Uni, h: int, cap: int = MAX_UNIFORM) -> tuple[Uni, Uni] | None:
    """The uniform head of P/Q (lowest terms, Q(0) ≠ 0): D = Σ_{s<L} y^{hs}, Q(y) = R(y^h), R | z^L − 1, or None.

    h divides every exponent of P and Q (the gcd of the heads' keys along the line); L is the least with
    z^L ≡ 1 mod R (R squarefree with roots of unity, R(1) ≠ 0), at most `cap`.
    """
    exps = sorted(_support(Q))
    if not exps or exps[0] != 0 or len(exps) < 2 or any(k % h for k in exps):
        return None
    R = _uni({k // h: c for k, c in _coeffs(Q).items()})
    if R(1) == 0:
        return None
    z = flint.fmpq_poly([0, 1])
    power, L = flint.fmpq_poly([1]), 0
    while L < cap:
        power, L = (power * z) % R, L + 1
        if power == 1:
            break
    else:
        return None
    D = _uni({h * s: Fraction(1) for s in range(L)})
    g, rest = divmod(D, Q)
    if rest != 0:
        return None
    N = g * P
    return (N, D) if _is_head(N, D) else None


def _group_heads(members: list[tuple[Uni, Uni]], cap: int) -> list[tuple[str, Uni, Uni]]:
    """Heads of one part (members' sum in lowest terms): reduced and uniform, when they are heads."""
    P, Q = flint.fmpq_poly([0]), flint.fmpq_poly([1])
    h = 0
    for n, d in members:
        P, Q = P * d + n * Q, Q * d
        for k in _support(n) | _support(d):
            h = gcd(h, k)
    if P == 0:
        return [("reduced", P, flint.fmpq_poly([1]))]
    g = P.gcd(Q)
    P, Q = P // g, Q // g
    lead = _coeffs(Q)
    if all(c < 0 for c in lead.values()):
        P, Q = -P, -Q
    out = []
    if _is_head(P, Q):
        out.append(("reduced", P, Q))
    found = uniform_head(P, Q, h or 1, cap)
    if found is not None:
        out.append(("uniform", *found))
    return out


def _partitions(items: list[int]):
    """Every set partition of `items`, as lists of tuples (deterministic order)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in range(len(rest) + 1):
        for chosen in combinations(rest, size):
            left = [x for x in rest if x not in chosen]
            for tail in _partitions(left):
                yield [(first, *chosen)] + tail


def _terms(p: Uni) -> int:
    return len(_support(p))


def best_on_line(members: list[tuple[Uni, Uni]], cap: int = MAX_UNIFORM) -> tuple[str, Uni, Uni]:
    """The smallest product of part heads over partitions of the members (heads on one line): (kind, N, D)."""
    # L1 first: members with proportional denominators are one head (σ(q) + σ(q) = 2σ(q))
    merged: list[tuple[Uni, Uni]] = []
    repeated: set[int] = set()  # merged members: their head is the reduced head of several
    for n, d in members:
        for i, (n2, d2) in enumerate(merged):
            ratio, rest = divmod(d, d2)
            if rest == 0 and ratio.degree() == 0:
                merged[i] = (n2 * ratio + n, d)
                repeated.add(i)
                break
        else:
            merged.append((n, d))
    index = list(range(len(merged)))
    if len(merged) <= MAX_PARTITIONED:
        choices = list(_partitions(index))
    else:  # coarse: all in one part, or each alone
        choices = [[tuple(index)], [(i,) for i in index]]
    cache: dict[tuple, list] = {}
    best = None
    for partition in choices:
        parts = []
        for part in partition:
            if len(part) == 1:
                n, d = merged[part[0]]
                own = [("reduced" if part[0] in repeated else "product", n, d)] + [h for h in _group_heads([merged[part[0]]], cap) if h[0] == "reduced"]
                parts.append(min(own, key=lambda h: _terms(h[2])))
                continue
            if part not in cache:
                cache[part] = _group_heads([merged[i] for i in part], cap)
            if not cache[part]:
                break
            parts.append(min(cache[part], key=lambda h: _terms(h[2])))
        else:
            D = flint.fmpq_poly([1])
            for _, _, d in parts:
                D = D * d
            size = _terms(D)
            if best is None or size < best[0]:
                N = flint.fmpq_poly([0])
                for i, (_, n, _) in enumerate(parts):
                    others = flint.fmpq_poly([1])
                    for k, (_, _, d) in enumerate(parts):
                        if k != i:
                            others = others * d
                    N = N + n * others
                kinds = {k for k, _, _ in parts}
                if len(parts) == 1:
                    kind = parts[0][0]
                elif kinds == {"product"}:
                    kind = "product"
                else:
                    kind = "blocks"
                best = (size, kind, N, D)
    assert best is not None  # the all-singletons partition always succeeds
    return best[1], best[2], best[3]


def _embed(p: Uni, delta: tuple[int, ...], nvars: int) -> LPoly:
    return LPoly(nvars, {tuple(k * v for v in delta) + (0,): c for k, c in _coeffs(p).items()})


def block_construction(block: Block, scales: tuple[Fraction, ...], cap: int | None = None) -> tuple[str, LPoly, LPoly] | None:
    """(kind, N_B, D_B) of a head of the block smaller than its current one, or None (rational weights only)."""
    if any(e[-1] for b in block.denominators for e in b.terms):
        return None
    nvars = block.rank + 1
    lines: dict[tuple[int, ...], list[tuple[Uni, Uni]]] = {}
    fixed: list[tuple[LPoly, LPoly]] = []
    for num, den, a in zip(block.numerators, block.denominators, scales):
        member = _member(num * a, den)
        if member is None:
            fixed.append((num * a, den))
        else:
            lines.setdefault(member[0], []).append(member[1:])
    if not any(len(m) > 1 for m in lines.values()):
        return None
    current = block.head_size
    parts: list[tuple[str, LPoly, LPoly]] = [("product", n, d) for n, d in fixed]
    for delta, members in sorted(lines.items()):
        kind, n, d = best_on_line(members, min(cap or MAX_UNIFORM, current))
        parts.append((kind, _embed(n, delta, nvars), _embed(d, delta, nvars)))
    D = product((d for _, _, d in parts), nvars)
    if len(x_support(D)) >= current:
        return None
    N = LPoly(nvars)
    for i, (_, n, _) in enumerate(parts):
        N = N + n * product((d for k, (_, _, d) in enumerate(parts) if k != i), nvars)
    kinds = {k for k, _, _ in parts}
    kind = parts[0][0] if len(parts) == 1 else ("product" if kinds == {"product"} else "blocks")
    low = tuple(-v for v in D.min_exponent())
    return kind, N.shift(low), D.shift(low)


def block_kind(block: Block) -> str:
    """How the block's head was found."""
    if block.construction_kind is not None:
        return block.construction_kind
    return "reduced" if block.reduced_is_head else "product"


def form_kind(form: ExpForm) -> str:
    """The kind of F's head: the cleverest of its blocks' (a product over blocks of block heads, LP)."""
    kinds = [block_kind(b) for b in form.blocks] or ["reduced"]
    return max(kinds, key=KINDS.index)


def with_head(form: ExpForm, index: int, kind: str, N: LPoly, D: LPoly) -> ExpForm:
    """F's form with block `index` (and every copy of it) carrying the head (N, D) found as `kind`."""
    target = form.blocks[index]
    blocks = tuple(replace(b, construction=(N, D), construction_kind=kind) if b.Q is target.Q else b for b in form.blocks)
    return ExpForm(form.model, form.t_scale, form.base, blocks)


def closed_forms(form: ExpForm) -> ExpForm:
    """F's form with each block carrying its best closed-form head (product, reduced, uniform, blocks or interval)."""
    done: dict[int, tuple | None] = {}
    blocks = []
    for block in form.blocks:
        key = id(block.Q)  # copies of a block share their polynomials: one construction each
        if key not in done:
            scales = tuple(form.model.scales[h] for h in block.head_indices)
            done[key] = block_construction(block, scales)
            size = block.head_size if done[key] is None else len(x_support(done[key][2]))
            interval = interval_head(block, size)  # Lemma IH: only strictly smaller heads are returned
            if interval is not None:
                done[key] = ("interval", *interval)
        found = done[key]
        blocks.append(block if found is None else replace(block, construction=found[1:], construction_kind=found[0]))
    return ExpForm(form.model, form.t_scale, form.base, tuple(blocks))
