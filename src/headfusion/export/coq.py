"""`headfusion export --coq`: a certificate as a Coq file whose computations Coq's kernel re-checks.

The file rebuilds F from the certificate's model, checks the exponential-form identity block by block,
lowest terms (binomial remainders, Bézout identities), the construction (a theorem, no axiom), Newton
vertices (witnesses or Lemma LZ) and refutation trees (a replay whose soundness is a theorem), and states
m*(F) ≥ lower and m*(F) ≤ upper from the claims it exported.  Claims it does not export are listed in the
file's header and left out of the theorem, never assumed.  Pure: certificate JSON in, text out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import prod

from headfusion.export import coqdata as g
from headfusion.export.graphs import CLAIMS as GRAPH_CLAIMS, graphs_proof
from headfusion.export.lowest import Shape, coprime_proof, edges_proof, newton_proof
from headfusion.export.multiples import CLAIMS as MULTIPLE_CLAIMS, multiples_proof, theorem_name
from headfusion.export.oneline import LINE_CLAIMS, LineEntries, classes_proof, line_proof, unit_roots_proof
from headfusion.kernel.base import MAX_TERMS, CheckFailed, SchemaError, integer, rational, within
from headfusion.kernel.model import Model, group_polys, model_from_json, relative_keys
from headfusion.kernel.poly import divide, lattice_coordinates, poly_from_json
from headfusion.kernel.refutation import search_box
from headfusion.spec.errors import InputError

FORMAT = "headfusion-certificate/3"
LIBRARY = ("HFPoly.v", "HFSem.v", "HFUpper.v", "HFTree.v", "HFAxioms.v", "HFTreeAxioms.v",
           "HFLine.v",
           "HFRename.v",
           "HFGraphs.v")  # in load order
TREE_LEAVES = {"split", "count", "layer", "farkas", "image", "interior"}


@dataclass
class CoqFile:
    """One exported certificate: the .v text and what it proves."""

    name: str
    text: str
    lower: int | None
    upper: int | None
    exported: list[str] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)
    statement: str = ""  # why the certificate's spec text does not give its model ("" when it does: the title names F)
    axioms: list[str] = field(default_factory=list)  # the lemma axioms the theorem cites (Print Assumptions lists them)


def check_command(name: str) -> str:
    """The one shell command that checks the exported file from its folder."""
    return " && ".join(f"coqc -Q . HF {f}" for f in LIBRARY + (f"{name}.v",))


def coq_name(slug: object) -> str:
    """A Coq module name from the certificate's slug (letters, digits, underscores; starts with a letter)."""
    text = re.sub(r"[^A-Za-z0-9_]", "_", str(slug or "F"))
    name = text if text[:1].isalpha() else f"F_{text}"
    # never a library file's name (any case: some file systems ignore it): the file would replace that library file
    return f"F_{name}" if f"{name.lower()}.v" in {f.lower() for f in LIBRARY} else name


def export_coq(cert: object) -> CoqFile:
    """The Coq file of a certificate (InputError on anything this exporter cannot read)."""
    try:
        return _export(cert)
    except InputError:
        raise
    except (CheckFailed, SchemaError, KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError) as exc:
        raise InputError(f"not a certificate this exporter reads: {exc or type(exc).__name__}") from None


def _claims(cert: dict) -> dict[str, dict]:
    claims = cert["claims"]
    if not isinstance(claims, list) or not all(isinstance(c, dict) and isinstance(c.get("id"), str) for c in claims):
        raise InputError("not a certificate: malformed claims")
    return {c["id"]: c for c in claims}


