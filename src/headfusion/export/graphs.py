"""Coq proofs of the graph claims: grid bounds on 𝒯 (lower:grid: W14, K4GRID, K35), disjoint faces (lower:faces, LD) and
graphical zonotopes (lower:graph, LG).

Lemma LG is exported as what it proves through Lemma LE, with no axiom of its own: the zonotope's vertices (one per
order of the block's variables) and a spanning tree of its edges (two neighbours of an order tied), each with an integer
witness found here, and Coq checks every witness, that each edge is rigid (its face limit is not constant) and
|supp Q′| > V (LE_LP).

A grid entry becomes one lemma `terms_ge r R k` applying its axiom (HFGraphs.v) to the pattern's vertex monomials and
the exact division by the pattern's product of binomials (Coq multiplies the quotient back); the claim is then
Lemma LM over the blocks, written by multiples.py, and grid entries nested in LS, V3 or V2 entries use the same writer.
A lower:faces claim exports each face function of its table as a Coq module (its canonical model with its own
claims, exported by the same exporter: its theorem states only what they prove), links every face limit F_u — which
Coq computes from F's heads — to its function by an explicit renaming that Coq checks, checks the faces' pairwise
disjointness on supp Q′ and states m*(F) ≥ Σ_i m*(F_{u_i}).  Anything not exported is left out with the reason.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations
from math import factorial
from typing import Callable

from headfusion.export import coqdata as g
from headfusion.export.lowest import edges_proof
from headfusion.export.multiples import EXTRA_METHODS, Entries, Unsupported, _quotient, multiples_proof, theorem_name
from headfusion.kernel.base import CheckFailed, integer, rational_json
from headfusion.kernel.grids import PATTERNS
from headfusion.kernel.model import Model, canonical, face_limit, model_from_canonical, model_from_json, relative_keys
from headfusion.kernel.poly import Poly, mul, poly_from_json
from headfusion.spec.errors import InputError

CLAIMS = {"lower:grid": "W14/K4GRID/K35", "lower:faces": "LD", "lower:graph": "LG"}
MAX_ORDERS = 5040  # LG: the orders of a block's variables tried (7 variables)
MAX_WORK = 20_000_000  # LG: orders × variables × |supp Q′_B| × rank, as lowest.sampled_vertices bounds its search
GRIDS = {"W14": ("W14_grid", 14), "K4GRID": ("K4GRID_grid", 30), "K35": ("K35_grid", 35)}  # the axiom (HFGraphs.v) and 𝒯 ≥ value
TABLE = "_coq_faces_table"  # a sub-certificate's key: the face functions a nested lower:faces cites (module, bound, axioms, form)


def _grid(entries: Entries, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
    """A grid entry: 𝒯(R) ≥ 14, 30 or 35 from the pattern's vertex monomials and the exact division of R."""
    lemma = item.get("lemma")
    if lemma not in GRIDS or not isinstance(item.get("vertices"), list):
        raise Unsupported(f"a grid entry of lemma {lemma} is not exported")
    axiom, value = GRIDS[lemma]
    if len(item["vertices"]) != 1 + max(j for (_, j), _ in PATTERNS[lemma]):
        raise Unsupported(f"{lemma} needs one vertex monomial per vertex of its pattern")
    monomials = []
    for m in item["vertices"]:
        p = poly_from_json(m, rank + 1)
        if len(p) != 1 or any(e[-1] for e in p):
            raise Unsupported("a grid vertex must be one monomial without powers of t")
        monomials.append(next(iter(p.items())))
    product: Poly = {(0,) * (rank + 1): Fraction(1)}
    for (i, j), k in PATTERNS[lemma]:
        for _ in range(k):
            product = mul(product, {monomials[i][0]: monomials[i][1], monomials[j][0]: monomials[j][1]})
    h = _quotient(R, product, f"the {lemma} pattern's product")
    entries.axioms.add(axiom)
    listed = "[" + "; ".join(f"({g.zlist(e[:-1])}, {g.q(c)})" for e, c in monomials) + "]"
    return entries._emit(entries._name(), rank, term, value,
                         f"refine ({axiom} {rank} {term} {listed} _ _\n  (divides_by_ok {rank} _ {term} {g.poly(g.strip_t(h))} _)); vm_compute; reflexivity.")


