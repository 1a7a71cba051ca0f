"""Witnesses that follow a rule a reader checks: the witness of an order, and of an order with one tie.

A witness ω in lattice coordinates 1..r is *the witness of the order π* when ω_ℓ = π(ℓ) − π(r+1)
for a permutation π of {1, …, r+1}: the entries ω_1, …, ω_r, 0 are distinct consecutive integers,
and π lists their ranks.  An edge's witness has the same form with exactly one tie (two
coordinates share a rank); breaking the tie either way gives two orders that differ by an
adjacent transposition.  These functions test the form on the certificate's data (display
arithmetic: the kernel checks every witness against all of supp Q′_B itself), so that a caption
states the rule only when every row follows it.
"""

from __future__ import annotations

from typing import Sequence

MAX_RULE_CHECKS = 2_000_000  # edges × support points compared when testing the edge rule for a caption


def is_order_witness(witness: Sequence[int]) -> bool:
    """ω_1, …, ω_r, 0 are r + 1 distinct consecutive integers: ω_ℓ = π(ℓ) − π(r+1) for a permutation π."""
    values = sorted([int(x) for x in witness] + [0])
    return values == list(range(values[0], values[0] + len(values)))


def tie_breaks(witness: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """For ω_1, …, ω_r, 0 with exactly one value taken twice (the rest consecutive): the two order witnesses that break the tie."""
    values = [int(x) for x in witness] + [0]
    distinct = sorted(set(values))
    if len(distinct) != len(values) - 1 or distinct != list(range(distinct[0], distinct[0] + len(distinct))):
        return None
    tied = next(v for v in distinct if values.count(v) == 2)
    i, j = [k for k, v in enumerate(values) if v == tied]
    out = []
    for high in (j, i):
        broken = [v + (v > tied) + (k == high) for k, v in enumerate(values)]
        out.append(tuple(v - broken[-1] for v in broken[:-1]))
    return out[0], out[1]


def singles_out(witness: Sequence[int], point: Sequence[int], support: Sequence[Sequence[int]]) -> bool:
    """⟨ω, p⟩ > ⟨ω, p′⟩ for every other point p′ of the support."""
    top = sum(int(a) * int(b) for a, b in zip(witness, point))
    return all(sum(int(a) * int(b) for a, b in zip(witness, q)) < top for q in support if tuple(int(x) for x in q) != tuple(int(x) for x in point))


def edge_follows_rule(p0: Sequence[int], p1: Sequence[int], witness: Sequence[int], support: Sequence[Sequence[int]]) -> bool:
    """The edge's witness is an order with one tie, and breaking the tie gives witnesses of its two ends."""
    broken = tie_breaks(witness)
    if broken is None:
        return False
    a, b = broken
    return (singles_out(a, p0, support) and singles_out(b, p1, support)) or (singles_out(b, p0, support) and singles_out(a, p1, support))