def _export(cert: object) -> CoqFile:
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise InputError(f"not a certificate: the format must be {FORMAT}")
    spec = cert.get("spec") if isinstance(cert.get("spec"), dict) else {}
    if spec.get("every_d") or spec.get("every") is not None or spec.get("graphs"):
        raise InputError("a theorem for every d (or every pair, or a family of graphs) is not exported to Coq: certify one member")
    model = model_from_json(cert["model"])
    if any(a.bias for _, atoms in model.heads for a in atoms):
        raise InputError("weights e^b (rational biases) are not exported to Coq yet: only rational weights")
    # every key is written with n coordinates: a small certificate with a huge dimension is a huge file (refused up front)
    within(model.dimension * sum(len(atoms) for _, atoms in model.heads), MAX_TERMS, "coordinates of the keys written to the Coq file")
    claims = _claims(cert)
    if "exp-form" not in claims:
        raise InputError("the certificate has no exp-form claim: nothing to export")
    name = coq_name(spec.get("slug"))
    n = model.dimension
    out = CoqFile(name, "", None, None)
    blocks = _blocks(model, claims["exp-form"]["evidence"])
    shapes = _shapes(claims["exp-form"]["evidence"])
    body = [_model_text(model), _blocks_text(shapes, blocks)]
    out.exported += ["def:F", "exp-form"]
    used = {"exp-form", "def:F", "theorem"}
    lowest_terms: set[str] = set()
    lowers: list[tuple[int, str, frozenset[str]]] = []  # (bound, Coq name, the lemma axioms its proof cites)
    coprime = claims.get("coprime")
    coprime_ok = False
    if coprime is not None:
        used.add("coprime")
        text, reason, cited = coprime_proof(shapes, coprime["evidence"])
        if text is not None:
            body.append(text + _blocks_forall(blocks, "coprime", "shape{}_coprime"))
            out.exported.append("coprime")
            lowest_terms = cited
            coprime_ok = True
        else:
            out.left_out.append(("coprime", reason))
    newton = claims.get("lower:newton")
    newton_V: dict[int, int] | None = None
    newton_cited: set[str] = set()
    if newton is not None:
        used.add("lower:newton")
        text, counts, reason, cited = newton_proof(shapes, newton["evidence"], coprime["evidence"] if coprime else None) if coprime_ok else (None, [], "lowest terms not exported", set())
        if text is not None:
            ks = [counts[b.shape] for b in blocks]
            body.append(text + _blocks_forall2(blocks) + _newton_theorem(n, ks))
            newton_V, newton_cited = dict(enumerate(counts)), set(lowest_terms | cited)
            out.exported.append("lower:newton")
            lowers.append((prod(ks), "lower_newton", frozenset(lowest_terms | cited | {"L5_LP"})))
        else:
            out.left_out.append(("lower:newton", reason))
    edges = claims.get("lower:edges")
    if edges is not None:
        used.add("lower:edges")
        text, bound, reason = edges_proof(shapes, newton["evidence"], edges["evidence"], [b.shape for b in blocks]) \
            if coprime_ok and newton is not None else (None, 0, "lowest terms or lower:newton not exported")
        if text is not None:
            body.append(text)
            out.exported.append("lower:edges")
            lowers.append((bound, "lower_edges", frozenset(lowest_terms | {"LE_LP"})))
        else:
            out.left_out.append(("lower:edges", reason))
    for cid in sorted(set(claims) & (set(MULTIPLE_CLAIMS) | set(GRAPH_CLAIMS))):  # LH, LS, V3 with LM; grids, LD, LG (graphs.py)
        used.add(cid)
        args = (claims[cid]["evidence"], shapes, newton_V, [b.shape for b in blocks], newton_cited)
        text, bound, reason, cited = (graphs_proof(cid, cert, *args, export_coq) if cid in GRAPH_CLAIMS else multiples_proof(cid, *args, LineEntries)) \
            if coprime_ok else (None, 0, "lowest terms not exported", set())
        if text is not None:
            body.append(text)
            out.exported.append(cid)
            lowers.append((bound, theorem_name(cid), frozenset(lowest_terms | cited)))
        else:
            out.left_out.append((cid, reason))
    for cid in sorted(set(claims) & set(LINE_CLAIMS)):  # LK (with L5 and LM), Pβ, P4: export/oneline.py, HFLine.v
        used.add(cid)
        ev = claims[cid]["evidence"]
        text, bound, reason, cited = classes_proof(ev, shapes, newton_V, [b.shape for b in blocks], newton_cited) if cid == "lower:classes" \
            else unit_roots_proof(ev, blocks, shapes, coprime_ok) if cid == "lower:unit-roots" \
            else line_proof(cid, ev, model.constant, blocks, shapes, coprime_ok)
        if text is not None and (coprime_ok or cid == "lower:pair-biased"):
            body.append(text)
            out.exported.append(cid)
            lowers.append((bound, theorem_name(cid), frozenset(cited if cid == "lower:pair-biased" else lowest_terms | cited)))
        else:
            out.left_out.append((cid, reason or "lowest terms not exported"))
    upper = claims.get("upper")
    if upper is not None:
        used.add("upper")
        body.append(_upper_text(n, model, blocks, upper["evidence"]))
        out.exported.append("upper")
        out.upper = prod(len(_block_head(n, b, upper["evidence"])) for b in blocks)
    for cid, claim in sorted(claims.items()):
        if re.fullmatch(r"search:m\d+", cid) and "tree" in claim.get("evidence", {}):
            used.add(cid)
            text, reason, tight = _tree_text(cid, claim["evidence"], blocks, shapes, newton_V, model.constant) if coprime_ok else (None, "lowest terms not exported", False)
            if text is not None:
                body.append(text)
                out.exported.append(cid)
                cited_tree = lowest_terms | {"LR_box"} | (newton_cited | {"LT_interior"} if tight else set())  # interior leaves: LT on V
                lowers.append((integer(claim["evidence"]["atoms"]) + 1, _tree_name(cid), frozenset(cited_tree)))
            else:
                out.left_out.append((cid, reason))
    for cid, claim in sorted(claims.items()):
        if cid not in used and claim.get("kind") not in ("lemma", "definition"):
            out.left_out.append((cid, "not exported yet"))
    best = max(lowers, key=lambda x: (x[0], -len(x[2]), x[1])) if lowers else None  # the strongest; fewest axioms on ties
    out.lower = best[0] if best else None
    body.append(_theorem_text(n, best, out.upper))
    cited = sorted(best[2]) if best else []
    out.axioms = cited
    out.statement = _statement_problem(cert)
    out.text = _header(cert, model, out, cited) + "\n\n".join(body) + "\n\nPrint Assumptions main.\n"
    return out


