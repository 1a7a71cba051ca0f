"""Claims and their evidence as a DAG (networkx), and the certificate data.

Every claim carries a LaTeX statement, the ids it depends on, its evidence as exact
JSON data, and the name of the check in `verify.py` that re-verifies it.  The
certificate is data first: `render.py` turns it into LaTeX.
"""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import metadata
from typing import Any, Iterable

import networkx as nx

from headfusion import __version__
from headfusion.algebra.expform import Block, ExpForm, exponential_form, fused_atom_json, fused_atoms
from headfusion.bounds.lower import NewtonBound, face_limit_bound, newton_bound, vertex_witnesses
from headfusion.spec.numbers import rational_to_json
from headfusion.bounds.facelimits import FaceNode
from headfusion.algebra.laurent import is_primitive_binomial
from headfusion.spec.load import Spec
from headfusion.render.texutil import latex_escape

FORMAT = "headfusion-certificate/1"
MAX_CERT_ATOMS = 4096  # explicit atom / witness lists in the certificate at most

LEMMAS: dict[str, tuple[str, str]] = {
    # id: (name, statement) — the proofs are in the LaTeX template.
    "L1": ("Merge", r"Atoms with equal keys merge; a head is a pair $(N,D)$ of exponential polynomials with positive coefficients in $D$, $\operatorname{supp}N\subseteq\operatorname{supp}D$, and size $|\operatorname{supp}D|$."),
    "L2": ("Components", r"A minimum head for $F$ may be assumed connected (keys joined by differences in $S-S$, $S=\operatorname{supp}P\cup\operatorname{supp}Q$) with keys in the lattice $\Lambda$."),
    "L3": ("Finite box", r"A connected head with $m$ atoms has, after translation, all keys in $\prod_c\{0,\dots,(m-1)w_c\}$ where $w_c$ is the width of $S$ in lattice coordinate $c$."),
    "L4": ("Divisibility", r"If $F=P'/Q'$ in lowest terms, then $Q'\mid D$ for every representation $F=N/D$."),
    "L5": ("Newton polytopes", r"$\operatorname{Newt}(gQ')=\operatorname{Newt}(g)+\operatorname{Newt}(Q')$ has at least as many vertices as $\operatorname{Newt}(Q')$; hence $m^*(F)\ge\#\operatorname{vert}\operatorname{Newt}(Q')$."),
    "L6": ("Face limits", r"If $F$ is not invariant along $c$, then $m^*(F)\ge m^*(F_c)+m^*(F_{-c})$ with $F_c(q)=\lim_{t\to\infty}F(q+tc)$."),
    "LP": ("Product", r"For blocks on disjoint variables, $F=c+\sum_B P'_B/Q'_B$ has lowest-terms denominator $\prod_B Q'_B$, the product head has $\prod_B|\operatorname{supp}Q'_B|$ atoms, and $\operatorname{Newt}(\prod_B Q'_B)=\prod_B\operatorname{Newt}(Q'_B)$ has $\prod_B\#\operatorname{vert}$ vertices."),
    "LS": ("Slices", r"For $R\ne0$ let $T(R)$ be the least number of terms of a polynomial with positive coefficients divisible by $R$. If $R$ has positive width in coordinate $c$, then $T(R)\ge T(R_{\mathrm{bot},c})+T(R_{\mathrm{top},c})$ for its lowest and highest $x_c$-slices; the search query asks $D=gQ'$ for at least $T(Q'_{\mathrm{bot},c})$ atoms with $k_c=0$ and $T(Q'_{\mathrm{top},c})$ with $k_c\ge1$."),
    "LZ": ("Zonotopes", r"A Minkowski sum of segments along $g_1,\dots,g_k$ has as many vertices as the central arrangement $\{c:\langle c,g_i\rangle=0\}$ has regions, $r=\sum_{B\subseteq A}(-1)^{|B|-\operatorname{rank}B}$."),
}


@dataclass(frozen=True)
class Claim:
    """One node of the proof DAG."""

    id: str
    kind: str
    title: str
    statement: str  # LaTeX
    depends_on: tuple[str, ...]
    check: str  # name of the verify.py check
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "statement": self.statement,
            "depends_on": list(self.depends_on),
            "check": self.check,
            "evidence": self.evidence,
        }


def claims_graph(claims: Iterable[Claim]) -> nx.DiGraph:
    """Edges claim → dependency; raises ValueError when a dependency is missing or there is a cycle."""
    graph = nx.DiGraph()
    claims = list(claims)
    for c in claims:
        graph.add_node(c.id)
    for c in claims:
        for dep in c.depends_on:
            if dep not in graph:
                raise ValueError(f"claim {c.id} depends on unknown claim {dep}")
            graph.add_edge(c.id, dep)
    if not nx.is_directed_acyclic_graph(graph):
        raise ValueError("the claims graph has a cycle")
    return graph


