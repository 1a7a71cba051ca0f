"""The "Status of the gap" paragraph of a bounds certificate (lower < upper), from what its claims say.

The paragraph has three parts, each computed from the certificate, never written per function:

1. where each lower-bound lemma stops and why: one sentence per checked lower-bound claim, from
   `STOPS` (claim id → a function of the certificate and the claim);
2. what is known of the heads with lower … upper − 1 atoms: which sizes a search asked about
   (solver testimony, undecided searches), and for the others why none was run — the command
   asked for none, the weights e^b are outside the solvers' arithmetic, or the search's key range
   (the box the keys of a connected head lie in, by Lemma L3's argument; its number of points
   with thousands separators) is above the limit of `certify`: a limit of the software, not of the
   mathematics;
3. what the construction is (the lowest-terms head, g = 1, or another one).

A new lower-bound lemma adds its sentence with one entry in `STOPS`, keyed by its claim id:

    STOPS["lower:new"] = lambda cert, claim: r"Lemma~\\ref{lem:LX} stops at … because …"

The function returns LaTeX (text mode) or None; a claim without an entry is named by its bound
only ("the claim lower:new gives m* ≥ 7").
"""

from __future__ import annotations

import re
from typing import Callable

from headfusion.kernel.cyclotomic import cyclotomic
from headfusion.kernel.grids import VALUES
from headfusion.kernel.poly import divide, poly_from_json
from headfusion.kernel.verify import MULTIPLICATIVE
from headfusion.proof.evidence import support_size
from headfusion.render.everyd import every_d_gap, first_member
from headfusion.render.multiples import three_slice_values
from headfusion.render.tex import tex_int, tex_text
from headfusion.render.tournament4 import theorem_k_stop

Sentence = Callable[[dict, dict], "str | None"]


def grouped(value: int) -> str:
    """An integer for math mode with thousands separators: 389{,}017 (huge ones as `tex_int` writes them)."""
    return f"{value:,}".replace(",", "{,}") if value < 10**30 else tex_int(value)


def _newton(cert: dict, claim: dict) -> str:
    summary = cert["summary"]
    V = summary["newton_vertices"]
    exp = _evidence(cert, "exp-form")
    support = support_size(exp)
    if support == V:
        why = r"here every point of $\supp Q'$ is a vertex, so no other lemma of this kind can give more"
    else:
        why = (rf"it counts vertices only, and ${grouped(support - V)}$ of the ${grouped(support)}$ points of $\supp Q'$ are not"
               r" among the certified vertices")
    return rf"Lemma~\ref{{lem:L5}} stops at $V={grouped(V)}$: {why}."


def _edges(cert: dict, claim: dict) -> str:
    V = cert["summary"]["newton_vertices"]
    return (rf"Lemma~\ref{{lem:LE}} stops at $V+1={grouped(V + 1)}$ by design: it excludes only a head with exactly $V$ atoms,"
            r" in which every term of $D=gQ'$ would be a vertex of $\Newt(D)$, and says nothing about heads with more.")


MAX_CLASS_DEGREE = 200  # above this degree of Q′ the one-variable reason is not computed (the general sentence is used)


def unit_root_orders(cert: dict) -> tuple[list[int], int] | None:
    """(𝒟, deg Q′) when F has one block of rank 1 whose Q′ (no powers of t) is unit·x^s·Π_{d∈𝒟} Φ_d^(e_d), every root a root of
    unity; else None.  Found by trial division by Φ_d for every d with φ(d) ≤ deg Q′ (φ(d) ≥ √(d/2), so d ≤ 2·deg²)."""
    exp = _evidence(cert, "exp-form")
    if len(exp.get("blocks", [])) != 1 or len(exp["shapes"][int(exp["blocks"][0]["shape"])]["rows"]) != 1:
        return None
    Q = poly_from_json(exp["shapes"][int(exp["blocks"][0]["shape"])]["Q"], 2)
    low, degree = min(e[0] for e in Q), max(e[0] for e in Q) - min(e[0] for e in Q)
    if any(e[1] for e in Q) or not 0 < degree <= MAX_CLASS_DEGREE:
        return None
    rest, orders = {(e[0] - low, 0): c for e, c in Q.items()}, []
    for d in range(1, 2 * degree * degree + 1):
        while (quotient := divide(rest, cyclotomic(d)) if len(rest) > 1 else None) is not None:
            rest, orders = quotient, orders if d in orders else orders + [d]
    return (orders, degree) if len(rest) == 1 else None