@dataclass
class Block:
    """One block of the exponential form, in Coq's terms."""

    index: int
    shape: int
    rank: int
    gens: list[list[Fraction]]  # dense generators in Q^n
    heads: list[tuple[int, list[Fraction], list[tuple[int, ...]]]]  # (head, anchor, lattice exponents of its atoms)
    cofactor: dict[tuple[int, ...], Fraction]


def _shapes(ev: dict) -> list[Shape]:
    shapes = []
    for s in ev["shapes"]:
        rank = len(s["rows"])
        shapes.append(Shape(rank, g.strip_t(poly_from_json(s["P"], rank + 1)), g.strip_t(poly_from_json(s["Q"], rank + 1))))
    return shapes


def _blocks(model: Model, ev: dict) -> list[Block]:
    n, out = model.dimension, []
    order = [integer(h) for b in ev["blocks"] for h in b["heads"]]
    if order != list(range(len(model.heads))):
        raise InputError("the exp-form's blocks do not list the heads in order: not exported yet")
    for i, b in enumerate(ev["blocks"]):
        s = integer(b["shape"])
        if not 0 <= s < len(ev["shapes"]):  # (Python would read -1 as the last shape)
            raise InputError(f"block {i}: no shape {s}")
        shape = ev["shapes"][s]
        den, rows = integer(shape["denominator"]), [[(integer(j), integer(v)) for j, v in row] for row in shape["rows"]]
        within(n * len(rows), MAX_TERMS, "coordinates of the lattice generators written to the Coq file")
        variables = [integer(j) - 1 for j in b["variables"]]
        local = {j: k for k, j in enumerate(variables)}
        gens = []
        for row in rows:
            vec = [Fraction(0)] * n
            for j, v in row:
                vec[variables[j]] = Fraction(v, den)
            gens.append(vec)
        heads = []
        for h in (integer(x) for x in b["heads"]):
            atoms = model.heads[h][1]
            rels = relative_keys(atoms)
            first = dict(atoms[0].key)
            anchor = [first.get(j, Fraction(0)) - rels[0].get(j, Fraction(0)) for j in range(n)]
            exps = [lattice_coordinates({local[j]: v for j, v in rel.items()}, den, rows) for rel in rels]
            heads.append((h, anchor, exps))
        rank = len(rows)
        exponent = lambda rel: lattice_coordinates({local[j]: v for j, v in rel.items()}, den, rows)  # noqa: E731
        P, Q = group_polys(model, [h for h, _, _ in heads], exponent, rank + 1, 1)
        Qs = poly_from_json(shape["Q"], rank + 1)
        H = divide(Q, Qs)
        if H is None:
            raise InputError(f"block {i}: Q'_B does not divide its heads' Q_B")
        out.append(Block(i, s, rank, gens, heads, g.strip_t(H)))
    return out


