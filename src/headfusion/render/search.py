"""The search sections of the certificate document, as template context: proofs apart from testimony.

`refutations_context` describes each checked refutation ("search:m{m}" with a tree): its box G,
the points of E, the tree's size and depth.  A tree with at most MAX_FULL_LEAVES leaves is printed
in full, every node with the OUT and IN points of its path and what it does, every multiplier
vector as a combination of rows with the rows written out; a larger one gets one worked leaf of
each kind it uses (count, layer, Farkas with its rows, image, interior) and the command that
replays it.  Rows D_p = Σ_γ g_γ Q′_{p−γ}, N_p = Σ_γ g_γ P′_{p−γ} come from the kernel's own `rows`
applied to P′, Q′ and m.  Explicit heads found by a search are listed.  `testimony_context` lists
solver testimony and undecided searches, which the theorem does not use.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod
from typing import Any

from headfusion.kernel.base import CheckFailed
from headfusion.kernel.checks import combined
from headfusion.kernel.model import Model, model_from_json
from headfusion.kernel.poly import poly_from_json
from headfusion.kernel.refutation import rows as refutation_rows, search_box
from headfusion.render.sections import MAX_ATOM_ROWS
from headfusion.render.names import used_claims
from headfusion.render.symbols import lemma_refs
from headfusion.render.tex import (as_fraction, frac_tex, math_safe_statement, rows_shown, tex_breakable, tex_int, tex_linear, tex_number,
                                   tex_poly, tex_text)

MAX_EXAMPLE_ROWS = 10  # multiplier rows of the Farkas example
MAX_ROW_TERMS = 12  # terms of one row shown
MAX_BRANCH_POINTS = 64  # OUT / IN points of a path shown

Point = tuple[int, ...]


def _sha_tex(sha: object) -> str:
    text = str(sha or "")
    return r"\allowbreak{}".join(tex_text(text[i : i + 16]) for i in range(0, len(text), 16)) or "--"


def _point(e: Any) -> str:
    return "(" + ",".join(str(int(x)) for x in e) + ")"


def _polys(cert: dict) -> tuple[dict, dict]:
    """P′, Q′ of F over the direct sum of the block lattices, as the kernel forms them."""
    ev = next(c for c in cert["claims"] if c["id"] == "exp-form")["evidence"]
    return polys_of(model_from_json(cert["model"]), ev)


def polys_of(model: Model, ev: dict) -> tuple[dict, dict]:
    """P′, Q′ of a model over the direct sum of the block lattices of its exp-form evidence `ev` (kernel.checks.combined)."""
    shapes = []
    for shape in ev["shapes"]:
        rank = len(shape["rows"])
        shapes.append((None, None, rank, poly_from_json(shape["P"], rank + 1), poly_from_json(shape["Q"], rank + 1)))
    return combined(model, {"shapes": shapes, "blocks": [int(b["shape"]) for b in ev["blocks"]]})


LEAF_KINDS = ("count", "layer", "farkas", "image", "interior")  # the leaves kernel.refutation.replay accepts
MAX_FULL_LEAVES = 64  # trees with at most this many leaves are printed in full
MAX_POLY_TERMS = 40  # P′, Q′ of the search printed up to this many terms


def refutation_polys(cert: dict) -> tuple[str | None, str | None]:
    """P′ and Q′ over the direct sum of the block lattices, as the refutations use them (None when long or unused)."""
    if not any(c["id"].startswith("search:") and "tree" in c.get("evidence", {}) for c in cert.get("claims", [])):
        return None, None
    try:
        P, Q = _polys(cert)
    except (CheckFailed, KeyError, StopIteration):
        return None, None
    if len(P) + len(Q) > 2 * MAX_POLY_TERMS:
        return None, None
    rank = len(next(iter(Q))) - 1
    return (tex_poly([[list(e), c] for e, c in sorted(P.items())], 1, [f"x_{{{i + 1}}}" for i in range(rank)]),
            tex_poly([[list(e), c] for e, c in sorted(Q.items())], 1, [f"x_{{{i + 1}}}" for i in range(rank)]))


def _walk(tree: list) -> list[tuple[int, int, frozenset, frozenset]]:
    """(node, depth, OUT set, IN set) in the verifier's order: depth first, the IN child before the OUT child."""
    out, stack = [], [(0, 0, frozenset(), frozenset())]
    while stack:
        index, depth, outs, ins = stack.pop()
        node = tree[index]
        out.append((index, depth, outs, ins))
        if node[0] == "split":
            e = tuple(int(x) for x in node[1])
            stack += [(node[2], depth + 1, outs | {e}, ins), (node[3], depth + 1, outs, ins | {e})]
    return out