EXTRA_METHODS["grid"] = _grid


def _model_json(model: Model) -> dict:
    """A model as the certificate's JSON (rational weights only)."""
    if any(a.bias for _, atoms in model.heads for a in atoms):
        raise Unsupported("a face function with weights e^b")
    return {"dimension": model.dimension, "constant": rational_json(model.constant),
            "heads": [{"scale": rational_json(s), "atoms": [{"key": [[j + 1, rational_json(v)] for j, v in a.key],
                                                               "weight": rational_json(a.coef), "value": rational_json(a.value)} for a in atoms]}
                      for s, atoms in model.heads]}


def _renaming(face: Model, function: Model) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """pi (the function's variable j is F's pi_j) and, per head of the function, (F's head, the order of its atoms).

    The variable order is canonical()'s (first use after sorting the translated heads); Coq checks the result."""
    heads = []
    for index, (scale, atoms) in enumerate(face.heads):
        if scale != 0 and len({a.key for a in atoms}) > 1:
            rows = sorted((tuple(sorted(rel.items())), a.coef, a.bias, a.value) for a, rel in zip(atoms, relative_keys(atoms)))
            heads.append((scale, tuple(rows), index))
    heads.sort(key=lambda h: (h[0], h[1]))
    order: dict[int, int] = {}
    for _, rows, _ in heads:
        for key, *_ in rows:
            for j, _v in key:
                order.setdefault(j, len(order))
    pi = sorted(order, key=order.__getitem__)
    links, used = [], set()
    for scale, atoms in function.heads:
        wanted = [(tuple(sorted(a.key)), a.coef, a.value) for a in atoms]
        for _, _, index in heads:
            f_scale, f_atoms = face.heads[index]
            have = [(tuple(sorted((order[j], v) for j, v in rel.items())), a.coef, a.value) for a, rel in zip(f_atoms, relative_keys(f_atoms))]
            if index in used or f_scale != scale or sorted(have) != sorted(wanted):
                continue
            perm, free = [], list(range(len(have)))
            for w in wanted:
                perm.append(next(i for i in free if have[i] == w))
                free.remove(perm[-1])
            used.add(index)
            links.append((index, perm))
            break
        else:
            raise Unsupported("a face limit does not match its face function")
    return pi, links


def _left_out(left_out: list[tuple[str, str]]) -> str:
    """A face module's left-out claims for a comment: their ids come from the certificate, so made comment-safe."""
    return "; ".join(f"{g.comment_text(c, 80)}: {g.comment_text(r, 400)}" for c, r in left_out)


def _function_module(k: int, item: dict, export: Callable, fmt: str, table: list) -> tuple[str | None, int, set[str], str]:
    """Face function k as `Module Face<k>` (its own claims exported), its proved bound and cited axioms; constants: 1."""
    if not item.get("form"):
        return None, 1, set(), f"(* Face function {k}: a constant (m* = 1). *)"
    model = model_from_canonical(item["form"])
    sub = {"format": fmt, "spec": {"slug": f"Face{k}"}, "model": _model_json(model), TABLE: table,
           "claims": [{"id": cid, "kind": "claim", "evidence": ev} for cid, ev in item["claims"]]}
    try:
        out = export(sub)
    except InputError as exc:
        return None, 1, set(), f"(* Face function {k}: not exported ({g.comment_text(exc, 400)}); m* >= 1. *)"
    if out.lower is None:
        return None, 1, set(), f"(* Face function {k}: no bound exported ({_left_out(out.left_out)}); m* >= 1. *)"
    _, _, body = out.text.partition("Open Scope Z_scope.\n\n")
    body = body.removesuffix("\n\nPrint Assumptions main.\n")
    left = _left_out(out.left_out) or "none"
    return (f"Face{k}", out.lower, set(out.axioms),
            f"(* Face function {k} (claim lower:faces): its canonical form as a model, with its own claims.\n"
            f"   Exported: {', '.join(out.exported)}.  Left out: {left}. *)\nModule Face{k}.\n{body}\nEnd Face{k}.")