def topological_order(claims: list[Claim]) -> list[Claim]:
    """Dependencies first; ties broken by the order of creation (deterministic)."""
    graph = claims_graph(claims)
    position = {c.id: i for i, c in enumerate(claims)}
    by_id = {c.id: c for c in claims}
    order = nx.lexicographical_topological_sort(graph.reverse(copy=True), key=lambda n: position[n])
    return [by_id[n] for n in order]


# -- evidence builders -----------------------------------------------------------------------


def _shape_key(block: Block) -> tuple:
    return (block.basis, block.P, block.Q, block.P_reduced, block.Q_reduced, block.shift)


def block_shapes(form: ExpForm) -> tuple[list[Block], list[int]]:
    """Distinct blocks up to renaming of variables (one representative each) and each block's shape index."""
    shapes: dict[tuple, int] = {}
    representatives: list[Block] = []
    assignment = []
    for block in form.blocks:
        key = _shape_key(block)
        if key not in shapes:
            shapes[key] = len(representatives)
            representatives.append(block)
        assignment.append(shapes[key])
    return representatives, assignment


def _basis_json(block: Block) -> dict:
    return {"denominator": block.basis.denominator, "rows": [[[j, v] for j, v in row] for row in block.basis.rows]}


def exp_form_evidence(form: ExpForm) -> dict:
    """Per shape: lattice basis, naive P_B/Q_B, lowest terms P′_B/Q′_B; per block: shape, heads, variables."""
    shapes, assignment = block_shapes(form)
    return {
        "t_scale": form.t_scale,
        "shapes": [
            {
                "basis": _basis_json(b),
                "shift": list(b.shift),
                "P": b.P.to_json(),
                "Q": b.Q.to_json(),
                "P_reduced": b.P_reduced.to_json(),
                "Q_reduced": b.Q_reduced.to_json(),
                "reduced_is_head": b.reduced_is_head,
            }
            for b in shapes
        ],
        "blocks": [
            {"shape": s, "heads": list(b.head_indices), "variables": [j + 1 for j in b.variables]}
            for b, s in zip(form.blocks, assignment)
        ],
    }


def coprimality_evidence(form: ExpForm) -> dict:
    """Per shape: Q′_B = unit·Π f^e with each f irreducible and f ∤ P′_B (L4)."""
    shapes, _ = block_shapes(form)
    out = []
    for b in shapes:
        factors = []
        for f in b.factors:
            remaining = f.in_denominator - f.in_gcd
            if remaining:
                factors.append(
                    {
                        "poly": f.poly.to_json(),
                        "multiplicity": remaining,
                        "irreducible": "primitive binomial" if is_primitive_binomial(f.poly) else "gcd recomputed",
                    }
                )
        out.append({"factors": factors, "removed": sum(f.in_gcd for f in b.factors)})
    return {"shapes": out}


def newton_evidence(bound: NewtonBound, cap: int) -> dict:
    """Per shape: vertices with witnesses (or zonotope generators); count; q-coordinate table."""
    form = bound.form
    shapes, assignment = block_shapes(form)
    per_shape = []
    for shape_index, b in enumerate(shapes):
        nb = bound.blocks[assignment.index(shape_index)]
        if nb.method == "explicit":
            assert nb.vertices is not None
            per_shape.append(
                {"method": "explicit", "count": nb.count, "vertices": [[list(v), list(c)] for v, c in nb.vertices.vertices]}
            )
        else:
            per_shape.append({"method": "zonotope", "count": nb.count, "directions": [list(d) for d in nb.directions or ()]})
    listed = list(vertex_witnesses(bound, cap)) if bound.explicit and bound.count <= cap else []
    return {"count": bound.count, "shapes": per_shape, "vertex_witnesses": listed}


def face_evidence(tree: list[FaceNode]) -> dict:
    """The face-limit tree: canonical forms, directions, children, bounds."""
    nodes = []
    for node in tree:
        nodes.append(
            {
                "form": canonical_json(node.form),
                "bound": node.bound,
                "direction": None if node.direction is None else [[j + 1, rational_to_json(v)] for j, v in node.direction],
                "plus": node.plus,
                "minus": node.minus,
            }
        )
    return {"bound": tree[0].bound, "nodes": nodes}


