"""Template context for one line with biases: the normal form of F, Theorem Pβ (claim `lower:pair-biased`) and
Lemma P4 (claim `lower:two-scales`).  Display only: the kernel recomputed the normal form from the model."""

from __future__ import annotations

from typing import Any

from headfusion.render.tex import tex_poly, tex_rational

CLAIMS = {"lower:pair-biased": "PB", "lower:two-scales": "P4"}


def _weight(c: object, s: int, t_scale: int) -> str:
    """w = c·t^s as TeX (t = e^(1/L))."""
    return tex_poly([[[0, s], c]], t_scale)


def one_line_context(claims: dict[str, dict]) -> dict[str, Any] | None:
    """The normal form's rows and the lemma's numbers, or None without either claim."""
    cid = next((c for c in CLAIMS if c in claims), None)
    if cid is None:
        return None
    t_scale = int(claims["exp-form"]["evidence"].get("t_scale", 1))
    terms = claims[cid]["evidence"]["terms"]
    rows = [{"index": i + 1, "a": a, "w": _weight(c, s, t_scale), "eps": tex_rational(e),
             "factor": tex_poly([[[0, 0], 1], [[a, s], c]], t_scale)} for i, (a, c, s, e) in enumerate(terms)]
    scales = sorted({a for a, *_ in terms})
    least = scales[0]
    residue = " + ".join(rf"({tex_rational(e)})\cdot {_weight(c, s, t_scale)}" for a, c, s, e in terms if a == least)
    return {"lemma": CLAIMS[cid], "rows": rows, "bound": 4 if len(scales) > 1 else 3, "scales": ",".join(map(str, scales)),
            "least": least, "residue": residue, "equal": len(scales) == 1}


def one_line_sentence(claims: dict[str, dict]) -> str | None:
    """The proof sketch's sentence for Theorem Pβ or Lemma P4, or None: D̃ (D = D̃(x^g), g the gcd of D's exponents) is
    defined where it is first used, and the reason is the one of its case (one scale: two roots for a binomial's one)."""
    ctx = one_line_context(claims)
    if ctx is None:
        return None
    what = (rf"two terms $\pm\sigma(a_iq+\log w_i)$ with {'one scale and distinct weights' if ctx['equal'] else 'distinct scales'}"
            if ctx["lemma"] == "PB" else rf"the scales ${ctx['scales']}$, each factor $1+w_ix^{{a_i}}$ surviving in $Q'$")
    poles = (rf"In normal form (Section~\ref{{sec:oneline}}) $F$ is a constant plus {what}. Every root of $1+w_ix^{{a_i}}$ is a pole of $F$,"
             r" so the denominator $D$ of a head vanishes there; take the lowest exponent of $D$ to be $0$.")
    if ctx["equal"]:  # one scale a, two weights: a binomial D̃ has one root, the two cosets need two
        return poles + (r" A head with at most two atoms then has a binomial $D=\tilde D(x^g)$, $g$ its exponent and $\tilde D(y)=\alpha+\gamma y$"
                        r" with $\alpha,\gamma>0$ (a monomial has no roots), and $\tilde D$ has the one root $-\alpha/\gamma$. The roots of $1+w_ix^a$"
                        r" form a coset of the $a$-th roots of unity, which $x\mapsto x^g$ maps to roots of $\tilde D$, so to $-\alpha/\gamma$ alone: $g/a$"
                        r" is odd and $-w_i^{-g/a}=-\alpha/\gamma$ for both weights, impossible as they differ"
                        rf" (Lemma~\ref{{lem:{ctx['lemma']}}}): $m^*(F)\ge{ctx['bound']}$.")
    return poles + (r" If $D$ has at most three terms, write $D=\tilde D(x^g)$ with $g$ the gcd of its exponents: $\tilde D(y)$ is a positive"
                    r" binomial or trinomial in $y$, and on a circle $|y|=\rho'$ it has at most two roots, conjugate, never $\rho'$ and never the"
                    r" pair $\pm i\rho'$. The roots of $1+w_ix^{a_i}$ form a coset of the $a_i$-th roots of unity on one circle, which"
                    r" $x\mapsto x^g$ maps to roots of $\tilde D$; this forces $g$ to be an odd multiple of every scale, and then the terms of the"
                    r" numerator $N$ in the class of the least scale modulo $g$ cannot all vanish, whereas $\supp N\subseteq\supp D\subseteq g\mathbb{Z}$"
                    rf" (Lemma~\ref{{lem:{ctx['lemma']}}}): $m^*(F)\ge{ctx['bound']}$.")