def _classes(cert: dict, claim: dict) -> str:
    bound = cert["summary"]["residue_class_bound"]
    orders, degree = unit_root_orders(cert) or ([], 0)
    ks = [k for k in range(2, degree + 2) if all(d in orders for d in range(2, k + 1) if k % d == 0)]  # Φ_d | Q′ for all d | k, d > 1
    if ks and max(ks + [cert["summary"]["newton_vertices"]]) == bound:
        return (rf"Lemma~\ref{{lem:LK}} stops at ${grouped(bound)}$: in one variable the class sums of $Q'(\rho x)$ modulo $k$ are all"
                r" equal exactly when $Q'(\rho\zeta)=0$ for every $k$-th root of unity $\zeta\ne1$. Every root of $Q'$ is a root of"
                r" unity here, so $\rho=1$, and then $\Phi_d\mid Q'$ for every divisor $d>1$ of $k$ (so $k-1\le\deg Q'$); with"
                rf" $\mathcal{{D}}=\{{{','.join(map(str, orders))}\}}$, the $d$ with $\Phi_d\mid Q'$, only"
                rf" $k\in\{{{','.join(map(str, ks))}\}}$ qualify.")
    return (rf"Lemma~\ref{{lem:LK}} gives ${grouped(bound)}$ with the sublattices and tilts of Table~\ref{{tab:classes}}, one term"
            r" of $D$ per class: a class without a point of $\supp Q'_B$ has sum $0$, so no sublattice serves whose index exceeds"
            r" $|\supp Q'_B|$, and this certificate does not show whether another sublattice or tilt gives more.")


def _graph(cert: dict, claim: dict) -> str:
    V = cert["summary"]["newton_vertices"]
    return (rf"Lemma~\ref{{lem:LG}} (with Lemma~\ref{{lem:LE}}) stops at $V+1={grouped(V + 1)}$ by design: all edges of the graphical"
            r" zonotope are rigid, which excludes a head with exactly $V$ atoms and says nothing about heads with more.")


def _hexagon(cert: dict, claim: dict) -> str:
    return (rf"Lemma~\ref{{lem:LH}} gives ${grouped(cert['summary']['hexagon_bound'])}$, at most $7$ per block: it uses only that three"
            r" binomials forming a hexagon divide $Q'_B$.")


def _slices(cert: dict, claim: dict) -> str:
    return (rf"Lemma~\ref{{lem:LS}} stops at ${grouped(cert['summary']['slice_bound'])}$: it counts the nonzero $\omega$-slices of $D$,"
            r" at least the negative roots of $Z$ plus one, and bounds each by the factor $Y$ alone.")


def _three_slices(cert: dict, claim: dict) -> str:
    bound = int(cert["summary"]["three_slice_bound"])
    exp = _evidence(cert, "exp-form")
    entries = [item for item in claim.get("evidence", {}).get("shapes", []) if item is not None]
    value, values = grouped(bound), r"the bounds $\mathcal{T}_Y$ and $\mathcal{T}_\Gamma$ of Table~\ref{tab:threeslices}"
    if len(entries) == 1 and entries[0]["method"] == "three-slices" and len(exp.get("blocks", [])) == 1:  # one V3 entry gives the bound
        rank = len(exp["shapes"][int(exp["blocks"][0]["shape"])]["rows"])
        t_y, t_g, theta = three_slice_values(entries[0], rank)
        if min(4 * t_y, 3 * t_y + t_g, 2 * t_y + max(t_y, theta * t_g)) == bound:
            value += rf"=\min(4\cdot{t_y},3\cdot{t_y}+{t_g},2\cdot{t_y}+\max({t_y},{theta}\cdot{t_g}))"
            values = rf"the bounds $\mathcal{{T}}_Y={t_y}$ and $\mathcal{{T}}_\Gamma={t_g}$ of Table~\ref{{tab:threeslices}}"
    return (rf"Lemma~\ref{{lem:V3}} stops at ${value}$, its formula with {values}: it counts the nonzero $\omega$-slices of $D$ (at"
            r" least three), each a nonnegative multiple of the factor $Y$ with at least $\mathcal{T}_Y$ terms, and, when there are three,"
            r" the lines in direction $\varepsilon$ of one slice, at least $\mathcal{T}_\Gamma$; it uses nothing else about $D$, and never the"
            r" numerator $P'$.")


