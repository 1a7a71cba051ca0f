"""Disjoint faces (Lemma LD, DESIGN §9): m*(F) ≥ Σ_i m*(F_{c_i}) over pairwise disjoint faces of Newt(Q′).

claim        lemma  recomputed here
lower:faces  LD     a table of face functions, each a canonical form (a function up to renaming its variables and
                    adding a constant) with its own claims — exp-form, coprime, lower:newton, then lower bounds
                    (classes, unit roots, graph, edges, hexagon, slices, Theorem K, faces citing earlier entries only) —
                    replayed here exactly as for F; its bound is the strongest of them (stored, compared).  Per
                    direction c_i (an integer vector in q): the limit F_{c_i} recomputed from the model has its
                    entry's canonical form; for every pair i < j, max(c_i + c_j) < max c_i + max c_j over supp Q′
                    (block by block, in the lattice).  The bound is Σ_i bound(entry_i).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from headfusion.kernel import statements as say
from headfusion.kernel.base import MAX_POINTS, integer, require, within
from headfusion.kernel.model import Model, canonical, face_limit, model_from_canonical
from headfusion.kernel.poly import x_groups

SUB_CLAIMS = ("lower:classes", "lower:unit-roots", "lower:edges", "lower:hexagon", "lower:slices", "lower:three-slices", "lower:two-adic",
              "lower:faces", "lower:graph", "lower:theorem-k",
              "lower:grid")


def levels(exp: dict, c: dict[int, Fraction]) -> list[dict[tuple[int, ...], Fraction]]:
    """Per block, ⟨c, key(e)⟩ for the points e of supp Q′_B (key(e) = Σ_r e_r·row_r/den in the block's q columns)."""
    out = []
    for s, variables in zip(exp["blocks"], exp["variables"]):
        den, rows, _, _, Q = exp["shapes"][s]
        omega = [sum((c.get(variables[j], 0) * v for j, v in row), Fraction(0)) / den for row in rows]
        out.append({e: sum((w * x for w, x in zip(omega, e)), Fraction(0)) for e in x_groups(Q)})
    return out


def replay_table(functions: object, checks: dict[str, Callable], allowed: tuple[str, ...] = SUB_CLAIMS) -> tuple[list[tuple[list, int, str | None]], set[str]]:
    """(form, bound, claim giving it) per face function, each replayed with the earlier entries as its table; and the
    lemmas its claims use (the LD claim rests on them too)."""
    require(isinstance(functions, list), "the face functions must be a list")
    within(len(functions), 500, "face functions")
    table: list[tuple[list, int, str | None]] = []
    lemmas: set[str] = set()
    for k, item in enumerate(functions):
        require(isinstance(item, dict) and set(item) == {"form", "claims", "bound", "by"}, f"function {k}: malformed entry")
        form, claims, best, by = item["form"], item["claims"], 1, None
        if form:  # [] is a constant: m* = 1, nothing to replay
            model = model_from_canonical(form)  # F_c up to renaming and translating keys: the same m*
            ids = [c[0] if isinstance(c, list) and len(c) == 2 else None for c in claims]
            require(ids[:3] == ["exp-form", "coprime", "lower:newton"] and len(set(ids)) == len(ids) and all(i in allowed for i in ids[3:]),
                    f"function {k}: claims must be exp-form, coprime, lower:newton, then distinct lower bounds")
            facts: dict = {"_table": list(table)}
            found = []
            for cid, evidence in claims:
                facts[cid], deps, _ = checks[cid](model, evidence, facts)
                lemmas |= {d for d in deps if d.startswith("lemma:")}
                found.append((facts[cid].get("count", facts[cid].get("bound", facts[cid].get("lower", 0))), cid))
            best = max(v for v, _ in found)
            by = next(cid for v, cid in found if v == best)  # the first claim that gives it
        else:
            require(claims == [], f"function {k}: a constant carries no claims")
        require(item["bound"] == best and item["by"] == by, f"function {k}: the stored bound differs from its claims' ({best} by {by})")
        table.append((form, best, by))
    return table, lemmas


def check_faces(model: Model, ev: dict, facts: dict, checks: dict[str, Callable]) -> tuple[dict, list[str], str]:
    """Lemma LD: the listed faces are pairwise disjoint and each face function's replayed bound adds up."""
    nested = "_table" in facts  # a face function's own claim cites the entries before it
    require(set(ev) == ({"faces"} if nested else {"faces", "functions"}), "lower:faces carries faces (and, at the top, the functions)")
    table, lemmas = (facts["_table"], set()) if nested else replay_table(ev["functions"], checks)
    faces, exp = ev["faces"], facts["exp-form"]
    require(isinstance(faces, list) and faces, "no faces")
    within(len(faces) ** 2 * sum(len(exp["shapes"][s][4]) for s in exp["blocks"]), 50 * MAX_POINTS, "face comparisons")
    tops, values, used = [], [], []
    for i, (direction, k) in enumerate(faces):
        c = {integer(j) - 1: Fraction(integer(v)) for j, v in direction}
        require(len(c) == len(direction) and all(0 <= j < model.dimension for j in c), f"face {i}: malformed direction")
        require(isinstance(k, int) and 0 <= k < len(table), f"face {i}: no face function {k} before it")
        require(canonical(face_limit(model, c)) == table[k][0], f"face {i}: the limit of F along its direction is not function {k}")
        values.append(levels(exp, c))
        tops.append(sum((max(b.values()) for b in values[-1]), Fraction(0)))
        used.append(table[k][1])
    for i in range(len(faces)):
        for j in range(i):
            pair = sum((max(x + values[j][b][e] for e, x in vi.items()) for b, vi in enumerate(values[i])), Fraction(0))
            require(pair < tops[i] + tops[j], f"faces {j} and {i} intersect: max(c_{j} + c_{i}) = {pair} = max c_{j} + max c_{i}")
    bound = sum(used)
    return {"bound": bound, "table": table}, sorted({"coprime", "exp-form", "lemma:LD"} | lemmas), say.faces(len(faces), used, bound, nested)
