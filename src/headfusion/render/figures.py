"""The figure of the certificate document: the claims graph, and the readable names of claims.

`claim_names` gives every claim a name a reader understands ("Newton bound", "No head with at
most 7 atoms") instead of its internal id.  `dag_layout` places the claims that carry data
(the function, its exponential form, lowest terms, the bounds, the searches, the theorem) in
layers, left to right, deterministically; the lemmas a claim uses are written inside its node
and the lemma-to-lemma dependencies are in the dependency table, so the figure has few edges
and few crossings.  Solver testimony and undecided searches are not in the figure (the theorem
does not use them).  (Certificates carry no plotted series: such data would be unchecked.)
"""

from __future__ import annotations

import re

from headfusion.render.errors import RenderError
from headfusion.render.tex import tex_int, tex_text

UNCHECKED = ("testimony", "undecided")

_FIXED = {
    "def:F": r"The function $F$",
    "exp-form": r"Exponential form $P'/Q'$",
    "coprime": r"Lowest terms",
    "upper": r"Construction (upper bound)",
    "lower:newton": r"Newton-polytope bound",
    "lower:face": r"Face-limit bound",
    "theorem": r"Theorem",
}


def _lemma_name(claim: dict) -> str:
    m = re.search(r"\(([^()]*)\)\s*$", str(claim.get("title", "")))
    return m.group(1) if m else str(claim.get("title", ""))


def lemma_tag(cid: str) -> str:
    """'lemma:L5' -> 'L5'."""
    return cid[len("lemma:"):] if cid.startswith("lemma:") else cid


def claim_names(cert: dict) -> dict[str, str]:
    """Claim id -> a readable name (LaTeX, text mode)."""
    summary = cert.get("summary", {})
    names: dict[str, str] = {}
    for c in cert.get("claims", []):
        cid, ev = c["id"], c.get("evidence", {}) if isinstance(c.get("evidence"), dict) else {}
        if c.get("kind") == "lemma":
            names[cid] = f"Lemma {tex_text(lemma_tag(cid))} ({tex_text(_lemma_name(c))})"
        elif cid == "lower:newton" and summary.get("newton_vertices") is not None:
            names[cid] = rf"Newton bound $m^*\ge {tex_int(summary['newton_vertices'])}$"
        elif cid == "lower:face" and summary.get("face_limit_bound") is not None:
            names[cid] = rf"Face-limit bound $m^*\ge {tex_int(summary['face_limit_bound'])}$"
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


def _merge_refutations(drawn: list[dict], names: dict[str, str]) -> tuple[list[dict], dict[str, str]]:
    """Refutations with the same dependencies and the same users drawn as one node ("m = 4, 5, 6")."""
    users: dict[str, list[str]] = {}
    for c in drawn:
        for d in c.get("depends_on", []):
            users.setdefault(d, []).append(c["id"])
    groups: dict[tuple, list[dict]] = {}
    for c in drawn:
        if c["id"].startswith("search:") and "tree" in (c.get("evidence") or {}):
            key = (tuple(sorted(c.get("depends_on", []))), tuple(sorted(users.get(c["id"], []))))
            groups.setdefault(key, []).append(c)
    merged: dict[str, str] = {}
    labels: dict[str, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        head = members[0]["id"]
        ms = ", ".join(tex_text(m["evidence"].get("atoms", "?")) for m in members)
        labels[head] = rf"No head with at most $m$ atoms, $m={ms}$"
        for m in members[1:]:
            merged[m["id"]] = head
    out = []
    for c in drawn:
        if c["id"] in merged:
            continue
        out.append(dict(c, _label=labels[c["id"]]) if c["id"] in labels else c)
    return out, merged


def dag_layout(claims_list: list[dict], names: dict[str, str] | None = None) -> dict:
    """Deterministic layered layout (left to right) of the claims that carry data.

    Layer = longest path from a source within the drawn claims (lemmas and unchecked claims are
    left out; a node lists the lemmas it uses).  Within a layer, nodes are ordered by the mean
    position of their dependencies (barycentre), ties by the order of the claims list.
    """
    names = names or {}
    drawn = [c for c in claims_list if c.get("kind") != "lemma" and c.get("kind") not in UNCHECKED]
    drawn, merged = _merge_refutations(drawn, names)
    ids = [c["id"] for c in drawn]
    index = {cid: i for i, cid in enumerate(ids)}
    deps_of = {c["id"]: sorted({merged.get(d, d) for d in c.get("depends_on", []) if merged.get(d, d) in index}) for c in drawn}
    lemmas_of = {c["id"]: [lemma_tag(d) for d in c.get("depends_on", []) if d.startswith("lemma:")] for c in drawn}
    layer: dict[str, int] = {}

    def depth(cid: str, stack: tuple = ()) -> int:
        if cid in layer:
            return layer[cid]
        if cid in stack:
            raise RenderError(f"the claims graph has a cycle through {cid}")
        deps = deps_of[cid]
        value = 0 if not deps else 1 + max(depth(d, stack + (cid,)) for d in deps)
        layer[cid] = value
        return value

    for cid in ids:
        depth(cid)
    layers: dict[int, list[str]] = {}
    for cid in ids:
        layers.setdefault(layer[cid], []).append(cid)
    nlayers = max(layers) + 1 if layers else 0
    tallest = max((len(v) for v in layers.values()), default=1)
    y_of: dict[str, float] = {}
    for lay in range(nlayers):
        members = layers.get(lay, [])
        if lay > 0:
            members = sorted(members, key=lambda cid: (sum(y_of[d] for d in deps_of[cid]) / len(deps_of[cid]), index[cid]))
            layers[lay] = members
        offset = (tallest - len(members)) / 2
        for pos, cid in enumerate(members):
            y_of[cid] = offset + pos
    nodes = []
    for cid in ids:
        x, y = layer[cid] * 3.8, -y_of[cid] * 1.6
        used = lemmas_of[cid]
        label = drawn[index[cid]].get("_label") or names.get(cid, tex_text(cid))
        if used:
            label += r"\\{\scriptsize " + ", ".join(tex_text(u) for u in used) + "}"
        kind = drawn[index[cid]].get("kind", "")
        nodes.append({"name": f"n{index[cid]}", "place": f"(n{index[cid]}) at ({x:.2f},{y:.2f})", "label": label,
                      "layer": layer[cid], "kind": kind, "id": cid})
    edges = []
    for c in drawn:
        for d in deps_of[c["id"]]:
            src, dst = f"n{index[d]}", f"n{index[c['id']]}"
            edges.append({"src": src, "dst": dst, "path": f"({src}.east) to[out=0,in=180] ({dst}.west)"})
    return {"nodes": nodes, "edges": edges, "layers": nlayers, "width": "2.8"}