def _counts(tree: list) -> dict[str, int]:
    counts = dict.fromkeys(LEAF_KINDS + ("split",), 0)
    for node in tree:
        counts[node[0]] += 1
    return counts


def _row_tex(row: dict[Point, Fraction]) -> str:
    parts = []
    for a, c in sorted(row.items())[:MAX_ROW_TERMS]:
        mag = "" if abs(c) == 1 else frac_tex(abs(c))
        sign = ("-" if c < 0 else "") if not parts else (" - " if c < 0 else " + ")
        parts.append(f"{sign}{mag}g_{{{_point(a)}}}")
    if len(row) > MAX_ROW_TERMS:
        parts.append(rf" + \dots\ (\text{{{len(row)} terms}})")
    return "".join(parts) or "0"


def _points_tex(points: frozenset | list) -> str:
    items = sorted(points)
    text = r",\allowbreak ".join(_point(e) for e in items[:MAX_BRANCH_POINTS])
    return text + (rf", \dots\ (\text{{{len(items)} in all}})" if len(items) > MAX_BRANCH_POINTS else "")


def _path_tex(outs: frozenset, ins: frozenset) -> str:
    """'OUT: (0), (3); IN: (1)' for a table cell."""
    return "; ".join(f"{side}: " + (f"${_points_tex(pts)}$" if pts else "none") for side, pts in (("OUT", outs), ("IN", ins)))


def _box_tex(sizes: tuple[int, ...]) -> str:
    """Π_ℓ {0..G_ℓ}: {0} for a one-point box, a power when all sides agree."""
    side = lambda s: r"\{0\}" if s == 0 else rf"\{{0,\dots,{s}\}}"  # noqa: E731
    if len(set(sizes)) == 1:
        return side(sizes[0]) + (f"^{{{len(sizes)}}}" if len(sizes) > 1 else "")
    return r"\times ".join(side(s) for s in sizes)


def _combination_tex(vector: list) -> str:
    parts = []
    for side, e, lam in vector:
        lam = as_fraction(lam)
        mag = "" if abs(lam) == 1 else frac_tex(abs(lam))
        sign = ("-" if lam < 0 else "") if not parts else (" - " if lam < 0 else " + ")
        parts.append(f"{sign}{mag}{side}_{{{_point(e)}}}")
    return "".join(parts)