def canonical_json(form: tuple) -> list:
    """JSON of a canonical form (see facelimits.canonical_form)."""
    return [
        [
            rational_to_json(scale),
            [[[[j + 1, rational_to_json(v)] for j, v in key], rational_to_json(c), rational_to_json(e), rational_to_json(val)]
             for key, c, e, val in atoms],
        ]
        for scale, atoms in form
    ]


def construction_evidence(form: ExpForm, cap: int) -> dict:
    """The fused (product) head: its size and, when small, its atoms."""
    shapes, _ = block_shapes(form)
    evidence: dict[str, Any] = {
        "atoms": form.upper_bound,
        "per_shape_atoms": [b.head_size for b in shapes],
        "uses_reduced": [b.reduced_is_head for b in shapes],
    }
    if form.upper_bound <= cap:
        evidence["atoms_list"] = [fused_atom_json(form, a) for a in fused_atoms(form)]
    return evidence


# -- the certificate ---------------------------------------------------------------------------


def versions() -> dict[str, str]:
    """Versions of headfusion and the libraries that produced the evidence."""
    out = {"headfusion": __version__, "python": platform.python_version()}
    for name in ("sympy", "z3-solver", "networkx", "jinja2"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def model_sha256(model_json: dict) -> str:
    """Hash of the normalised model JSON (canonical serialisation)."""
    return hashlib.sha256(json.dumps(model_json, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _lemma_claims(ids: Iterable[str]) -> list[Claim]:
    return [Claim(f"lemma:{i}", "lemma", f"Lemma {i} ({LEMMAS[i][0]})", LEMMAS[i][1], (), "lemma", {"lemma": i}) for i in ids]


def build_certificate(
    spec: Spec,
    command: list[str],
    search_results: list[dict] | None = None,
    search_note: str | None = None,
    bounds: tuple | None = None,
) -> dict:
    """The certificate data for a spec: model, claims DAG with evidence, summary, metadata.

    `search_results` are `SearchResult.to_json()` dicts from `solver.py` (run by the
    caller); they enter as solver-evidence claims.  `bounds` = (form, newton bound,
    face-limit result) when the caller has computed them already.
    """
    model = spec.model
    if bounds is None:
        form = exponential_form(model)
        bounds = (form, newton_bound(form), face_limit_bound(model))
    form, newton, (face, tree, face_note) = bounds
    model_json = model.to_json()
    upper = form.upper_bound
    claims: list[Claim] = []
    lemma_ids = ["L1", "L2", "L3", "L4", "L5", "L6", "LP"]
    if any(b.method == "zonotope" for b in newton.blocks):
        lemma_ids.append("LZ")
    uses_slices = any(r.get("options", {}).get("faces") for r in search_results or [])
    if uses_slices:
        lemma_ids.append("LS")
    claims += _lemma_claims(lemma_ids)
    title = latex_escape(spec.title)
    claims.append(
        Claim(
            "def:F", "definition", "The function",
            rf"$F$ is the sum of the {len(model.heads)} heads of Table~\ref{{tab:heads}} plus the constant "
            rf"${_tex_rational(model.constant)}$, on $q\in\mathbb{{R}}^{{{model.dimension}}}$; "
            rf"its multi-head cost is {model.head_atom_terms} head-atom terms.",
            (), "model", {"model_sha256": model_sha256(model_json), "head_atom_terms": model.head_atom_terms},
        )
    )
    claims.append(
        Claim(
            "exp-form", "identity", "Exponential-family form",
            rf"$F=c+\sum_B P'_B/Q'_B$ over {len(form.blocks)} block(s) on disjoint variables, each $P'_B/Q'_B$ equal to "
            r"the block's sum of heads $P_B/Q_B$ ($P'_BQ_B=P_BQ'_B$ coefficient by coefficient).",
            ("def:F", "lemma:L1"), "exp-form", exp_form_evidence(form),
        )
    )
    claims.append(
        Claim(
            "coprime", "coprimality", "Lowest terms",
            r"$\gcd(P',Q')=1$: every irreducible factor $f$ of each $Q'_B$ leaves a nonzero remainder on $P'_B$, "
            r"and blocks on disjoint variables share no factor.",
            ("exp-form", "lemma:LP"), "coprime", coprimality_evidence(form),
        )
    )
    claims.append(
        Claim(
            "upper", "construction", "Construction",
            rf"The product head built from the blocks represents $F$ exactly with ${_tex_int(upper)}$ atoms; "
            rf"hence $m^*(F)\le {_tex_int(upper)}$.",
            ("exp-form", "lemma:L1", "lemma:LP"), "construction", construction_evidence(form, MAX_CERT_ATOMS),
        )
    )
    newton_deps = ("exp-form", "coprime", "lemma:L4", "lemma:L5", "lemma:LP") + (("lemma:LZ",) if "LZ" in lemma_ids else ())
    claims.append(
        Claim(
            "lower:newton", "lower-bound", "Newton-polytope bound",
            rf"$\operatorname{{Newt}}(Q')$ has ${_tex_int(newton.count)}$ vertices, each with an integer witness; "
            rf"hence $m^*(F)\ge {_tex_int(newton.count)}$.",
            newton_deps, "newton", newton_evidence(newton, MAX_CERT_ATOMS),
        )
    )
    lower_ids = ["lower:newton"]
    lower = newton.count
    if tree is not None and face is not None:
        claims.append(
            Claim(
                "lower:face", "lower-bound", "Face-limit bound",
                rf"The face-limit recursion (Table~\ref{{tab:faces}}) gives $m^*(F)\ge {_tex_int(face)}$.",
                ("def:F", "lemma:L6"), "face-limits", face_evidence(tree),
            )
        )
        lower_ids.append("lower:face")
        lower = max(lower, face)
    search_ids: list[str] = []
    solver_lower = None
    best_sat = None
    for result in search_results or []:
        m = result["atoms"]
        cid = f"search:m{m}"
        if result["status"] == "unsat":
            statement = (
                rf"{latex_escape(result['solver']['name'])} {latex_escape(result['solver']['version'])} reports "
                rf"\emph{{unsat}} for a head with at most {m} atoms (query hash \texttt{{{result['query_sha256'][:16]}}}\dots); "
                r"this is solver evidence, not a checkable proof."
            )
            solver_lower = max(solver_lower or 0, m + 1)
        elif result["status"] == "sat":
            statement = rf"A head with {len(result['head']['atoms_list'])} atoms represents $F$ exactly (found by the solver, checked exactly)."
            best_sat = min(best_sat or upper, len(result["head"]["atoms_list"]))
        else:
            statement = rf"The solver did not decide $m={m}$ within its time limit (\emph{{unknown}})."
        claims.append(
            Claim(cid, "search", f"Search with {m} atoms", statement,
                  ("def:F", "lemma:L2", "lemma:L3", "lemma:L4") + (("lemma:LS",) if result.get("options", {}).get("faces") else ()),
                  "search-" + result["status"], result)
        )
        search_ids.append(cid)
    upper_final = min(upper, best_sat) if best_sat else upper
    if lower == upper_final:
        status, minimum = "proved", lower
        statement = rf"$m^*(F)={_tex_int(lower)}$."
    elif solver_lower is not None and solver_lower >= upper_final:
        status, minimum = "solver", upper_final
        statement = rf"$m^*(F)={_tex_int(upper_final)}$, where the lower bound rests on the solver's \emph{{unsat}} verdicts."
    else:
        status, minimum = "bounds", None
        low = max(lower, solver_lower or 0)
        statement = rf"${_tex_int(low)}\le m^*(F)\le {_tex_int(upper_final)}$."
    theorem_deps = tuple(["upper"] + lower_ids + search_ids)
    claims.append(
        Claim(
            "theorem", "theorem", "Theorem", statement, theorem_deps, "theorem",
            {"lower_proved": lower, "upper": upper_final, "status": status, "minimum": minimum,
             "solver_lower": solver_lower},
        )
    )
    ordered = topological_order(claims)
    return {
        "format": FORMAT,
        "spec": {"text": spec.text, "d": spec.d, "kind": spec.kind, "title": spec.title, "slug": spec.slug},
        "model": model_json,
        "summary": {
            "dimension": model.dimension,
            "heads": len(model.heads),
            "head_atom_terms": model.head_atom_terms,
            "lower_bound": lower,
            "upper_bound": upper_final,
            "minimum": minimum,
            "status": status,
            "newton_vertices": newton.count,
            "face_limit_bound": face,
            "face_limit_note": face_note,
            "search_note": search_note,
        },
        "claims": [c.to_json() for c in ordered],
        "metadata": {"versions": versions(), "command": command},
    }


def _tex_int(value: int) -> str:
    text = str(value)
    if len(text) <= 30:
        return text
    return rf"2^{{{value.bit_length() - 1}}}" if value & (value - 1) == 0 else rf"{text[:8]}\dots\ ({len(text)}\text{{ digits}})"


def _tex_rational(value: Fraction) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return rf"{sign}\tfrac{{{abs(value.numerator)}}}{{{value.denominator}}}"

