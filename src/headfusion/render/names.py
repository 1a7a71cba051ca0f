"""Readable names of claims: "Newton bound", "No head with at most 7 atoms" instead of internal ids.

Lemmas are named by a reference to their identifier, which is what the certificate prints
(Lemma L4, Lemma LK: the same name in every certificate), and their name.  The claims graph is printed as the
dependency table (Table "Claims and the claims they use"); there is no figure.
"""

from __future__ import annotations

import re

from headfusion.render.tex import tex_int, tex_text

_FIXED = {
    "def:F": r"The function $F$",
    "exp-form": r"Exponential form $P'/Q'$",
    "coprime": r"Lowest terms",
    "upper": r"Construction (upper bound)",
    "lower:newton": r"Newton-polytope bound",
    "theorem": r"Theorem",
}


BOUND_NAMES = {"lower:graph": ("Graph bound", "graph_bound"), "lower:hexagon": ("Hexagon bound", "hexagon_bound"), "lower:slices": ("Slice bound", "slice_bound"),
               "lower:faces": ("Disjoint-face bound", "disjoint_face_bound"), "lower:three-slices": ("Three-slice bound", "three_slice_bound"),
               "lower:two-adic": ("2-adic bound", "two_adic_bound")}


def _lemma_name(claim: dict) -> str:
    m = re.search(r"\(([^()]*)\)\s*$", str(claim.get("title", "")))
    return m.group(1) if m else str(claim.get("title", ""))


def lemma_tag(cid: str) -> str:
    """'lemma:L5' -> 'L5'."""
    return cid[len("lemma:"):] if cid.startswith("lemma:") else cid


def used_claims(cert: dict) -> set[str]:
    """The claims the theorem rests on: the theorem and everything it depends on, directly or not."""
    deps = {c["id"]: c.get("depends_on", []) for c in cert.get("claims", [])}
    used, todo = set(), ["theorem"]
    while todo:
        cid = todo.pop()
        if cid not in used and cid in deps:
            used.add(cid)
            todo += deps[cid]
    return used


def claim_names(cert: dict) -> dict[str, str]:
    """Claim id -> a readable name (LaTeX, text mode)."""
    summary = cert.get("summary", {})
    names: dict[str, str] = {}
    for c in cert.get("claims", []):
        cid, ev = c["id"], c.get("evidence", {}) if isinstance(c.get("evidence"), dict) else {}
        if c.get("kind") == "lemma":
            names[cid] = rf"Lemma~\ref{{lem:{tex_text(lemma_tag(cid))}}} ({tex_text(_lemma_name(c))})"
        elif cid == "lower:newton" and summary.get("newton_vertices") is not None:
            names[cid] = rf"Newton bound $m^*\ge {tex_int(summary['newton_vertices'])}$"
        elif cid == "lower:classes" and summary.get("residue_class_bound") is not None:
            names[cid] = rf"Residue-class bound $m^*\ge {tex_int(summary['residue_class_bound'])}$"
        elif cid == "lower:edges" and summary.get("rigid_edge_bound") is not None:
            names[cid] = rf"Rigid-edge bound $m^*\ge {tex_int(summary['rigid_edge_bound'])}$"
        elif cid in BOUND_NAMES and summary.get(BOUND_NAMES[cid][1]) is not None:
            names[cid] = rf"{BOUND_NAMES[cid][0]} $m^*\ge {tex_int(summary[BOUND_NAMES[cid][1]])}$"
        elif cid == "lower:line" and isinstance(ev.get("function"), dict):  # Lemma R: f_u's replayed bound (not in the summary)
            names[cid] = rf"Restriction to a line $m^*\ge {tex_text(ev['function'].get('bound', '?'))}$"
        elif cid in _FIXED:
            names[cid] = _FIXED[cid]
        elif cid.startswith("search:") and "tree" in ev:
            names[cid] = rf"No head with at most ${tex_text(ev.get('atoms', '?'))}$ atoms"
        elif cid.startswith("search:"):
            names[cid] = rf"A head with ${tex_text(ev.get('atoms', '?'))}$ atoms"
        elif cid.startswith("testimony:"):
            names[cid] = rf"Testimony: none with at most ${tex_text(ev.get('atoms', '?'))}$ atoms"
        elif cid.startswith("unknown:"):
            names[cid] = rf"Undecided at ${tex_text(ev.get('atoms', '?'))}$ atoms"
        else:
            names[cid] = tex_text(c.get("title") or cid)
    return names