class _Tree:
    """One refutation with the kernel's box and rows, for display (the kernel is what checks)."""

    def __init__(self, cert: dict, m: int, ev: dict, polys: tuple[dict, dict] | None = None) -> None:
        self.m, self.tree, self.vectors = m, ev["tree"], ev.get("multipliers", [])
        self.symmetries = ev.get("symmetries", [])
        P, Q = polys or _polys(cert)
        self.sizes = search_box(P, Q, m)
        self.D, self.N = refutation_rows(P, Q, self.sizes) if self.sizes is not None else ({}, {})
        self.q_low = [min(e[c] for e in Q) for c in range(len(self.sizes or ()))]
        self.walk = _walk(self.tree) if self.tree else []
        self.paths = {index: (outs, ins) for index, _, outs, ins in self.walk}

    def layer_points(self, c: int) -> list[Point]:
        return sorted(e for e in self.D if e[c] == self.q_low[c])

    def action(self, index: int) -> str:
        """What a node does: its split, or how the leaf is closed (table cell)."""
        node, ins = self.tree[index], self.paths[index][1]
        kind = node[0]
        if kind == "split":
            return rf"split on ${_point(node[1])}$: IN $\to$ {node[3]}, OUT $\to$ {node[2]}"
        if kind == "count":
            return rf"count: ${len(ins)}>m={self.m}$ points IN"
        if kind == "layer":
            c = int(node[1])
            return rf"layer ${c + 1}$: its points ${_points_tex(self.layer_points(c))}$ are OUT"
        if kind == "farkas":
            return rf"Farkas, $\theta^{{({int(node[1])})}}$"
        if kind == "image":
            return rf"image of node {node[1]} under $\pi_{{{int(node[2]) + 1}}}$"
        combo = " + ".join(rf"{frac_tex(as_fraction(c))}\,{_point(f)}" for f, c in node[2])
        return rf"interior: ${_point(node[1])}={combo}$"

    def full(self) -> dict:
        used = sorted({int(self.tree[i][1]) for i, *_ in self.walk if self.tree[i][0] == "farkas"})
        rows = sorted({(side, tuple(int(x) for x in e)) for k in used for side, e, _ in self.vectors[k]})
        return {
            "nodes": [{"index": i, "path": _path_tex(o, n), "action": self.action(i)} for i, _, o, n in self.walk],
            "vectors": [{"index": k, "combination": _combination_tex(self.vectors[k])} for k in used],
            "rows": [{"row": f"{side}_{{{_point(e)}}}", "expansion": "$" + _row_tex((self.D if side == "D" else self.N).get(e, {})) + "$"}
                     for side, e in rows],
        }

    def worked(self) -> list[dict]:
        """One leaf of each kind the tree uses, written out (the Farkas leaf whose vector combines the most rows that still
        print in full: a two-row leaf, one IN point against one N row, shows little of the method)."""
        out = []
        first: dict[str, int] = {}
        for index, *_ in self.walk:
            first.setdefault(self.tree[index][0], index)
        for kind in ("count", "layer", "image", "interior"):
            if kind not in first:
                continue
            index = first[kind]
            node, (outs, ins) = self.tree[index], self.paths[index]
            text = rf"Node {index} has the path {_path_tex(outs, ins)}. "
            if kind == "count":
                text += rf"It marks ${len(ins)}$ points IN, more than $m={self.m}$: a head would have more than $m$ atoms."
            elif kind == "layer":
                c = int(node[1])
                text += (rf"Every point of $E$ whose coordinate ${c + 1}$ is ${self.q_low[c]}$, the least one of $\supp Q'$, is OUT:"
                         rf" ${_points_tex(self.layer_points(c))}$; but the lowest level of $D=gQ'$ in that coordinate is not zero.")
            elif kind == "image":
                k, perm = int(node[1]), self.symmetries[int(node[2])]
                k_out, k_in = self.paths[k]
                image = lambda pts: frozenset(tuple(e[p] for p in perm) for e in pts)  # noqa: E731
                text += (rf"Node {k}, closed before it, has the path {_path_tex(k_out, k_in)}; $\pi_{{{int(node[2]) + 1}}}$ maps these points to"
                         rf" {_path_tex(image(k_out), image(k_in))}, all marked so at node {index}: a head here would give one at node {k}.")
            else:
                combo = " + ".join(rf"{frac_tex(as_fraction(c))}\,{_point(f)}" for f, c in node[2])
                text += (rf"The point ${_point(node[1])}$ IN is the convex combination ${combo}$ of other points IN, so it is not a vertex of"
                         rf" $\Newt(D)$; but with $m={self.m}\le V$ every point of $\supp D$ is one (Lemma~\ref{{lem:L5}}).")
            out.append({"title": f"A {kind} leaf", "text": text, "rows": None})
        farkas = [(int(self.tree[i][1]), o, n, i) for i, _, o, n in self.walk if self.tree[i][0] == "farkas"]
        if farkas:
            rows = lambda leaf: len(self.vectors[leaf[0]])  # noqa: E731
            example = min(farkas, key=lambda leaf: (rows(leaf) > MAX_EXAMPLE_ROWS, abs(rows(leaf) - MAX_EXAMPLE_ROWS), len(leaf[1]) + len(leaf[2])))
            out.insert(min(2, len(out)), self._farkas(*example))
        return out

    def _farkas(self, k: int, outs: frozenset, ins: frozenset, index: int) -> dict:
        entries, rhs = [], Fraction(0)
        for side, e, lam in self.vectors[k]:
            e, lam = tuple(int(x) for x in e), as_fraction(lam)
            row = (self.D if side == "D" else self.N).get(e, {})
            if side == "N":
                role = r"$=0$ (OUT)" if e in self.D else r"$=0$ ($p\notin E$)"
            elif e in outs:
                role = r"$=0$ (OUT)"
            elif e in ins:
                role, rhs = r"$\ge1$ (IN)", rhs + lam
            else:
                role = r"$\ge0$"
            entries.append({"row": f"{side}_{{{_point(e)}}}", "theta": frac_tex(lam), "role": role, "expansion": _row_tex(row)})
        shown = rows_shown(len(entries), MAX_EXAMPLE_ROWS)
        return {"title": "A Farkas leaf", "rows": entries[:shown], "more": len(entries) - shown,
                "rhs": frac_tex(rhs),
                "text": rf"Node {index} has the path {_path_tex(outs, ins)}; it is closed by $\theta^{{({k})}}$, which combines the rows"}