def faces_proof(cert: dict, ev: dict, export: Callable) -> tuple[str | None, int, str, set[str]]:
    """Coq text proving `lower_faces` : mstar_ge n F (Σ_i k_i) by LD_faces, or (None, 0, reason, ∅)."""
    model = model_from_json(cert["model"])
    n, parts, cited = model.dimension, [], {"LD_faces"}
    if "functions" in ev:
        table = []
        for k, item in enumerate(ev["functions"]):
            module, bound, axioms, text = _function_module(k, item, export, cert["format"], list(table))
            table.append((module, bound, axioms, item.get("form")))
            parts.append(text)
    elif isinstance(cert.get(TABLE), list):
        table = cert[TABLE]  # a nested LD cites the top claim's table (modules written before this one)
    else:
        return None, 0, "a nested lower:faces without its table", set()
    dirs, ks = [], []
    for i, (direction, k) in enumerate(ev["faces"]):
        c = {integer(j) - 1: Fraction(integer(v)) for j, v in direction}
        u = [int(c.get(j, 0)) for j in range(n)]
        module, bound, axioms, form = table[integer(k)]
        face = face_limit(model, c)
        if canonical(face) != form:
            return None, 0, f"face {i}: the limit of F is not its face function", set()
        head = f"Lemma lower_faces_f{i} : mstar_ge n (model_eval c (face_heads {g.zlist(u)} heads)) {bound}.\n"
        if module is None:
            parts.append(head + "Proof. exact (mstar_ge_one _ _). Qed.")
        else:
            pi, links = _renaming(face, model_from_canonical(form))
            listed = "[" + "; ".join(f"({h}%nat, {g.nlist(p)})" for h, p in links) + "]"
            parts.append(head + f"Proof.\n  exact (LD_rename n c (face_heads {g.zlist(u)} heads) {module}.n {module}.heads {g.nlist(pi)}\n"
                                f"    {listed} {bound} ltac:(vm_compute; reflexivity) {module}.main).\nQed.")
            cited |= axioms  # LD_rename is a theorem (HFGraphs.v, with HFRename.v)
        dirs.append(u)
        ks.append(bound)
    steps = "".join(f"  apply Forall2_cons; [exact lower_faces_f{i}|].\n" for i in range(len(dirs)))
    parts.append(f"Definition lower_faces_dirs : list (list Z) := [{'; '.join(g.zlist(u) for u in dirs)}].\n"
                 f"Lemma lower_faces_each : Forall2 (fun u k => mstar_ge n (model_eval c (face_heads u heads)) k) lower_faces_dirs {g.nlist(ks)}.\n"
                 f"Proof.\n  unfold lower_faces_dirs.\n{steps}  apply Forall2_nil.\nQed.\n"
                 f"(* Lemma LD (claim lower:faces): the faces are pairwise disjoint, so m*(F) >= Σ_i m*(F_(u_i)) = {sum(ks)}. *)\n"
                 f"Theorem lower_faces : mstar_ge n F {sum(ks)}.\n"
                 f"Proof.\n  exact (LD_faces n c heads lblocks lower_faces_dirs {g.nlist(ks)} ltac:(vm_compute; reflexivity) lattice_check F_expform\n"
                 f"    blocks_coprime ltac:(vm_compute; reflexivity) lower_faces_each).\nQed.")
    return "(* Claim lower:faces (Lemma LD): disjoint faces of Newt(Q'), each face limit bounded by its face function. *)\n" + "\n".join(parts), sum(ks), "", cited


