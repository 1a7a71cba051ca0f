"""Producers for one line with biases (DESIGN §11): the translation normal form, Theorem Pβ and Lemma P4.

For F with one block of rank 1 every head with two keys is, in the block's coordinate x = e^q (a lattice generator),
a constant plus ε·σ(a·q + log w) with D_h ∝ 1 + w·x^a, w = c·t^s (t = e^(1/L)); a head with one key is a constant.
Terms with equal (a, w) merge and zero ε are dropped: F = c + Σ_i ε_i·σ(a_i q + log w_i).  The translation
q ↦ q − log(w_1)/a_1 would make one bias 0 and multiplies every weight of a head by a positive number, so it keeps m*;
the lemmas are stated for all weights w > 0 and need no translation, only exact comparisons of the (a, w).

- Theorem Pβ: exactly two terms, ε ∈ {+1, −1}: m* ≥ 4 if the scales differ, 3 if they are equal (the weights then
  differ, as equal (a, w) merged); with the product head (1 + w_1x^a)(1 + w_2x^b) it decides m*.
- Lemma P4: at least two distinct scales, every 1 + w_i·x^(a_i) divides Q′_B and Σ_{a_i = min a} ε_i·w_i ≠ 0: m* ≥ 4.

`kernel.oneline` recomputes the normal form from the model and re-checks each hypothesis; the evidence's copy of the
normal form is for readers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from headfusion.algebra.expform import ExpForm
from headfusion.algebra.laurent import LPoly, exact_divide
from headfusion.kernel.base import MAX_POINTS
from headfusion.spec.numbers import rational_to_json

Term = tuple[int, Fraction, int, Fraction]  # (a, c, s, ε): ε·σ(a·q + log(c·t^s))


@dataclass(frozen=True)
class OneLineBound:
    """m*(F) ≥ bound by Theorem Pβ (lemma "PB") or Lemma P4 ("P4"), with F's normal form."""

    lemma: str
    bound: int
    terms: tuple[Term, ...]

    def evidence(self) -> dict:
        """The claim's evidence as the kernel reads it (the normal form, which the kernel recomputes)."""
        return {"terms": [[a, rational_to_json(c), s, rational_to_json(e)] for a, c, s, e in self.terms]}


def normal_form(form: ExpForm) -> tuple[Term, ...] | None:
    """F = c + Σ ε_i σ(a_i q + log(c_i t^(s_i))) in the block's coordinate, or None (not one block of rank 1, or a head
    with three or more keys)."""
    if len(form.blocks) != 1 or form.blocks[0].rank != 1:
        return None
    block, merged = form.blocks[0], {}
    for h, N, D in zip(block.head_indices, block.numerators, block.denominators):
        if len(D.terms) > 2:
            return None
        if len(D.terms) == 2:
            (low, d_low), (high, d_high) = sorted(D.terms.items())
            jump = N.terms.get(high, Fraction(0)) / d_high - N.terms.get(low, Fraction(0)) / d_low  # v_hi − v_lo
            key = (high[0] - low[0], d_high / d_low, high[1] - low[1])
            merged[key] = merged.get(key, Fraction(0)) + form.model.scales[h] * jump
    return tuple((a, c, s, e) for (a, c, s), e in sorted(merged.items()) if e)


def one_line_bound(form: ExpForm) -> OneLineBound | None:
    """Theorem Pβ when F has two terms with signs ±1, else Lemma P4 when its hypotheses hold, else None."""
    terms = normal_form(form)
    if terms is None:
        return None
    if len(terms) == 2 and all(abs(e) == 1 for *_, e in terms):
        return OneLineBound("PB", 4 if terms[0][0] != terms[1][0] else 3, terms)
    if len({a for a, *_ in terms}) < 2:
        return None
    Q = form.blocks[0].Q_reduced
    span = max(e[0] for e in Q.terms) - min(e[0] for e in Q.terms)
    for a, c, s, _ in terms:
        if (span // a + 1) * len(Q.terms) > MAX_POINTS or exact_divide(Q, LPoly(2, {(0, 0): Fraction(1), (a, s): c})) is None:
            return None  # a factor that does not survive in Q′ (mixed signs): Lemma P4 does not apply
    least = terms[0][0]
    residues = {s: sum((e * c for a, c, u, e in terms if a == least and u == s), Fraction(0)) for _, _, s, _ in terms}
    return OneLineBound("P4", 4, terms) if any(residues.values()) else None