def _two_adic(cert: dict, claim: dict) -> str:
    classes = (r" (times the terms of a class polynomial, Lemma~\ref{lem:CD})"
               if "lemma:CD" in claim.get("depends_on", []) else "")  # Lemma CD is printed only when an entry uses it
    return (rf"Lemma~\ref{{lem:V2}} stops at ${grouped(cert['summary']['two_adic_bound'])}$: one term per residue class modulo a power"
            rf" of $2${classes}, and only binomial factors of $Q'_B$ enter it.")


def _faces(cert: dict, claim: dict) -> str:
    ev = claim.get("evidence", {})
    bounds = [int(ev["functions"][k]["bound"]) for _, k in ev.get("faces", [])]
    counts = {b: bounds.count(b) for b in sorted(set(bounds), reverse=True)}
    total = "=" + " + ".join(rf"{n}\cdot {grouped(b)}" if n > 1 else grouped(b) for b, n in counts.items()) if len(bounds) > 1 else ""
    return (rf"Lemma~\ref{{lem:LD}} stops at ${grouped(cert['summary']['disjoint_face_bound'])}{total}$, the sum over its ${len(bounds)}$"
            r" pairwise disjoint faces of the proved lower bounds of their face functions (Table~\ref{tab:faces}): it counts the terms of"
            r" $D$ on these faces only, on each at least that proved bound (this certificate does not show it to be the face function's"
            r" minimum), and no term of $D$ off them.")


def _unit_roots(cert: dict, claim: dict) -> str:
    return (r"Lemma~\ref{lem:LU} stops at $4$ by design: its argument (a denominator $D=gQ'$ with at most $3$ terms has too few"
            r" roots of unity) excludes only heads with at most $3$ atoms, and says nothing about heads with more.")


def _grid(cert: dict, claim: dict) -> str:
    stated = re.search(r"\\ge\s*([0-9]+)\$?\.?\s*$", str(claim.get("statement", "")))  # 'by Lemmas K35 and LM, $m^*(F)\ge 35$.'
    bound = int(stated.group(1)) if stated else None
    if "lemma:K35" in claim.get("depends_on", []) and bound == VALUES["K35"]:  # one K_4 factor: what its grid argument leaves open
        return (r"Lemma~\ref{lem:K35} stops at $35$: for a nonnegative multiple of $\prod_{i<j\le4}(x_i+x_j)$, the form to which the"
                r" proof of Lemma~\ref{lem:K4GRID} reduces the product of the six binomials of Table~\ref{tab:grids}, its grid argument gives"
                r" at least 38 terms when each of $x_1,\dots,x_4$ has exactly four levels (fewer are impossible, by Descartes' rule), while a"
                r" variable with five or more levels is excluded only by counting its slices, at least 7 terms each (Lemma~\ref{lem:LH}): at least"
                r" 35 terms. So a multiple with 35 to 37 terms in which some variable has five levels is not excluded (a float MIP over the"
                r" homogeneous cofactors of degree at most 2 finds none with fewer than 38 terms: evidence only, not used here). The lemma"
                r" bounds the terms of $D=gQ'$ only: the numerator $P'$ never enters.")
    cited = ", ".join(rf"Lemma~\ref{{lem:{t}}} (${VALUES[t]}$)" for t in VALUES if f"lemma:{t}" in claim.get("depends_on", []))
    opening = rf"The grid bound stops at ${grouped(bound)}$: it uses" if bound is not None else "The grid bound uses"
    return (rf"{opening} only the values of {cited}, each a bound on the terms of a nonnegative multiple of a product of binomials,"
            r" and the numerator $P'$ never enters.")