def _model_text(model: Model) -> str:
    n = model.dimension
    heads = []
    for scale, atoms in model.heads:
        items = []
        for a in atoms:
            key = dict(a.key)
            items.append(f"QA {g.qlist(key.get(j, Fraction(0)) for j in range(n))} {g.q(a.coef)} {g.q(a.value)}")
        heads.append(f"({g.q(scale)}, [{'; '.join(items)}])")
    return ("(* The model, read from the certificate: F(q) = c + Σ_h a_h·H_h(q) on R^" + str(n) + ", each head H_h a list of\n"
            "   atoms QA key weight value (docs/mathematics.md §1).  Compare it with the paper. *)\n"
            f"Definition heads : list (Q * list qatom) := {g.wrap(heads)}.\n"
            f"Definition c : Q := {g.q(model.constant)}.\n"
            f"Definition F : list R -> R := model_eval c heads.\n"
            f"Definition n : nat := {n}.")


def _blocks_text(shapes: list[Shape], blocks: list[Block]) -> str:
    items = []
    for b in blocks:
        heads = "; ".join(f"BH {h} {g.qlist(anchor)} {g.wrap([g.zlist(e) for e in exps], '      ') if len(exps) > 8 else '[' + '; '.join(g.zlist(e) for e in exps) + ']'}"
                          for h, anchor, exps in b.heads)
        gens = "[" + "; ".join(g.qlist(v) for v in b.gens) + "]"
        items.append(f"Blk {gens} [{heads}] shape{b.shape}_P shape{b.shape}_Q {g.poly(b.cofactor)}")
    return ("(* The exponential form (claim exp-form): per block, lattice generators, its heads' keys as anchor + lattice\n"
            "   exponents, P'_B and Q'_B of its shape, and the cofactor H_B with P_B = P'_B·H_B, Q_B = Q'_B·H_B. *)\n"
            + "".join(f"Definition shape{s}_P : poly := {g.poly(sh.P)}.\nDefinition shape{s}_Q : poly := {g.poly(sh.Q)}.\n" for s, sh in enumerate(shapes))
            + f"Definition blocks : list block := {g.wrap(items)}.\n"
            "Definition lblocks : list lblock := map lblock_of blocks.\n"
            "Lemma expform_check : expform_ok heads blocks = true.\nProof. vm_compute. reflexivity. Qed.\n"
            "Lemma F_expform : expform n F c lblocks.\nProof. exact (expform_sound n c heads blocks expform_check). Qed.\n"
            "Lemma lattice_check : lattice_ok n lblocks = true.\nProof. vm_compute. reflexivity. Qed.")


def _blocks_forall(blocks: list[Block], what: str, lemma: str) -> str:
    steps = "".join(f"  apply Forall_cons; [exact {lemma.format(b.shape)}|].\n" for b in blocks)
    return (f"\nLemma blocks_{what} : Forall (fun B => coprime (length (lgens B)) (lP B) (lQ B)) lblocks.\n"
            f"Proof.\n  unfold lblocks, blocks; simpl.\n{steps}  apply Forall_nil.\nQed.")


def _blocks_forall2(blocks: list[Block]) -> str:
    steps = "".join(f"  apply Forall2_cons; [exact shape{b.shape}_newton|].\n" for b in blocks)
    ks = "[" + "; ".join(f"shape{b.shape}_V" for b in blocks) + "]"
    return (f"\nLemma blocks_newton : Forall2 (fun B k => newton_ge (lQ B) k) lblocks {ks}.\n"
            f"Proof.\n  unfold lblocks, blocks; simpl.\n{steps}  apply Forall2_nil.\nQed.")


def _newton_theorem(n: int, ks: list[int]) -> str:
    return (f"\n(* Lemmas L5 and LP: m*(F) >= Π_B V_B = {prod(ks)}. *)\n"
            f"Theorem lower_newton : mstar_ge n F {prod(ks)}.\n"
            "Proof. exact (L5_LP n F c lblocks _ lattice_check F_expform blocks_coprime blocks_newton). Qed.")


def _block_head(n: int, b: Block, ev: dict) -> list[tuple[list[Fraction], Fraction, Fraction, tuple[int, ...]]]:
    item = ev["heads"][b.shape]
    N, D = g.strip_t(poly_from_json(item["N"], b.rank + 1)), g.strip_t(poly_from_json(item["D"], b.rank + 1))
    within(n * len(D), MAX_TERMS, "coordinates of a block head's keys written to the Coq file")
    atoms = []
    for e, w in sorted(D.items()):
        key = [sum((Fraction(x) * gen[j] for x, gen in zip(e, b.gens)), Fraction(0)) for j in range(n)]
        atoms.append((key, w, N.get(e, Fraction(0)) / w, e))
    if set(N) - set(D):
        raise InputError("a block head with supp N outside supp D")
    return atoms


