"""The certificate text for a family of graphs (Lemma LF): its title, how its members are defined and checked, and the
paragraph of the proof in brief.  Display only: `kernel.graphs.check_family` is what checks the members."""

from __future__ import annotations

from typing import Any

from headfusion.render.tex import tex_tt

CLASSES = {"cycle": ("the cycles $C_n$", "the cycle $C_n$"), "tree": ("trees", "a tree on $n$ vertices"),
           "complete": ("the complete graphs $K_n$", "the complete graph $K_n$")}


def family_claim(cert: dict) -> dict | None:
    """The evidence of `family:graphs` ({"class", "from"}), or None for any other certificate."""
    return next((c["evidence"] for c in cert.get("claims", []) if c.get("id") == "family:graphs"), None)


def graph_family_parts(cert: dict, block: str | None, toml_name: str, generator: str | None) -> dict[str, Any]:
    """Title and family sentences of a certificate whose theorem holds for every member n of a family of graphs."""
    ev = family_claim(cert) or {"class": "cycle", "from": 3, "to": 8}
    plural, one = CLASSES[ev["class"]]
    n0, last = ev["from"], ev["to"]
    return {
        "every_d": True,
        "title": rf"tournament functions of {plural}, for every $n\ge{n0}$",
        "spec_math": ("F(q)=" + block) if block else None,
        "family_intro": rf"$F$ is the member $n={n0}$ of the family of Section~\ref{{sec:function}}; the theorem is about every member.",
        "every_d_family": (rf"$F$ is the member $n={n0}$ of the family of the TOML spec {tex_tt(toml_name)} embedded in the certificate"
                           rf" (Appendix~\ref{{sec:source}}): its member $n$ is the tournament function of the graph on $n$ vertices that"
                           rf" the networkx generator {tex_tt(generator or '')} produces, {one}. The verifier rebuilds the members"
                           rf" $n={n0},\dots,{last}$, reads each one's graph from its heads, and checks its class"
                           r" and its numbers of acyclic orientations and of forests against Lemma~\ref{lem:LF}; for every $n$ the theorem"
                           r" rests on Lemmas~\ref{lem:LF} and~\ref{lem:LG}, the member below being the case $n=" + str(n0) + "$."
                           + _members_note(cert, n0, last)),
        "family_corollary": None,
        "spec_description": r"The function $F$ of this certificate is the first member of a family of graphs (below); as a sum of heads it is",
    }


def _spec_max(cert: dict) -> int | None:
    """The `max` of the embedded TOML spec's [parameter] (display only; None when absent or unreadable)."""
    import tomllib

    try:
        value = tomllib.loads(cert.get("spec", {}).get("source") or "").get("parameter", {}).get("max")
    except (tomllib.TOMLDecodeError, AttributeError):
        return None
    return value if isinstance(value, int) else None


def _members_note(cert: dict, n0: int, last: int) -> str:
    """Why the verifier checks n = n0..last, and what the spec's `max` is for (issue 34: 3..8 against `max = 17`)."""
    top = _spec_max(cert)
    spec = (rf" The spec's own range ($\texttt{{max}}={top}$) only bounds the members that \texttt{{certify --d}} and"
            r" \texttt{explore} compute one by one; it is no hypothesis of the theorem." if top is not None else "")
    return (rf" The members checked stop at $n={last}$ because the forest count of Lemma~\ref{{lem:LF}} is a sum over all $2^{{|E|}}$"
            r" edge sets, so the verifier rebuilds only members with at most $8$ vertices and $15$ edges: they test the closed forms,"
            r" they do not prove them; the proof for every $n$ is the printed proof of Lemma~\ref{lem:LF}." + spec)


def graph_family_sentence(cert: dict) -> str | None:
    """The paragraph of the proof in brief for a family of graphs (None for any other certificate)."""
    ev = family_claim(cert)
    if ev is None:
        return None
    one = CLASSES[ev["class"]][1]
    common = (rf"For every $n$, $F_n$ is the tournament function of {one}, a simple graph, so by Lemma~\ref{{lem:LG}} its"
              r" lowest-terms denominator is the product of its edge binomials, its Newton polytope is the graphical zonotope, whose"
              r" vertices are the acyclic orientations, and all its edges are rigid; its lowest-terms head has one atom per point of"
              r" $\supp Q'_n$. ")
    specific = {
        "cycle": r"A cycle has $2^n-2$ acyclic orientations (all but the two directed cycles) and $2^n-1$ points in $\supp Q'_n$ (two"
                 r" orientations share the score vector $(1,\dots,1)$, all others differ), so $2^n-1\le m^*(F_n)\le2^n-1$ (Lemma~\ref{lem:LF}).",
        "tree": r"The $n-1$ edge binomials of a tree have independent directions: $\Newt(Q'_n)$ is a parallelepiped whose $2^{n-1}$"
                r" vertices are all of $\supp Q'_n$, so $m^*(F_n)=2^{n-1}$ (Lemmas~\ref{lem:LZ} and~\ref{lem:LF}).",
        "complete": r"For $K_n$ the $n$ faces along $\mathbf{1}_i$ (vertex $i$ beats every other) are pairwise disjoint and their face"
                    r" functions are tournaments of $K_{n-1}$ plus constants, so by Lemma~\ref{lem:LD} $m^*(F_n)\ge n\,m^*(F_{n-1})$;"
                    r" from $m^*(F_3)=7$, $m^*(F_n)\ge7\cdot n!/6$, and $m^*(F_n)\le|\supp Q'_n|$ (Lemma~\ref{lem:LF}).",
    }[ev["class"]]
    return common + specific + rf" The members $n={ev['from']},\dots,{ev['to']}$ are checked against these counts by the verifier."
