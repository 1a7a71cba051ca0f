"""Template context for Theorem Pβ for the whole family (claim `lower:every-bias`, Lemma PF).

The certificate's model is the lift G(u1, u2) = ±σ(u1) ± σ(u2) of the family ±σ(a·q1 + β1) ± σ(b·q1 + β2)
(`certify … --every a,b`); these sentences say what every member is, and what rests on the printed proof.
"""

from __future__ import annotations

from typing import Any

from headfusion.render.tex import tex_tt


def _signs(cert_or_spec: dict) -> list[int]:
    """ε_1, ε_2 of the family, read from the title the statement layer wrote (±sigmoid(..) ± sigmoid(..))."""
    title = str(cert_or_spec.get("title", ""))
    return [-1 if title.startswith("-") else 1, -1 if ") - sigmoid(" in title else 1]


def _member(spec: dict, u: bool = False) -> str:
    a, b, b1, b2 = (str(n) for n in spec["every"])
    first, second = ("u_1", "u_2") if u else (f"{a}q_1+{b1}", f"{b}q_1+{b2}")
    e1, e2 = _signs(spec)
    return rf"{'-' if e1 < 0 else ''}\sigma({first}){'-' if e2 < 0 else '+'}\sigma({second})"


def biased_pair_family_parts(spec: dict, block: str | None) -> dict[str, Any]:
    """Title and family sentences of the certificate for ±σ(a·q1 + β1) ± σ(b·q1 + β2), all a ≠ b and all biases."""
    a, b, b1, b2 = (str(n) for n in spec["every"])
    index = f"{a},{b},{b1},{b2}"
    member = rf"F_{{{index}}}(q)={_member(spec)}"
    return {
        "every_d": True,  # a family certificate: the theorem is stated for its members, not for F alone
        "pair_family": True,
        "title": rf"${_member(spec)}$, for all positive integers ${a}\ne {b}$ and all real ${b1},{b2}$",
        "spec_math": "F(q)=" + _member(spec, True).replace("u_", "q_"),  # the lift, its signs included
        "family_intro": rf"The members of the family of Section~\ref{{sec:function}} are ${member}=F({a}q_1+{b1},{b}q_1+{b2})$.",
        "every_d_family": (rf"$F$ is the two-variable function of which every member ${member}$ of the family written"
                           rf" {tex_tt(spec.get('text', ''))} is a restriction to an affine line: $F_{{{index}}}(q)=F({a}q_1+{b1},{b}q_1+{b2})$."
                           rf" The verifier reads this from the syntax of the template, with ${a},{b}$ (positive integers) and ${b1},{b2}$"
                           r" (real numbers) as symbols, never substituted; Lemma~\ref{lem:PF} proves the bound for every member."),
        "family_corollary": None,
        "spec_description": r"The function $F$ of this certificate is the lift of a family (below); as a sum of heads it is",
    }


def biased_pair_family_sentence(cert: dict) -> str:
    """The paragraph of the proof in brief for the family of Theorem Pβ."""
    spec = cert["spec"]
    a, b, b1, b2 = (str(n) for n in spec["every"])
    index = f"{a},{b},{b1},{b2}"
    return (rf"For the family: every member $F_{{{index}}}(q)={_member(spec)}$ is $F({a}q_1+{b1},{b}q_1+{b2})$, so the head of $F$"
            rf" restricted to the affine line gives a head of $F_{{{index}}}$ with at most as many atoms, each weight multiplied by a positive"
            rf" number (Lemma~\ref{{lem:PF}}): $m^*(F_{{{index}}})\le4$. Conversely, by Lemma~\ref{{lem:PB}} (Theorem P$\beta$), no head with at"
            rf" most $3$ atoms represents $F_{{{index}}}$ when ${a}\ne {b}$, whatever the biases. (The lower bound for $F$ itself,"
            r" Section~\ref{sec:lower}, does not carry over to restrictions; the theorem does not use it.)"
            r" \emph{What the verifier checks, and what rests on the printed proof.} The verifier checks that the spec's template has"
            rf" the shape ${_member(spec)}$ with ${a},{b},{b1},{b2}$ as symbols (read by the spec parser), that the model of this"
            rf" certificate is its lift $F(u_1,u_2)={_member(spec, True)}$ with signs $\pm1$ (in the kernel, from the heads), and every claim"
            r" about $F$ (its exponential form, lowest terms, the construction with $4$ atoms), exactly. That no head with at most $3$ atoms"
            r" represents any member, for all infinitely many pairs and biases, is not a finite check: it rests on the proofs of"
            r" Lemma~\ref{lem:PB} and Lemma~\ref{lem:PF} printed in Section~\ref{sec:lemmas}, which the reader checks.")