def _upper_text(n: int, model: Model, blocks: list[Block], ev: dict) -> str:
    items = []
    for b in blocks:
        atoms = _block_head(n, b, ev)
        qa = "; ".join(f"QA {g.qlist(k)} {g.q(w)} {g.q(v)}" for k, w, v, _ in atoms)
        items.append(f"([{qa}], [{'; '.join(g.zlist(e) for *_, e in atoms)}])")
    size = prod(len(_block_head(n, b, ev)) for b in blocks)
    return ("(* The construction (claim upper): one head per block, N_B/D_B = P'_B/Q'_B; their product is a head of F.\n"
            "   A theorem (HFUpper.upper_sound): no axiom. *)\n"
            f"Definition block_heads : list (list qatom * list expo) := {g.wrap(items)}.\n"
            f"Theorem upper : mstar_le n F {size}.\n"
            "Proof. exact (upper_sound n c heads blocks block_heads ltac:(vm_compute; reflexivity)). Qed.")


def _tree_name(cid: str) -> str:
    return "lower_" + cid.replace(":", "_")


def _symmetry(shape: Shape, perm: list[int]) -> str:
    """A symmetry (perm, λ) of the tree: λ = Q'(π(s))/Q'(s) at one term s (Coq checks P'∘π = λP', Q'∘π = λQ' and more)."""
    some = min(shape.Q)
    lam = shape.Q.get(tuple(some[p] for p in perm), Fraction(0)) / shape.Q[some]
    return f"({g.nlist(perm)}, {g.q(lam)})"


def _tree_text(cid: str, ev: dict, blocks: list[Block], shapes: list[Shape], newton_V: dict[int, int] | None,
               constant: Fraction) -> tuple[str | None, str, bool]:
    """Claim search:mM as a replayed tree (and whether it has interior leaves, which cite Lemma LT on the Newton count)."""
    if len(blocks) != 1:
        return None, "a tree over several blocks is not exported yet", False
    m = integer(ev["atoms"])
    if m < 0:
        raise InputError(f"claim {cid}: a negative number of atoms")
    shape = shapes[blocks[0].shape]  # Coq builds the box of L3 (HFTree.box_sizes): refused up front, as the kernel does
    P = {e: constant * shape.Q.get(e, 0) + shape.P.get(e, 0) for e in set(shape.P) | set(shape.Q)}  # the question's P′: c·Q′ + P′
    search_box({e + (0,): v for e, v in P.items() if v}, {e + (0,): v for e, v in shape.Q.items()}, m)
    nodes = ev["tree"]
    kinds = {node[0] for node in nodes}
    if not kinds <= TREE_LEAVES:
        return None, f"leaves {', '.join(sorted(kinds - TREE_LEAVES))} are not exported yet", False
    b = blocks[0]
    tight = "interior" in kinds
    if tight and newton_V is None:
        return None, "interior leaves need the Newton count (lower:newton) exported", False
    if nodes:
        term = g.tree(nodes, g.replay_ranks(nodes, {integer(n[1]) for n in nodes if n[0] == "image"}))
    elif b.rank >= 1:
        term = "(Layer 0)"  # an empty box (L3): no cofactor at all, and the lowest layer of D = g·Q' cannot vanish
    else:
        return None, "an empty box of rank 0", False
    vectors = []
    for vec in ev["multipliers"]:
        vectors.append("[" + "; ".join(g.multiplier(side, e, rational(lam)) for side, e, lam in vec) + "]")
    symmetries = [_symmetry(shapes[b.shape], [integer(p) for p in perm]) for perm in ev.get("symmetries", [])]
    name = _tree_name(cid)
    tag = cid.replace(":", "_")
    vertices = f"shape{b.shape}_V" if tight else "0"  # interior leaves need m <= V, the Newton count proved above
    if tight:
        bound = (f"  apply (tree_bound_tight n F c {tag}_B {m} {vertices} {tag}_multipliers {tag}_symmetries {tag}_tree);\n"
                 f"    [exact lattice_check | exact F_expform | | vm_compute; reflexivity | exact shape{b.shape}_newton | exact {tag}_replays].\n")
    else:
        bound = f"  apply (tree_bound n F c {tag}_B {m} {tag}_multipliers {tag}_symmetries {tag}_tree); [exact lattice_check | exact F_expform | | exact {tag}_replays].\n"
    leaves = ", ".join(sorted(kinds - {"split"})) or "layer (an empty box)"
    cites = " Interior leaves rest on Lemma LT (HFTreeAxioms.LT_interior) with V = " + vertices + "." if tight else ""
    return (f"(* Claim {cid} (Lemma LR): a refutation tree at m = {m} (leaves: {leaves}), replayed by HFTree.replay\n"
            f"   (soundness: HFTree.replay_sound).{cites} *)\n"
            f"Definition {tag}_tree : tree := {term}.\n"
            f"Definition {tag}_multipliers : list mvec := {g.wrap(vectors)}.\n"
            f"Definition {tag}_symmetries : list (list nat * Q) := [{'; '.join(symmetries)}].\n"
            f"Definition {tag}_B : lblock := nth 0 lblocks (LBlk [] [] []).\n"
            f"Lemma {tag}_replays : replay_tree (length (lgens {tag}_B)) (norm (padd (pscale c (lQ {tag}_B)) (lP {tag}_B))) (norm (lQ {tag}_B))\n"
            f"  {m}%nat {vertices} {tag}_multipliers {tag}_symmetries {tag}_tree = true.\n"
            "Proof. vm_compute. reflexivity. Qed.\n"
            f"Theorem {name} : mstar_ge n F {m + 1}.\n"
            f"Proof.\n{bound}"
            f"  exact (Forall_inv blocks_coprime).\nQed."), "", tight


