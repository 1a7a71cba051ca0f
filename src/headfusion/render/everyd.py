"""The theorem for every d (Lemma LP over d copies of a block F): which block lemmas multiply, and d = 1 exactly.

Issue 41: a family whose block is decided by Lemma LU (m*(F) = 4) was stated as 3^d ≤ m*(F_d) ≤ 4^d with d = 1 called
open.  The theorem multiplies only the bounds on the terms of every nonnegative multiple of Q′ (the kernel's
MULTIPLICATIVE claims); a block lemma that bounds the heads of F alone is checked in the certificate too and decides
d = 1, since F_1 = c_1 + F.  Every sentence here is computed from the checked claims (`proof.proved.block_decision`).
"""

from __future__ import annotations

from headfusion.proof.proved import LEMMA_OF_CLAIM, block_decision
from headfusion.render.tex import tex_int

MULTIPLY = (
    r"Only bounds on the number of terms of every nonnegative multiple of $Q'$ multiply over the $d$ disjoint blocks: in a head"
    r" $N/D$ of $F_d$, fix the exponents $p$ of the other blocks; the terms of $D$ with those exponents form a nonzero Laurent"
    r" polynomial $D^{(p)}$ in the variables of one block with nonnegative coefficients, and $D^{(p)}$ is a multiple of that block's"
    r" $Q'$ (which involves only those variables); setting that block's variables to $1$ maps $D$ to a nonnegative multiple of the"
    r" other blocks' denominator, so the bounds multiply. Such bounds are the Newton bound of Lemma~\ref{lem:L5}, the residue classes"
    r" of Lemma LK and the multiple bounds of Lemmas LH, LS, V3 and V2."
)
OTHERS = (
    r" The other lemmas (LU, LE, LG, LD, K and R) and refutation trees bound the heads of $F$ itself: their proofs use the"
    r" numerator $P'$ or the whole head, and a slice $D^{(p)}$ need not be the denominator of a head of $F$, so they are not"
    r" known to multiply and the theorem does not use them for $d\ge2$."
)


def first_member(cert: dict) -> tuple[int, str] | None:
    """(the bound, its claim id) of the block claim that decides d = 1 better than the theorem's bound, or None."""
    decided = block_decision(cert)
    return decided if decided is not None and decided[0] > int(cert["summary"]["lower_bound"]) else None


def first_member_sentence(cert: dict) -> str | None:
    """'F_1 = c_1 + F …: m*(F_1) = 4 exactly.' from the block claim the theorem does not use (None when there is none)."""
    from headfusion.render.context import lower_by

    first = first_member(cert)
    if first is None:
        return None
    bound, cid = first
    upper = int(cert["summary"]["upper_bound"])
    deps = next((c.get("depends_on") for c in cert.get("claims", []) if c.get("id") == cid), None)
    by = lower_by(cid, deps) or rf"Lemma {LEMMA_OF_CLAIM.get(cid, cid)}"
    value = (rf"$m^*(F_1)={tex_int(upper)}$ exactly" if bound >= upper
             else rf"${tex_int(bound)}\le m^*(F_1)\le{tex_int(upper)}$")
    return (rf"$F_1=c_1+F$ and $m^*$ does not change when a constant is added; {by} gives $m^*(F)\ge{tex_int(bound)}$"
            rf" (claim \texttt{{{cid}}}, checked), and with the construction, {value}.")


def multiply_paragraph(cert: dict) -> str:
    """Which block lemmas multiply over disjoint blocks and why the others do not; then d = 1 when a block claim decides it."""
    first = first_member_sentence(cert)
    return MULTIPLY + OTHERS + (r" For $d=1$, " + first if first else "")


def first_member_clause(cert: dict) -> str:
    """', and m* = 4 for d = 1' for the corollary line ('' when d = 1 is not decided better)."""
    first = first_member(cert)
    if first is None:
        return ""
    upper = int(cert["summary"]["upper_bound"])
    return (rf", and $m^*={tex_int(upper)}$ for $d=1$" if first[0] >= upper
            else rf", and ${tex_int(first[0])}\le m^*\le{tex_int(upper)}$ for $d=1$")


def every_d_gap(cert: dict, stops: list[str], construction: str) -> str:
    """The gap paragraph of a theorem for every d whose d = 1 is decided by a block claim the theorem does not use."""
    summary = cert["summary"]
    low, high = int(summary["lower_bound"]), int(summary["upper_bound"])
    first = first_member(cert)
    opening = r"For $d=1$ there is no gap: " if first is not None and first[0] >= high else r"For $d=1$ the gap is narrower: "
    return " ".join([opening + (first_member_sentence(cert) or ""),
                     r"For $d\ge2$ the theorem uses only the block bounds that multiply over blocks (the proof in brief says why):",
                     *stops,
                     rf"No head of $F_d$ with ${tex_int(low)}^d$ to ${tex_int(high)}^d-1$ atoms has been excluded by this certificate"
                     r" for $d\ge2$, and none was searched for.",
                     construction,
                     r"For $F_d$ the bounds are the $d$-th powers of the block bounds that multiply."])