def _refutation(cert: dict, claim: dict) -> str:
    m = int(claim["evidence"]["atoms"])
    return (rf"A refutation tree (Lemma~\ref{{lem:LR}}, claim \texttt{{{tex_text(claim['id'])}}}) excludes every head with at most"
            rf" ${grouped(m)}$ atoms.")


def _line(cert: dict, claim: dict) -> str:
    function = claim["evidence"]["function"]
    return (rf"Lemma~\ref{{lem:R}} stops at ${grouped(int(function['bound']))}$, the bound proved for the one function $f_u$ on its line:"
            r" a head for $F$ restricts to one for $f_u$, but $f_u$ may need fewer atoms than $F$ (keys of $F$ that meet $u$ at one"
            r" level merge).")


STOPS: dict[str, Sentence] = {  # claim id → where its lemma stops and why (a new lemma: one entry here)
    "lower:newton": _newton,
    "lower:unit-roots": _unit_roots,
    "lower:classes": _classes,
    "lower:edges": _edges,
    "lower:graph": _graph,
    "lower:hexagon": _hexagon,
    "lower:slices": _slices,
    "lower:three-slices": _three_slices,
    "lower:two-adic": _two_adic,
    "lower:faces": _faces,
    "lower:theorem-k": theorem_k_stop,
    "lower:line": _line,
    "lower:grid": _grid,
}


def _evidence(cert: dict, cid: str) -> dict:
    return next((c.get("evidence", {}) for c in cert.get("claims", []) if c.get("id") == cid), {})


def key_range_points(exp: dict, m: int) -> int:
    """Π over blocks and lattice coordinates of ((m − 1)·w + 1), w the width of supp P′_B ∪ supp Q′_B: the points of the
    range in which the keys of a connected head with m atoms lie (as `proof.certify.box_points` counts them)."""
    total = 1
    for block in exp["blocks"]:
        shape = exp["shapes"][int(block["shape"])]
        points = [e[:-1] for e, _ in shape["P"]] + [e[:-1] for e, _ in shape["Q"]]
        for c in range(len(shape["rows"])):
            total *= (m - 1) * (max(int(p[c]) for p in points) - min(int(p[c]) for p in points)) + 1
    return total


def _sizes(low: int, high: int) -> str:
    """'25 to 37 atoms', '9 and 10 atoms', '25 atoms'."""
    if low == high:
        return f"${grouped(low)}$ atom" + ("" if low == 1 else "s")
    return f"${grouped(low)}$ {'and' if high == low + 1 else 'to'} ${grouped(high)}$ atoms"


def _not_searched(cert: dict, low: int, high: int) -> str:
    """Why no search asked about the sizes low … high (the first of them decides the key range)."""
    from headfusion.proof.certify import CERT_MAX_BOX_POINTS

    exp = _evidence(cert, "exp-form")
    command = [str(x) for x in cert.get("metadata", {}).get("command", [])]
    heads = rf"No head with {_sizes(low, high)} has been excluded by this certificate, and none was searched for"
    if "--no-search" in command:
        return heads + r": the command asked for no search (\texttt{-{}-no-search})."
    if int(exp.get("t_scale", 1)) > 1:
        return (heads + r": the solvers decide linear real arithmetic, which cannot express the weights $e^b$ of $F$, so the finite"
                r" search does not apply here. This is a limit of the software, not of the mathematics.")
    points = key_range_points(exp, low)
    if points > CERT_MAX_BOX_POINTS:
        return (heads + rf": a head with $m={grouped(low)}$ atoms, taken connected with its keys in $\Lambda$ (Lemma~\ref{{lem:L2}}), has"
                r" keys spanning at most $(m-1)w_\ell$ in each lattice coordinate $\ell$, $w_\ell$ the width of $S=\supp P'\cup\supp Q'$ in it, since two of"
                r" its keys are joined by at most $m-1$ steps, each a difference of two points of $S$; the search for such a head"
                rf" ranges over the ${grouped(points)}$ points of $\prod_\ell\{{0,\dots,(m-1)w_\ell\}}$, and"
                rf" \texttt{{headfusion certify}} searches only where they are at most ${grouped(CERT_MAX_BOX_POINTS)}$. This is a limit of"
                r" the software (the time a solver takes), not of the mathematics: the question is finite.")
    return heads + "."


