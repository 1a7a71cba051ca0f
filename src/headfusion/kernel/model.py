"""The explicit model as the kernel reads it: heads with exact keys, weights r·e^b and values.

Also the model-level facts the kernel re-derives itself: the polynomials of a group of
heads, face limits F_c (LD), restrictions to a line F(t·u) (R), a canonical form up to renaming variables and adding a
constant (both leave m* unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Callable

from headfusion.kernel.base import integer, rational, rational_json, require, within
from headfusion.kernel.poly import Poly, add, mul

Key = tuple[tuple[int, Fraction], ...]  # sparse, 0-based, nonzero coordinates, sorted


@dataclass(frozen=True)
class Atom:
    key: Key
    coef: Fraction  # weight = coef·e^bias
    bias: Fraction
    value: Fraction


@dataclass(frozen=True)
class Model:
    dimension: int
    constant: Fraction
    heads: tuple[tuple[Fraction, tuple[Atom, ...]], ...]  # (scale a_h, atoms)


def weight_from_json(value: object) -> tuple[Fraction, Fraction]:
    """(coef, bias) from a rational, "exp(b)" or "r*exp(b)"."""
    if isinstance(value, str) and value.endswith(")") and "exp(" in value:
        head, _, bias = value[:-1].partition("exp(")
        coef = rational(head[:-1]) if head.endswith("*") else Fraction(1)
        require(head in ("", f"{head[:-1]}*"), f"malformed weight {value[:40]!r}")
        return coef, rational(bias)
    return rational(value), Fraction(0)


def _atom(key: object, coef: Fraction, bias: Fraction, value: object) -> Atom:
    require(isinstance(key, list) and coef > 0, "malformed atom (key list, positive weight)")
    pairs = tuple(sorted((integer(j) - 1, rational(v)) for j, v in key))  # type: ignore[union-attr]
    require(all(j >= 0 and v for j, v in pairs) and len({j for j, _ in pairs}) == len(pairs), "malformed key")
    return Atom(pairs, coef, bias, rational(value))


def model_from_json(data: dict) -> Model:
    """The model of a certificate (CheckFailed on anything malformed)."""
    dimension, heads = integer(data["dimension"]), []
    for head in data["heads"]:
        require(isinstance(head["atoms"], list) and head["atoms"], "a head needs atoms")
        heads.append((rational(head["scale"]), tuple(_atom(a["key"], *weight_from_json(a["weight"]), a["value"]) for a in head["atoms"])))
    require(dimension >= 1 and all(j < dimension for _, atoms in heads for a in atoms for j, _ in a.key), "keys outside the dimension")
    return Model(dimension, rational(data["constant"]), tuple(heads))


def relative_keys(atoms: tuple[Atom, ...]) -> list[dict[int, Fraction]]:
    """Each key minus the head's lexicographically least key (N_h/D_h is unchanged by a translation).

    The anchor is a key of the head, so the translated keys are differences of keys: they
    lie in the lattice spanned by S − S (Lemma L2), never in a larger one.
    """
    keys = [dict(a.key) for a in atoms]
    used = sorted({j for k in keys for j in k})
    anchor = min(keys, key=lambda k: [k.get(j, 0) for j in used])
    return [{j: k.get(j, 0) - anchor.get(j, 0) for j in used if k.get(j, 0) != anchor.get(j, 0)} for k in keys]


def t_scale(model: Model) -> int:
    """L: the lcm of the bias denominators (t = e^(1/L))."""
    return lcm(1, *(a.bias.denominator for _, atoms in model.heads for a in atoms))


def head_polys(atoms: tuple[Atom, ...], exponent: Callable[[dict[int, Fraction]], tuple[int, ...]], scale: int) -> tuple[Poly, Poly]:
    """(N_h, D_h) with x-exponents exponent(relative key) and t-exponent bias·L (L1: equal keys add)."""
    num: Poly = {}
    den: Poly = {}
    for a, rel in zip(atoms, relative_keys(atoms)):
        require((a.bias * scale).denominator == 1, "the t scale does not clear a bias denominator")
        e = exponent(rel) + (int(a.bias * scale),)
        den[e], num[e] = den.get(e, 0) + a.coef, num.get(e, 0) + a.coef * a.value
    return {e: c for e, c in num.items() if c}, den


def group_polys(model: Model, heads: list[int], exponent: Callable, nvars: int, scale: int) -> tuple[Poly, Poly]:
    """(P, Q) = (Σ_h a_h N_h Π_{g≠h} D_g, Π_h D_h) for a group of heads (no constant).

    Π_{g≠h} D_g is a prefix product times a suffix product, so the work is quadratic in the
    number of heads, not cubic.
    """
    within(len(heads), 1000, "heads in one block")
    pairs = [head_polys(model.heads[h][1], exponent, scale) for h in heads]
    one: Poly = {(0,) * nvars: Fraction(1)}
    prefix, suffix = [one], [one]
    for _, d in pairs:
        prefix.append(mul(prefix[-1], d))
    for _, d in reversed(pairs):
        suffix.append(mul(suffix[-1], d))
    P: Poly = {}
    for i, h in enumerate(heads):
        P = add(P, mul(pairs[i][0], mul(prefix[i], suffix[len(heads) - 1 - i])), model.heads[h][0])
    return P, prefix[-1]


def face_limit(model: Model, c: dict[int, Fraction]) -> Model:
    """F_c = lim_{s→∞} F(q + s·c): each head keeps its atoms of maximal ⟨k, c⟩ (weights > 0)."""
    heads = []
    for scale, atoms in model.heads:
        levels = [sum((v * c.get(j, 0) for j, v in a.key), Fraction(0)) for a in atoms]
        heads.append((scale, tuple(a for a, level in zip(atoms, levels) if level == max(levels))))
    return Model(model.dimension, model.constant, tuple(heads))


def restrict(model: Model, u: dict[int, Fraction]) -> Model:
    """f_u(t) = F(t·u) (Lemma R): every atom keeps its weight and value; its key becomes ⟨k, u⟩ on the one variable t."""
    heads = []
    for scale, atoms in model.heads:
        levels = [sum((v * u.get(j, 0) for j, v in a.key), Fraction(0)) for a in atoms]
        heads.append((scale, tuple(Atom(((0, x),) if x else (), a.coef, a.bias, a.value) for a, x in zip(atoms, levels))))
    return Model(1, model.constant, tuple(heads))


def canonical(model: Model) -> list:
    """F up to an additive constant and a renaming of variables, as JSON.

    Heads with scale 0 or a single key are constants and dropped; each head is translated
    to base 0 (N_h/D_h unchanged); atoms and heads are sorted; variables are renamed in
    order of first use after a first sort.
    """
    heads = []
    for scale, atoms in model.heads:
        if scale == 0 or len({a.key for a in atoms}) == 1:
            continue
        rows = sorted((tuple(sorted(rel.items())), a.coef, a.bias, a.value) for a, rel in zip(atoms, relative_keys(atoms)))
        heads.append((scale, tuple(rows)))
    heads.sort()
    order: dict[int, int] = {}
    for _, rows in heads:
        for key, *_ in rows:
            for j, _v in key:
                order.setdefault(j, len(order))
    renamed = sorted((scale, tuple(sorted((tuple(sorted((order[j], v) for j, v in key)), c, b, val) for key, c, b, val in rows)))
                     for scale, rows in heads)
    return [[rational_json(scale), [[[[j + 1, rational_json(v)] for j, v in key], rational_json(c), rational_json(b), rational_json(val)]
                                    for key, c, b, val in rows]] for scale, rows in renamed]


def model_from_canonical(form: list) -> Model:
    """A model realising a canonical form (constant 0)."""
    heads = [(rational(scale), tuple(_atom(key, rational(c), rational(b), v) for key, c, b, v in rows)) for scale, rows in form]
    require(all(atoms for _, atoms in heads), "a head needs atoms")
    return Model(1 + max((j for _, atoms in heads for a in atoms for j, _ in a.key), default=0), Fraction(0), tuple(heads))
