"""Template context for Lemma LU (claim `lower:unit-roots`) and Theorem P (claim `lower:pairs`).

One paragraph a reader checks by hand: the cyclotomic factors of Q′_B with their polynomials, the
orders 𝒟 and L, the values 𝒟/g for g = 1..L when L is small (else where {2} occurs), and, when the
numerator argument is used, G = (1 + x^(L/2))·P′_B/Q′_B with the term off (L/2)Z.  The arithmetic
here is display only (the kernel's own polynomial routines); the kernel is what checks.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm
from typing import Any

from headfusion.kernel.cyclotomic import cyclotomic
from headfusion.kernel.poly import divide, mul, poly_from_json, product, x_groups
from headfusion.render.tex import tex_poly, tex_tt

MAX_G_LISTED = 24  # L up to this: every g with its 𝒟/g is printed
NAMES = ["x_{1}"]


def _poly_tex(p: dict, t_scale: int) -> str:
    return tex_poly([[list(e), c] for e, c in sorted(p.items())], t_scale, NAMES)


def _set_tex(values: set[int]) -> str:
    return r"\{" + ",".join(map(str, sorted(values))) + r"\}"


def unit_roots_context(claims: dict[str, dict]) -> dict[str, Any] | None:
    """What the Unit-roots subsection prints, or None without a `lower:unit-roots` claim."""
    claim, exp = claims.get("lower:unit-roots"), claims.get("exp-form")
    if claim is None or exp is None:
        return None
    orders = [int(d) for d in claim["evidence"]["orders"]]
    t_scale = int(exp["evidence"].get("t_scale", 1))
    shape = exp["evidence"]["shapes"][0]
    P, Q = poly_from_json(shape["P"], 2), poly_from_json(shape["Q"], 2)
    phis = [cyclotomic(d) for d in orders]
    unit = divide(Q, product(phis, 2)) or {}
    L = lcm(*orders)
    quotients = [(g, {d // gcd(d, g) for d in orders}) for g in range(1, L + 1)]
    halving = next((g for g, values in quotients if values == {2}), None)
    out: dict[str, Any] = {
        "factors": [{"d": d, "poly": _poly_tex(p, t_scale)} for d, p in zip(orders, phis)],
        "unit": _poly_tex(unit, t_scale) if unit else "1",
        "Q": _poly_tex(Q, t_scale),
        "orders": ",".join(map(str, orders)),
        "lcm": L,
        "table": [{"g": g, "quotient": _set_tex(v)} for g, v in quotients] if L <= MAX_G_LISTED else None,
        "singletons": [{"g": g, "quotient": _set_tex(v)} for g, v in quotients if len(v) == 1][:MAX_G_LISTED],
        "halving": halving,
        "half": L // 2,
        "G": None,
        "term": None,
        "term_tex": None,
    }
    if halving is not None:
        R = divide({(L // 2, 0): Fraction(1), (0, 0): Fraction(1)}, Q) or {}
        G = mul(R, P)
        off = sorted(e for (e,) in x_groups(G) if e % (L // 2))
        out["G"], out["term"] = _poly_tex(G, t_scale), off[0] if off else None
        out["term_tex"] = _poly_tex({(out["term"], 0): Fraction(1)}, t_scale) if off else None
    return out


def unit_roots_sentence(claims: dict[str, dict]) -> str | None:
    """The paragraph of the proof in brief for Lemma LU (None without its claim)."""
    ctx = unit_roots_context(claims)
    if ctx is None:
        return None
    factors = "".join(rf"\Phi_{{{f['d']}}}" for f in ctx["factors"])
    text = (rf"In one variable there is a sharper reason: $Q'$ is a unit times ${factors}$, so every head's $D=gQ'$ vanishes at the"
            rf" primitive $d$-th roots of unity, $d\in\{{{ctx['orders']}\}}$; a positive $D$ with at most three terms has at most two roots"
            r" on the unit circle, and the finite check of Lemma~\ref{lem:LU} (Section~\ref{sec:unitroots}) shows that no power"
            r" $x\mapsto x^g$ maps all these roots into so few")
    if ctx["halving"] is not None:
        text += (rf" except onto $-1$, which the numerator excludes ($G=(1+x_{{1}}^{{{ctx['half']}}})P'/Q'$ has the term"
                 rf" ${ctx['term_tex']}$, off ${ctx['half']}\mathbb{{Z}}$)")
    return text + r". Hence every head for $F$ has at least $4$ atoms."


def pair_family_parts(spec: dict, block: str | None) -> dict[str, Any]:
    """Title and family sentences of the certificate for σ(a·q1) + σ(b·q1), all a ≠ b (its model is the lift F)."""
    if len(spec["every"]) == 4:  # with two bias names: Theorem Pβ for the whole family
        from headfusion.render.pairbias import biased_pair_family_parts

        return biased_pair_family_parts(spec, block)
    a, b = (str(n) for n in spec["every"])
    member = rf"F_{{{a},{b}}}(q)=\sigma({a}q_1)+\sigma({b}q_1)"
    return {
        "every_d": True,  # a family certificate: the theorem is stated for its members, not for F alone
        "pair_family": True,
        "title": rf"$\sigma({a}q_1)+\sigma({b}q_1)$, for all positive integers ${a}\ne {b}$",
        "spec_math": ("F(q)=" + block) if block else None,
        "family_intro": rf"The members of the family of Section~\ref{{sec:function}} are ${member}=F({a}q_1,{b}q_1)$.",
        "every_d_family": (rf"$F$ is the two-variable function of which every member ${member}$ of the family written"
                           rf" {tex_tt(spec.get('text', ''))} is a restriction: $F_{{{a},{b}}}(q)=F({a}q_1,{b}q_1)$. The verifier"
                           rf" reads this from the syntax of the template, with ${a}$ and ${b}$ as symbols (each member is two"
                           r" sigmoid heads with the scales as keys); Lemma~\ref{lem:TP} proves the bound for every pair."),
        "family_corollary": None,
        "spec_description": r"The function $F$ of this certificate is the lift of a family (below); as a sum of heads it is",
    }


def pair_family_sentence(cert: dict) -> str | None:
    """The paragraph of the proof in brief for the family of Theorem P (None for any other certificate)."""
    names = cert.get("spec", {}).get("every")
    if not names:
        return None
    if len(names) == 4:  # with two bias names: Theorem Pβ for the whole family
        from headfusion.render.pairbias import biased_pair_family_sentence

        return biased_pair_family_sentence(cert)
    a, b = (str(n) for n in names)
    return (rf"For the family: every member $F_{{{a},{b}}}(q)=\sigma({a}q_1)+\sigma({b}q_1)$ is $F({a}q_1,{b}q_1)$, so the head of $F$ restricted to the line"
            rf" gives a head of $F_{{{a},{b}}}$ with at most as many atoms (Lemma~\ref{{lem:TP}}): $m^*(F_{{{a},{b}}})\le4$. Conversely, by"
            rf" Lemma~\ref{{lem:TP}}, whose proof applies the unit-root Lemma~\ref{{lem:LU}} to every coprime pair, no head with at most"
            rf" $3$ atoms represents $F_{{{a},{b}}}$ when ${a}\ne {b}$. (The lower bound $4$ for $F$ itself, Section~\ref{{sec:lower}}, does"
            r" not carry over to restrictions; the theorem does not use it.)"
            r" \emph{What the verifier checks, and what rests on the printed proof.} The verifier checks that the spec's template has"
            rf" the shape $\sigma({a}q_1)+\sigma({b}q_1)$ with ${a}$ and ${b}$ as symbols (read by the spec parser), that the model of this"
            r" certificate is its lift $F(u_1,u_2)=\sigma(u_1)+\sigma(u_2)$, and every claim about $F$ (its exponential form, lowest"
            r" terms, the construction with $4$ atoms), exactly. That no head with at most $3$ atoms represents any member, for all"
            r" infinitely many pairs, is not a finite check: it rests on the proof of Lemma~\ref{lem:TP} (Theorem P) printed in"
            r" Section~\ref{sec:lemmas}, which the reader checks.")
