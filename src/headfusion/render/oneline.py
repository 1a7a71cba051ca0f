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
    """The proof sketch's sentence for Theorem Pβ or Lemma P4, or None."""
    ctx = one_line_context(claims)
    if ctx is None:
        return None
    what = (rf"two terms $\pm\sigma(a_iq+\log w_i)$ with {'one scale and distinct weights' if ctx['equal'] else 'distinct scales'}"
            if ctx["lemma"] == "PB" else rf"the scales ${ctx['scales']}$, each factor $1+w_ix^{{a_i}}$ surviving in $Q'$")
    return (rf"In normal form (Section~\ref{{sec:oneline}}) $F$ is a constant plus {what}. Every root of $1+w_ix^{{a_i}}$ is a pole, so a"
            r" head's $D$ vanishes there; a positive binomial or trinomial $\tilde D(x^g)$ meets each circle of poles in at most two"
            r" conjugate points, never $\pm i$, which forces $g$ to be an odd multiple of every scale, and then the terms of $N$ in the class of"
            rf" the least scale modulo $g$ cannot vanish (Lemma~\ref{{lem:{ctx['lemma']}}}): $m^*(F)\ge{ctx['bound']}$.")
