"""One line with biases (DESIGN §11): the translation normal form, Theorem Pβ (one function, or the family) and Lemma P4.

claim              lemma  recomputed here
lower:pair-biased  PB     one block, of rank 1, whose normal form (below; recomputed, equal to the evidence's copy) has
                          two terms, ε_1, ε_2 ∈ {+1, −1}: m*(F) ≥ 4 if a_1 ≠ a_2, else 3 (then w_1 ≠ w_2: equal (a, w) merged).
lower:two-scales   P4     the normal form has ≥ 2 distinct scales, every 1 + w_i·x^(a_i) divides Q′_B (exact division) and
                          Σ_{a_i = min a} ε_i·w_i ≠ 0 (in Q[t^±]): m*(F) ≥ 4.
lower:every-bias   PF     only in the family certificate of ±σ(a·q1 + β1) ± σ(b·q1 + β2) (`--every a,b`; the spec layer read
                          its template): the model is the lift G = ε_1σ(u_1) + ε_2σ(u_2), ε_i = ±1: m* ≥ 4 for all a ≠ b, β1, β2.
Normal form: in the block's coordinate x a head with two keys has D_h ∝ 1 + w·x^a (a > 0, w = rational·t^s, t = e^(1/L)),
so a_h·N_h/D_h is a constant plus ε·σ(a·q + log w), ε = a_h·(v_hi − v_lo); equal (a, w) merge, zero ε are dropped, one-key
heads are constants, three keys have no normal form.  Proofs: docs/mathematics.md and the lemmas' text.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.kernel import statements as say
from headfusion.kernel.base import rational_json, require
from headfusion.kernel.model import Model, head_polys
from headfusion.kernel.poly import lattice_coordinates
from headfusion.kernel.twoadic import binomial_divides


def normal_form(model: Model, ev: dict, facts: dict) -> list[tuple[int, Fraction, int, Fraction]]:
    """The terms (a, c, s, ε) of F = const + Σ ε·σ(a·q + log(c·t^s)), merged, sorted; equal to the evidence's (readers') copy."""
    exp = facts["exp-form"]
    require(len(exp["blocks"]) == 1 and exp["shapes"][0][2] == 1, "the normal form needs F with one block, of rank 1")
    den, rows = exp["shapes"][0][:2]
    local = {j: i for i, j in enumerate(exp["variables"][0])}
    terms: dict[tuple[int, Fraction, int], Fraction] = {}
    for weight, atoms in model.heads:
        N, D = head_polys(atoms, lambda rel: lattice_coordinates({local[j]: v for j, v in rel.items()}, den, rows), exp["scale"])
        require(len(D) <= 2, "the normal form needs every head to have at most two keys")
        if len(D) == 2:
            (lo, c_lo), (hi, c_hi) = sorted(D.items())
            key = (hi[0] - lo[0], c_hi / c_lo, hi[1] - lo[1])
            terms[key] = terms.get(key, Fraction(0)) + weight * (N.get(hi, 0) / c_hi - N.get(lo, 0) / c_lo)
    found = [(a, c, s, e) for (a, c, s), e in sorted(terms.items()) if e]
    require(ev["terms"] == [[a, rational_json(c), s, rational_json(e)] for a, c, s, e in found], "the normal form differs from the function's")
    return found


def check_pair_biased(model: Model, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Theorem Pβ: two terms after merging, signs ±1: m* ≥ 4 (a ≠ b) or 3 (a = b, distinct weights)."""
    terms = normal_form(model, ev, facts)
    require(len(terms) == 2, f"Theorem Pβ needs exactly two terms after merging, not {len(terms)}")
    require(all(abs(e) == 1 for *_, e in terms), "Theorem Pβ needs the signs ε = +1 or −1 exactly")
    (a, *_), (b, *_) = terms
    return {"lower": 4 if a != b else 3}, ["exp-form", "lemma:PB"], say.pair_biased(a, b)


def check_two_scales(model: Model, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Lemma P4: at least two distinct scales, every factor in Q′_B, a nonzero residue sum at the least scale: m* ≥ 4."""
    terms = normal_form(model, ev, facts)
    require(len({a for a, *_ in terms}) >= 2, "Lemma P4 needs at least two distinct scales")
    for a, c, s, _ in terms:  # each division within the kernel's work limit
        binomial_divides(facts["exp-form"]["shapes"][0][4], [a, rational_json(c), s])
    residue = {s: sum((e * c for a, c, u, e in terms if a == terms[0][0] and u == s), Fraction(0)) for _, _, s, _ in terms}
    require(any(residue.values()), f"the residue sum Σ ε_i·w_i over the least scale {terms[0][0]} is 0")
    return {"lower": 4}, ["coprime", "exp-form", "lemma:P4"], say.two_scales(sorted({a for a, *_ in terms}), terms[0][0])


def check_pairs_every_bias(model: Model, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Theorem Pβ for the family: the model is the lift G = ε_1σ(u_1) + ε_2σ(u_2) with ε_i = ±1, read here from its heads."""
    every = facts.get("every")
    require(isinstance(every, list) and len(every) == 4 and ev == {}, "Theorem Pβ for every bias is the lower bound of its family certificate only")
    require(all(isinstance(n, str) and n.isascii() and n.isalnum() for n in every) and len(set(every)) == 4, "four distinct parameter names")
    require(model.dimension == 2 and model.constant == 0 and len(model.heads) == 2, "the lift must be G(u_1, u_2) = ±σ(u_1) ± σ(u_2)")
    signs = []
    for j, (scale, atoms) in enumerate(model.heads):
        lo, hi = sorted(atoms, key=lambda atom: atom.key) if len(atoms) == 2 else (atoms[0], atoms[0])
        require(lo.key == () and hi.key == ((j, 1),) and (lo.coef, lo.bias, lo.value) == (hi.coef, hi.bias, 0), f"head {j + 1} of the lift is not ±σ(u_{j + 1})")
        signs.append(scale * (hi.value - lo.value))
    require(all(abs(e) == 1 for e in signs), "Theorem Pβ needs the signs ε = +1 or −1 exactly")
    return {"pairs": 4, "signs": signs}, ["def:F", "lemma:PF"], say.pairs_every_bias(every, signs)