def _construction(cert: dict) -> str:
    claims = {c["id"]: c for c in cert.get("claims", [])}
    by = cert["summary"].get("upper_bound")
    found = [c for cid, c in claims.items() if cid.startswith("search:") and "head" in c.get("evidence", {})]
    if found and min(int(c["evidence"]["atoms"]) for c in found) <= by:
        c = min(found, key=lambda c: int(c["evidence"]["atoms"]))
        return rf"The upper bound is a head found by a search (claim \texttt{{{tex_text(c['id'])}}}), checked by its coefficient identity."
    exp, upper = _evidence(cert, "exp-form"), _evidence(cert, "upper")
    lowest = all(h["N"] == s["P"] and h["D"] == s["Q"] for h, s in zip(upper.get("heads", []), exp.get("shapes", [])))
    if lowest:
        return (rf"The upper bound is the lowest-terms head itself, $N/D=P'/Q'$ with $g=1$ and ${grouped(by)}$ atoms; by"
                r" Lemma~\ref{lem:L4} a smaller head is $D=gQ'$ with a cofactor $g$ that is not a monomial and whose product with $Q'$"
                r" has fewer terms than $Q'$.")
    return rf"The upper bound is the construction of Section~\ref{{sec:upper}}, with ${grouped(by)}$ atoms."


def gap_paragraph(cert: dict) -> str | None:
    """The paragraph (LaTeX) for a certificate whose bounds do not meet; None when they do."""
    summary = cert["summary"]
    low, high = int(summary["lower_bound"]), int(summary["upper_bound"])
    if low >= high:
        return None
    claims = [c for c in cert.get("claims", []) if c.get("kind") not in ("lemma", "testimony", "undecided")]
    if summary.get("every_d") and first_member(cert) is not None:  # d = 1 decided by a block lemma that does not multiply
        return every_d_gap(cert, [STOPS[c["id"]](cert, c) for c in claims if c["id"] in STOPS and c["id"] in MULTIPLICATIVE],
                           _construction(cert))
    sentences = []
    for c in claims:
        cid = str(c["id"])
        if cid in STOPS:
            sentences.append(STOPS[cid](cert, c))
        elif cid.startswith("search:") and "tree" in c.get("evidence", {}):
            sentences.append(_refutation(cert, c))
        elif cid.startswith("lower:"):
            bound = c.get("evidence", {}).get("bound")
            sentences.append(rf"The claim \texttt{{{tex_text(cid)}}} gives" + (rf" $m^*(F)\ge {grouped(int(bound))}$." if bound else " a lower bound."))
    asked = {}
    for c in cert.get("claims", []):
        kind, ev = c.get("kind"), c.get("evidence", {})
        if kind in ("testimony", "undecided") and isinstance(ev.get("atoms"), int) and low <= ev["atoms"] < high:
            asked[int(ev["atoms"])] = kind
    for kind, words in (("testimony", r"a solver reports that none exists (testimony, not checked, Section~\ref{sec:testimony})"),
                        ("undecided", r"the search ended without a verdict (Section~\ref{sec:testimony})")):
        ms = sorted(m for m, k in asked.items() if k == kind)
        if ms:
            sizes = ", ".join(f"${grouped(m)}$" for m in ms[:-1]) + (" and " if len(ms) > 1 else "") + f"${grouped(ms[-1])}$"
            sentences.append(rf"For heads with at most {sizes} atoms {words}; the certificate does not use this.")
    rest = [m for m in range(low, high) if m not in asked]
    if rest:
        sentences.append(_not_searched(cert, rest[0], rest[-1]) if rest == list(range(rest[0], rest[-1] + 1))
                         else rf"No head with $m$ atoms for the other $m<{grouped(high)}$ has been excluded by this certificate.")
    sentences.append(_construction(cert))
    if summary.get("every_d") and not cert.get("spec", {}).get("graphs"):
        sentences.append(r"For $F_d$ the bounds are the $d$-th powers of these.")
    return " ".join(sentences)