def tree_context(cert: dict, m: int, ev: dict, vertices: int, polys: tuple[dict, dict] | None = None) -> dict:
    """One refutation tree for the template (part "tree" of lemmas/LR.tex.j2): its box, leaf counts, and the whole tree
    when small, else one worked leaf of each kind.  `polys` (P′, Q′) when the tree is not over F's own (f_u's, Lemma R)."""
    tree = ev["tree"]
    counts = _counts(tree) if tree else dict.fromkeys(LEAF_KINDS + ("split",), 0)
    # π(p) = (p_π(1), …, p_π(r)), 1-based as in the text
    symmetries = [rf"$\pi_{{{s + 1}}}:p\mapsto(" + ",".join(f"p_{{{int(i) + 1}}}" for i in perm) + r")$"
                  for s, perm in enumerate(ev.get("symmetries", []))]
    entry: dict[str, Any] = dict(kind="refutation", empty=not tree, nodes=tex_int(len(tree)), leaves={k: tex_int(v) for k, v in counts.items()},
                                 nleaves=tex_int(sum(counts[k] for k in LEAF_KINDS)), symmetries=", ".join(symmetries),
                                 vertices=tex_int(vertices), vectors=tex_int(len(ev.get("multipliers", []))), full=None, worked=[])
    try:
        shown = _Tree(cert, m, ev, polys) if tree else None
    except (CheckFailed, KeyError, IndexError, TypeError, ValueError):
        shown = None
    if shown is not None and shown.sizes is not None:
        size = prod(s + 1 for s in shown.sizes)
        entry.update(box=_box_tex(shown.sizes), unknowns=f"{tex_int(size)} unknown" + ("" if size == 1 else "s") + r" $g_\gamma$",
                     points=tex_int(len(shown.D)), depth=tex_int(max(d for _, d, _, _ in shown.walk)),
                     point_list=r",\allowbreak ".join(_point(e) for e in sorted(shown.D)) if len(shown.D) <= MAX_BRANCH_POINTS else None)
        if sum(counts[k] for k in LEAF_KINDS) <= MAX_FULL_LEAVES:
            entry["full"] = shown.full()
        else:
            entry["worked"] = shown.worked()
    else:
        entry.update(box="?", unknowns="", points="?", depth="?", point_list=None)
    return entry


def refutations_context(cert: dict) -> list[dict]:
    """Checked search claims: refutation trees (in full when small, else statistics and worked leaves) and explicit heads."""
    out = []
    used = used_claims(cert)
    for claim in cert.get("claims", []):
        if not claim["id"].startswith("search:"):
            continue
        ev = claim["evidence"]
        m = int(ev["atoms"])
        entry: dict[str, Any] = {"id": tex_text(claim["id"]), "m": tex_int(m), "statement": lemma_refs(math_safe_statement(claim["statement"])),
                                 "used": claim["id"] in used}
        if "tree" in ev:
            entry.update(tree_context(cert, m, ev, int(cert.get("summary", {}).get("newton_vertices") or 0)))
        else:
            atoms = ev.get("head", [])
            entry.update(
                kind="head",
                rows=[{"key": tex_linear(a["key"]), "weight": tex_number(a["weight"]), "value": tex_number(a["value"])}
                      for a in atoms[:rows_shown(len(atoms), MAX_ATOM_ROWS)]],
                more=len(atoms) - rows_shown(len(atoms), MAX_ATOM_ROWS),
            )
        out.append(entry)
    return out


def _plain(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "on", False: "off", None: "none"}[value]
    return str(value)


def testimony_context(cert: dict) -> list[dict]:
    """Solver testimony ("testimony:m{m}") and undecided searches ("unknown:m{m}"): not checked, not used."""
    out = []
    for claim in cert.get("claims", []):
        kind = claim["id"].split(":")[0]
        if kind not in ("testimony", "unknown"):
            continue
        ev = claim["evidence"]
        options = ev.get("options") if isinstance(ev.get("options"), dict) else {}
        out.append(
            {
                "id": tex_text(claim["id"]),
                "kind": kind,
                "m": tex_text(ev.get("atoms", "?")),
                "statement": math_safe_statement(claim["statement"]),
                "verdict": tex_text(ev.get("verdict", "")),
                "sha": _sha_tex(ev.get("query_sha256")) if ev.get("query_sha256") else None,
                "solvers": [
                    {"name": tex_text(s.get("name", "?")), "version": tex_text(s.get("version", "")), "verdict": tex_text(s.get("verdict", ""))}
                    for s in ev.get("solvers", []) if isinstance(s, dict)
                ],
                "options": ", ".join(tex_breakable(f"{k} {_plain(options[k])}") for k in sorted(options)),
                "reason": tex_breakable(ev["reason"]) if ev.get("reason") else None,
            }
        )
    return out