def _theorem_text(n: int, best: tuple[int, str, frozenset[str]] | None, upper: int | None) -> str:
    if best is None and upper is None:
        return "(* No bound exported. *)\nTheorem main : expform n F c lblocks.\nProof. exact F_expform. Qed."
    if best is None:
        return f"(* The theorem: what the exported claims prove. *)\nTheorem main : mstar_le n F {upper}.\nProof. exact upper. Qed."
    if upper is None:
        return f"(* The theorem: what the exported claims prove. *)\nTheorem main : mstar_ge n F {best[0]}.\nProof. exact {best[1]}. Qed."
    if best[0] == upper:
        return (f"(* The theorem: m*(F) = {upper}. *)\n"
                f"Theorem main : mstar_eq n F {upper}.\nProof. exact (conj {best[1]} upper). Qed.")
    return (f"(* The theorem: {best[0]} <= m*(F) <= {upper}. *)\n"
            f"Theorem main : mstar_ge n F {best[0]} /\\ mstar_le n F {upper}.\nProof. exact (conj {best[1]} upper). Qed.")


def _statement_problem(cert: dict) -> str:
    """"" when the spec text rebuilds the certificate's model and spec fields (`verify`'s statement check), else why not.

    The theorem is about `heads`, whatever the title says; a title over another function would be read as its name."""
    from headfusion.proof.statement import check_statement

    try:
        check_statement(cert)
    except (CheckFailed, KeyError, TypeError, ValueError, AttributeError) as exc:
        return str(exc) or type(exc).__name__
    return ""


def _header(cert: dict, model: Model, out: CoqFile, axioms: list[str]) -> str:
    title = g.comment_text(cert.get("spec", {}).get("title", ""))
    if out.statement:
        title += ("\n   WARNING: this title does NOT name the function of the theorem: the certificate's spec text does not give\n"
                  f"   its model ({g.comment_text(out.statement, 300)}).  The theorem is about `heads` below, whatever the title says.")
    left = "".join(f"     - {g.comment_text(cid, 80)}: {g.comment_text(reason, 400)}\n" for cid, reason in out.left_out) or "     (none)\n"
    return ("(* headfusion export --coq: a certificate re-checked by Coq's kernel.\n"
            f"   {title}\n"
            f"   Exported claims (checked here by Coq): {', '.join(out.exported)}.\n"
            "   Claims NOT exported (left out of the theorem, never assumed):\n"
            f"{left}"
            f"   Lemma axioms the theorem cites: {', '.join(axioms) or '(none)'} (HFAxioms.v, HFTreeAxioms.v, HFLine.v, HFGraphs.v; docs/coq.md).\n"
            "   Check: " + check_command(out.name) + "\n*)\n"
            "From Coq Require Import List ZArith QArith Reals.\n"
            "From HF Require Import HFPoly HFSem HFUpper HFTree HFAxioms HFTreeAxioms HFLine HFGraphs.\n"
            "Import ListNotations.\nOpen Scope Z_scope.\n\n")
