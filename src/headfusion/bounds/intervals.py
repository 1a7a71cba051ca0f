"""Interval heads (Lemma IH, an upper bound): a multiple D = g·Q′ with no gap is a head.

Lemma IH (proofs-one-line §3.3).  In one variable y, if Q′ | D and D has positive coefficients at every
exponent of [0, n], n = deg D, then (N, D) with N = (P′/Q′)·D = g·P′ is a head with n + 1 atoms: N is a
polynomial (Q′ | D) of degree ≤ n (deg P′ ≤ deg Q′), so supp N ⊆ [0, n] = supp D.

An interval head has at least deg Q′ + 1 atoms, so it can beat a head of h atoms only when deg Q′ + 1 < h
(for a sum of sigmoids: when two factors 1 + r_i y^{a_i} share a root, so that deg Q′ < Σ a_i).  The least
one is found degree by degree: for k = 0, 1, 2, … the feasibility LP "(g·Q′)_e ≥ 1 for e = 0, …, deg Q′ + k"
in the k + 1 coefficients of g (HiGHS, floats that only find g), then g rounded to rationals and the
product g·Q′ checked exactly (every coefficient on [0, deg D] positive, and supp g·P′ ⊆ [0, deg D]).
The first k with an exact g gives the least deg D the LP finds (Pólya: one exists for k large, Q′ > 0 on
[0, ∞)).  Only blocks of one variable with rational weights are tried.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.algebra.expform import Block
from headfusion.algebra.laurent import LPoly

MAX_COFACTOR_DEGREE = 64  # the largest deg g tried (each degree is one LP with deg Q′ + k + 1 rows)
DENOMINATORS = (1, 2, 3, 4, 6, 12, 60, 840, 10**4, 10**6, 10**9)  # rational roundings tried for the float g


def _dense(p: LPoly) -> list[Fraction] | None:
    """The coefficients c_0..c_n of a one-variable polynomial without t (lowest exponent 0), or None."""
    if not p or any(e[-1] for e in p.terms) or p.nvars != 2:
        return None
    low = min(e[0] for e in p.terms)
    top = max(e[0] for e in p.terms) - low
    out = [Fraction(0)] * (top + 1)
    for e, c in p.terms.items():
        out[e[0] - low] = c
    return out


def _times(g: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    """The coefficients of g·q (schoolbook: both are short)."""
    out = [Fraction(0)] * (len(g) + len(q) - 1)
    for i, a in enumerate(g):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


def _float_cofactor(q: list[Fraction], k: int) -> list[float] | None:
    """A float g of degree ≤ k with (g·q)_e ≥ 1 for every e in [0, deg q + k], or None (HiGHS, one thread)."""
    import highspy
    import numpy as np

    from headfusion.bounds.highs import quiet_highs

    rows = len(q) + k
    h = quiet_highs()
    highspy.Highs.resetGlobalScheduler(True)  # one thread, as the construction search (no worker threads left for a fork)
    for key, value in (("threads", 1), ("output_flag", False), ("time_limit", 10.0)):
        h.setOptionValue(key, value)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = k + 1, rows
    lp.col_cost_ = np.zeros(k + 1)
    lp.col_lower_ = np.full(k + 1, -highspy.kHighsInf)
    lp.col_upper_ = np.full(k + 1, highspy.kHighsInf)
    lp.row_lower_ = np.ones(rows)
    lp.row_upper_ = np.full(rows, highspy.kHighsInf)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    starts, index, value = [0], [], []
    for e in range(rows):  # (g·q)_e = Σ_j g_j q_{e−j}
        for j in range(max(0, e - len(q) + 1), min(k, e) + 1):
            if q[e - j]:
                index.append(j)
                value.append(float(q[e - j]))  # the LP only finds g: it is rounded to Fractions and checked exactly below
        starts.append(len(index))
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value)
    h.passModel(lp)
    h.run()
    highspy.Highs.resetGlobalScheduler(True)
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return list(h.getSolution().col_value)


def interval_cofactor(P: list[Fraction], Q: list[Fraction], below: int) -> list[Fraction] | None:
    """The exact g of the least interval head D = g·Q found with fewer than `below` atoms, or None (Lemma IH).

    P, Q: dense coefficients of P′, Q′ in one variable.  Exact: every coefficient of g·Q on [0, deg D] is
    positive and deg g·P ≤ deg D, so (g·P, g·Q) is a head with deg D + 1 atoms.
    """
    for k in range(min(MAX_COFACTOR_DEGREE, below - len(Q) - 1) + 1):  # deg D + 1 = len(Q) + k atoms
        found = _float_cofactor(Q, k)
        if found is None:
            continue
        for den in DENOMINATORS:
            g = [Fraction(v).limit_denominator(den) for v in found]
            if g[-1] and all(c > 0 for c in _times(g, Q)):
                return g
    return None


def interval_head(block: Block, below: int) -> tuple[LPoly, LPoly] | None:
    """(N_B, D_B) = (g·P′_B, g·Q′_B), an interval head of a one-variable block with fewer than `below` atoms, or None."""
    if block.rank != 1:
        return None
    P, Q = _dense(block.P_reduced) if block.P_reduced else [Fraction(0)], _dense(block.Q_reduced)
    if P is None or Q is None or len(Q) + 1 > below:  # at least deg Q′ + 1 atoms: it cannot beat `below` − 1
        return None
    shift = min(e[0] for e in block.Q_reduced.terms)
    if block.P_reduced and min(e[0] for e in block.P_reduced.terms) < shift:
        return None
    lowP = min(e[0] for e in block.P_reduced.terms) - shift if block.P_reduced else 0
    P = [Fraction(0)] * lowP + P  # P′ in the coordinates of Q′ (lowest exponent of Q′ at 0)
    if len(P) > len(Q):  # deg P′ > deg Q′: N = g·P′ would leave [0, deg D]
        return None
    g = interval_cofactor(P, Q, below)
    if g is None:
        return None
    D = _times(g, Q)
    N = _times(g, P)
    return (LPoly(2, {(e, 0): c for e, c in enumerate(N) if c}), LPoly(2, {(e, 0): c for e, c in enumerate(D) if c}))
