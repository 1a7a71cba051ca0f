"""Face limits (L6): F_c(q) = lim_{t→∞} F(q + t·c) and the recursion m*(F) ≥ m*(F_c) + m*(F_−c).

For a head, the limit along c keeps the atoms on the top face of its keys in
direction c (their weights are positive, so that face's denominator never vanishes);
for a multi-head F the limit keeps each head's top-face atoms.  If F is not
invariant along c, a minimal head for F has disjoint top and bottom faces in
direction c (otherwise all its keys lie in one hyperplane ⟂ c and it is invariant),
and its top face alone represents F_c, its bottom face F_−c.

Pure functions over exact data; the verifier re-runs `face_limit` and
`canonical_form` on every node of a stored tree.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.spec.model import Atom, Head, Key, MultiHead, sparse_key

Direction = tuple[tuple[int, Fraction], ...]  # sparse vector in q coordinates (0-based indices)


def _dot(key: Key, direction: Direction) -> Fraction:
    c = dict(direction)
    return sum((v * c[j] for j, v in key if j in c), Fraction(0))


def face_limit(model: MultiHead, direction: Direction) -> MultiHead:
    """F_c: every head keeps its atoms with maximal ⟨c, key⟩."""
    heads = []
    for head in model.heads:
        top = max(_dot(a.key, direction) for a in head.atoms)
        heads.append(Head(tuple(a for a in head.atoms if _dot(a.key, direction) == top), head.label))
    return MultiHead(model.dimension, tuple(heads), model.scales, model.constant)


def fold_constants(model: MultiHead) -> MultiHead:
    """F with every head of one key whose weights share one e^b folded into the constant (its weighted mean value):
    the face function as a reader writes it, 3 + σ(q2 − q3) rather than attn([q1 − q2], [1]) + … (same function)."""
    heads, scales, constant = [], [], model.constant
    for scale, head in zip(model.scales, model.heads):
        if len({a.key for a in head.atoms}) == 1 and len({a.weight.exponent for a in head.atoms}) == 1:
            total = sum((a.weight.coef for a in head.atoms), Fraction(0))
            constant += scale * sum((a.weight.coef * a.value for a in head.atoms), Fraction(0)) / total
        elif scale:
            heads.append(head)
            scales.append(scale)
    return MultiHead(model.dimension, tuple(heads), tuple(scales), constant)


def negate(direction: Direction) -> Direction:
    """−c."""
    return tuple((j, -v) for j, v in direction)


def axis(j: int) -> Direction:
    """The unit direction e_j (0-based)."""
    return ((j, Fraction(1)),)


def canonical_form(model: MultiHead) -> tuple:
    """A hashable normal form of F up to an additive constant (m* does not see constants).

    Drops zero-scale heads and heads with a single key (they are constants), translates
    each head so that its lexicographically least key is 0, merges equal keys (L1), sorts
    atoms and heads, and renames the variables in order of first use.
    """
    heads = []
    for scale, head in zip(model.scales, model.heads):
        if scale == 0 or len({a.key for a in head.atoms}) == 1:
            continue
        keys = [dict(a.key) for a in head.atoms]
        indices = sorted({j for k in keys for j in k})
        base = min(keys, key=lambda k: [k.get(j, Fraction(0)) for j in indices])  # as the kernel: the least key
        base = {j: base.get(j, Fraction(0)) for j in indices}
        atoms = []
        for a, k in zip(head.atoms, keys):
            rel = sparse_key({j: k.get(j, Fraction(0)) - base[j] for j in indices})
            atoms.append((rel, a.weight.coef, a.weight.exponent, a.value))
        heads.append((scale, tuple(sorted(atoms))))
    # rename variables by order of first appearance after a first sort, then sort again
    heads.sort()
    order: dict[int, int] = {}
    for _, atoms in heads:
        for key, *_ in atoms:
            for j, _v in key:
                order.setdefault(j, len(order))
    renamed = []
    for scale, atoms in heads:
        renamed.append(
            (scale, tuple(sorted((tuple(sorted((order[j], v) for j, v in key)), c, e, val) for key, c, e, val in atoms)))
        )
    return tuple(sorted(renamed))


def model_from_canonical(form: tuple) -> MultiHead:
    """A MultiHead realising a canonical form (constant 0)."""
    from headfusion.spec.numbers import Weight

    dimension = 1 + max((j for _, atoms in form for key, *_ in atoms for j, _v in key), default=0)
    heads = tuple(
        Head(tuple(Atom(key, Weight(c, e), val) for key, c, e, val in atoms)) for _, atoms in form
    )
    return MultiHead(dimension, heads, tuple(scale for scale, _ in form), Fraction(0))


def used_variables(model: MultiHead) -> list[int]:
    """Variables on which some non-constant head depends (0-based, sorted)."""
    used = set()
    for scale, head in zip(model.scales, model.heads):
        keys = {a.key for a in head.atoms}
        if scale != 0 and len(keys) > 1:
            dense = [dict(k) for k in keys]
            for j in {j for k in dense for j in k}:
                if len({k.get(j, Fraction(0)) for k in dense}) > 1:
                    used.add(j)
    return sorted(used)