def _rigid_tree(Q: Poly, variables: int, rows: list[list[tuple[int, int]]]) -> tuple[list, list]:
    """Witnessed vertices of Newt(Q′_B) and a spanning tree of its edges, each with an exposing witness (LG via LE).

    A vertex potential p (an order of the block's variables) gives the lattice functional c_r = Σ_j p_j·row_r[j]: on a
    graphical zonotope its maximum is one vertex, and tying two neighbours of the order exposes an edge (two points) when
    they are adjacent in the graph.  Only *finds*: Coq checks every witness, edge and the rigidity of each edge."""
    support = sorted(Q)
    if factorial(variables) > MAX_ORDERS or factorial(variables) * variables * len(support) * len(rows) > MAX_WORK:
        raise Unsupported(f"a block of {variables} variables and {len(support)} points: too large to list its vertices and edges here")

    def face(p: list[int]) -> tuple[list[int], list[tuple[int, ...]]]:
        c = [sum(p[j] * v for j, v in row) for row in rows]
        levels = {e: sum(a * b for a, b in zip(c, e)) for e in support}
        top = max(levels.values())
        return c, [e for e, v in levels.items() if v == top]

    vertices: dict[tuple[int, ...], list[int]] = {}
    edges, root = [], {}

    def find(e: tuple[int, ...]) -> tuple[int, ...]:
        while root.setdefault(e, e) != e:
            e = root[e]
        return e

    for order in permutations(range(variables)):
        p = [0] * variables
        for position, j in enumerate(order):
            p[j] = 2 * position
        c, top = face(p)
        if len(top) == 1:
            vertices.setdefault(top[0], c)
        for k in range(variables - 1):
            a, b = order[k], order[k + 1]
            tied = list(p)
            tied[a] = tied[b] = 2 * k + 1
            c, top = face(tied)
            if len(top) == 2 and find(top[0]) != find(top[1]):
                root[find(top[0])] = find(top[1])
                edges.append([list(top[0]), list(top[1]), c])
    return [[list(v), w] for v, w in sorted(vertices.items())], edges


def graph_proof(cert: dict, shapes: list, block_shapes: list[int]) -> tuple[str | None, int, str, set[str]]:
    """Lemma LG as Lemma LE: per shape the zonotope's vertices and a spanning tree of its (rigid) edges, found here."""
    exp = next(c for c in cert["claims"] if c["id"] == "exp-form")["evidence"]
    newton, rigid = [], []
    for s, shape in enumerate(shapes):
        item = exp["shapes"][s]
        variables = next(len(b["variables"]) for b in exp["blocks"] if integer(b["shape"]) == s)
        rows = [[(integer(j), integer(v)) for j, v in row] for row in item["rows"]]
        vertices, edges = _rigid_tree(shape.Q, variables, rows)
        newton.append({"method": "vertices", "vertices": vertices})
        rigid.append({"edges": edges})
    text, bound, reason = edges_proof(shapes, {"shapes": newton}, {"shapes": rigid}, block_shapes)
    if text is None:
        return None, 0, reason, set()
    text = text.replace("lower:edges", "lower:graph").replace("lower_edges", "lower_graph").replace("edges_check", "graph_check")
    text = text.replace("_rigid", "_graph_rigid").replace("(Lemma LE)", "(Lemma LG, proved by Lemma LE)")
    return text, bound, "", {"LE_LP"}


def graphs_proof(claim_id: str, cert: dict, ev: dict, shapes: list, newton_V: dict[int, int] | None, block_shapes: list[int],
                 newton_cited: set[str], export: Callable) -> tuple[str | None, int, str, set[str]]:
    """The Coq text of a graph claim (lower:grid by LM over its entries, lower:faces by LD), or (None, 0, reason, ∅)."""
    if claim_id == "lower:grid":
        return multiples_proof(claim_id, ev, shapes, newton_V, block_shapes, newton_cited)
    try:
        return graph_proof(cert, shapes, block_shapes) if claim_id == "lower:graph" else faces_proof(cert, ev, export)
    except (Unsupported, CheckFailed, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:  # left out, never assumed
        return None, 0, f"not exported: {exc}", set()


__all__ = ["CLAIMS", "graphs_proof", "theorem_name"]
