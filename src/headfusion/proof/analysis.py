"""`analyze`: the function, its heads, the exponential-family form and the fused head.

Pure: takes a Spec, returns JSON-ready data.  Printing happens in cli/analyze.py.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import islice
from typing import IO, Callable, Iterator

from headfusion.algebra.expform import ExpForm, exponential_form, x_support
from headfusion.algebra.fused import atom_dicts, atom_texts, check_list_size
from headfusion.spec.numbers import rational_to_json
from headfusion.algebra.exact import t_poly_text
from headfusion.algebra.laurent import LPoly, exact_divide
from headfusion.spec.load import Spec
from headfusion.bounds.constructions import block_kind, closed_forms, form_kind
from headfusion.bounds.engine import ORDER, FunctionBounds, function_bounds
from headfusion.solving.construct import best_construction
from headfusion.bounds.facelimits import face_limit, fold_constants
from headfusion.bounds.lower import MAX_LISTED_WITNESSES, vertex_witnesses
from headfusion.bounds.tournament4 import theorem_k_instance
from headfusion.spec.display import function_text
from headfusion.proof.evidence import bezout_refusal

MAX_FORM_BLOCKS_SHOWN = 12
CONSTRUCT_SECONDS = 6.0  # analyze's budget for the construction search (only where the bounds do not meet) ...
CONSTRUCT_POINTS = 50  # ... and its size limit: MIPs of at most this many points (larger boxes are certify's)
CONSTRUCTION_NAMES = {"product": "fused head (naive product for some blocks)", "reduced": "reduced fused head (P', Q')",
                      "uniform": "uniform head (keys 0..L-1 on a line, D = g*Q')",
                      "interval": "interval head (Lemma IH: D = g*Q' positive on every key 0..deg D of a line)",
                      "blocks": "product of block heads (a partition of the heads)",
                      "search": "construction search (a MIP over the cofactor g, solved again exactly)"}
MAX_FORM_TERMS_SHOWN = 64


def poly_text(poly: LPoly, names: list[str], scale: int) -> str:
    """Human/sympy-style text of a polynomial in (x…, t), t shown as exp(k/L)."""
    if not poly:
        return "0"
    grouped = x_support(poly)
    parts = []
    for x in sorted(grouped):
        coef = grouped[x]
        monomial = "*".join(
            (name if e == 1 else f"{name}^{e}") for name, e in zip(names, x) if e
        )
        if set(coef) == {0}:
            c = coef[0]
            text = monomial if c == 1 and monomial else (f"-{monomial}" if c == -1 and monomial else None)
            if text is None:
                text = f"{rational_to_json(c)}" + (f"*{monomial}" if monomial else "")
        else:
            text = f"({t_poly_text(coef, scale)})" + (f"*{monomial}" if monomial else "")
        parts.append(str(text))
    out = " + ".join(parts).replace("+ -", "- ")
    return out


def block_variable_names(form: ExpForm, index: int) -> tuple[list[str], list[str]]:
    """Names of a block's lattice variables and their definitions in q."""
    block = form.blocks[index]
    names, definitions = [], []
    for i in range(block.rank):
        vector = block.basis.point(tuple(1 if j == i else 0 for j in range(block.rank)))
        nonzero = [(block.variables[j], v) for j, v in enumerate(vector) if v]
        if len(nonzero) == 1 and nonzero[0][1] == 1:
            name = f"x{nonzero[0][0] + 1}"
        else:
            name = f"y{index + 1}_{i + 1}"
        linear = " + ".join(f"{rational_to_json(v)}*q{j + 1}" if v != 1 else f"q{j + 1}" for j, v in nonzero)
        names.append(name)
        definitions.append(f"{name} = exp({linear})")
    return names, definitions


def exp_form_json(form: ExpForm) -> dict:
    """Compact exponential-family form: per block Q′_B and P′_B (first blocks only when many)."""
    blocks = []
    for i, block in enumerate(form.blocks[:MAX_FORM_BLOCKS_SHOWN]):
        names, definitions = block_variable_names(form, i)
        small = len(block.Q_reduced) <= MAX_FORM_TERMS_SHOWN and len(block.P_reduced) <= MAX_FORM_TERMS_SHOWN
        blocks.append(
            {
                "heads": [form.model.heads[h].label for h in block.head_indices],
                "variables": definitions,
                "Q_reduced": poly_text(block.Q_reduced, names, form.t_scale) if small else None,
                "P_reduced": poly_text(block.P_reduced, names, form.t_scale) if small else None,
                "Q_reduced_terms": len(x_support(block.Q_reduced)),
                "factors_removed": sum(f.in_gcd for f in block.factors),
            }
        )
    return {
        "t": None if form.t_scale == 1 else f"exp(1/{form.t_scale})",
        "constant": rational_to_json(form.constant),
        "blocks_total": len(form.blocks),
        "blocks_shown": len(blocks),
        "blocks": blocks,
        "Q_reduced_terms": form.reduced_support_size,
    }


def construction_json(form: ExpForm, product_size: int) -> dict:
    """How the head was found: its kind, size, the product head's size, and per block D_B = g·Q′_B (first blocks)."""
    blocks = []
    for i, block in enumerate(form.blocks[:MAX_FORM_BLOCKS_SHOWN]):
        names, _ = block_variable_names(form, i)
        entry = {"block": i + 1, "kind": block_kind(block), "atoms": block.head_size}
        if block.construction is not None:
            g = exact_divide(block.construction[1], block.Q_reduced)
            small = len(block.construction[1]) <= MAX_FORM_TERMS_SHOWN
            entry["D"] = poly_text(block.construction[1], names, form.t_scale) if small else None
            entry["cofactor"] = poly_text(g, names, form.t_scale) if g is not None and small else None
        blocks.append(entry)
    return {"kind": form_kind(form), "atoms": form.upper_bound, "product_head_atoms": product_size, "blocks": blocks}


class AtomStream:
    """A fused head's atom list generated on demand: `write_json` streams it as text.

    Iterating gives the atoms' JSON dicts (as the list form holds them), in order.
    """

    def __init__(self, form: ExpForm):
        self.form = form

    def __len__(self) -> int:
        return self.form.upper_bound

    def __iter__(self) -> Iterator[dict]:
        return atom_dicts(self.form)

    def texts(self, indent: int) -> Iterator[str]:
        return atom_texts(self.form, indent)


def analyze(spec: Spec, list_atoms: bool = True, with_bounds: bool = True, stream: bool = False, preview: int = 0,
            progress: Callable[[str], None] | None = None, construct_seconds: float = CONSTRUCT_SECONDS) -> dict:
    """Everything `headfusion analyze` reports, as JSON-ready data.

    With stream=True the atom list is an `AtomStream` (larger lists allowed), to be
    written by `write_json`; otherwise a list of dicts.  With preview=k > 0 (the text
    output) only the first k atoms are generated, as `atoms_preview`, and no list size
    limit applies.  `progress(text)` is told each stage.  The head reported is the best construction
    (`bounds.constructions`, then the MIP search of `solving.construct` for at most `construct_seconds`
    where the bounds do not meet).
    """
    step = progress or (lambda text: None)
    model = spec.model
    step("exponential-family form")
    form = exponential_form(model)
    product_size = form.upper_bound
    form = closed_forms(form)  # cheap: the product head, Q′, uniform heads and products of block heads
    if list_atoms and not preview:
        check_list_size(form, stream)  # before the bounds: refuse early
    bounds = None
    if with_bounds:
        step(f"lower bounds ({len(form.blocks)} block(s))")
        bounds = function_bounds(model)
        if construct_seconds > 0 and bounds.best[0] < form.upper_bound:
            form = best_construction(form, bounds.best[0], seconds=construct_seconds, progress=step, max_points=CONSTRUCT_POINTS)
    upper = form.upper_bound
    result: dict = {
        "spec": spec.text,
        "title": spec.title,
        "dimension": model.dimension,
        "heads": len(model.heads),
        "head_atom_terms": model.head_atom_terms,
        "upper_bound": upper,
        "upper_bound_method": CONSTRUCTION_NAMES[form_kind(form)],
        "naive_fused_atoms": form.naive_size,
        "construction": construction_json(form, product_size),
        "lower_bound": None,
        "lower_bound_method": None,
        "minimum": None,
        "exponential_form": exp_form_json(form),
        "fused_head": {"atoms": upper},
        "certify_refusal": bezout_refusal(form),  # why certify would refuse this function up front (None: it would not)
    }
    if result["certify_refusal"]:
        result["certify_instead"] = family_certificate(model)
    if bounds is not None:
        result.update(lower_bounds_report(form, bounds=bounds))
    if list_atoms and preview:
        result["fused_head"]["atoms_preview"] = list(islice(atom_dicts(form), preview))
    elif list_atoms:
        step(f"fused head: {upper} atoms")
        result["fused_head"]["atoms_list"] = AtomStream(form) if stream else list(atom_dicts(form))
    return result


PAIR = re.compile(r"sigmoid\(([1-9][0-9]*\*)?q1\) \+ sigmoid\(([1-9][0-9]*\*)?q1\)\Z")  # σ(a·q1) + σ(b·q1), a, b > 0


def family_certificate(model) -> str | None:
    """The `certify` command of a family theorem that has F as a member (Theorem P: σ(a·q1) + σ(b·q1), a ≠ b), else None."""
    pair = PAIR.match(function_text(model))
    if pair and pair[1] != pair[2]:
        return 'headfusion certify "sigmoid(a*q1) + sigmoid(b*q1)" --every a,b'
    return None


_PLACEHOLDER = "\x00headfusion atom stream\x00"


def write_json(data: dict, out: IO[str], chunk: int = 2048) -> None:
    """Write `json.dumps(data, indent=2) + "\\n"` to out, streaming an `AtomStream` atom list.

    The bytes are those of the list form: the rest of the object is encoded by json with a
    placeholder for the list, and the atoms are written between, `chunk` at a time.
    """
    atoms = data.get("fused_head", {}).get("atoms_list")
    if not isinstance(atoms, AtomStream):
        out.write(json.dumps(data, indent=2) + "\n")
        return
    data = {**data, "fused_head": {**data["fused_head"], "atoms_list": _PLACEHOLDER}}
    text = json.dumps(data, indent=2) + "\n"
    before, marker, after = text.partition(json.dumps(_PLACEHOLDER))
    assert marker, "placeholder not found"
    indent = len(before.rpartition("\n")[2]) - len(before.rpartition("\n")[2].lstrip(" "))
    out.write(before)
    pending: list[str] = []
    first = True
    for item in atoms.texts(indent + 2):
        pending.append(item)
        if len(pending) >= chunk:
            out.write(("[\n" if first else ",\n") + ",\n".join(pending))
            pending, first = [], False
    if pending:
        out.write(("[\n" if first else ",\n") + ",\n".join(pending))
        first = False
    out.write("[]" + after if first else "\n" + " " * indent + "]" + after)


MAX_REPORTED_BLOCKS = 12  # analyze lists the instances of the first blocks only (as the exponential form does)


def _tilt_json(tilt, scale: int) -> list[str]:
    """ρ_c = r_c·e^(s_c/L) as text ("1" when there is no tilt in that coordinate)."""
    out = []
    for r, s in tilt:
        parts = ([] if r == 1 and s else [str(rational_to_json(r))]) + ([f"exp({rational_to_json(Fraction(s, scale))})"] if s else [])
        out.append("*".join(parts))
    return out


METHOD_NAMES = {"L5": "newton-polytope (L4, L5)", "LK": "residue-classes (LK)", "LU": "unit-roots (LU)", "LG": "graph (LG, LE)", "LE": "rigid-edges (LE)", "LH": "hexagon (LH, LM)",
                "LS": "slices (LS, LM)", "LD": "disjoint-faces (LD)", "V3": "three-slices (V3, LM)", "V2": "two-adic (V2, LM)",
                "K": "theorem-k (K, LN)", "R": "restriction-to-a-line (R)",
                "PB": "pairs-with-biases (PB)",
                "P4": "two-scales (P4)",
                "K35": "grid (W14, K35, M12, LM)"}


def _multiple_json(m) -> dict:
    """A μ certificate for the JSON: its method and value, nested for slices."""
    out: dict = {"method": m.method, "mu": m.value}
    if m.method == "slices":
        out.update({"omega": list(m.omega), "roots": [[rational_to_json(-r), k] for r, k in m.roots], "A": m.inner and _multiple_json(m.inner)})
    elif m.method == "three-slices":
        out.update({"omega": list(m.omega), "c": m.edge, "A": _multiple_json(m.inner), "lines": _multiple_json(m.lines)})
    elif m.method == "two-adic":
        out["levels"] = [[a, rational_to_json(c), s] for a, c, s in m.levels]
        if m.modulus is not None:
            out.update({"modulus": m.modulus, "class": [[a, rational_to_json(c), s] for a, c, s in m.klass]})
    elif m.method == "grid":
        out["lemma"] = m.lemma
    return out


def lower_bounds_report(form: ExpForm, witness_cap: int = MAX_LISTED_WITNESSES, bounds: FunctionBounds | None = None) -> dict:
    """The lower-bound fields of `analyze`, from the bound engine (every lemma; LD recursively).

    `lower_bound_method` names the lemma of the strongest bound and `lower_bounds` gives each lemma's; `residue_classes`,
    `rigid_edges`, `multiples` and `disjoint_faces` carry their instances (class sums; tree edges with witnesses and face
    limits; per block the μ certificate; the faces with their face functions and the lemma that bounds each).
    """
    bounds = bounds or function_bounds(form.model)
    newton, structure = bounds.newton, bounds.structure
    bound, lemma = bounds.best
    upper = form.upper_bound
    assert bound <= upper, "a lower bound above a constructed head: a bug"
    result: dict = {"lower_bound": bound, "lower_bound_method": METHOD_NAMES[lemma], "minimum": bound if bound == upper else None,
                    "lower_bounds": {k: v for k, v in sorted(bounds.found.items(), key=lambda kv: ORDER.index(kv[0]))},
                    "vertices": newton.count,
                    "newton_evidence": "explicit" if newton.explicit and newton.count <= witness_cap else "structural"}
    if newton.explicit and newton.count <= witness_cap:
        result["vertex_witnesses"] = list(vertex_witnesses(newton, witness_cap))
    scale = form.t_scale
    classes = None
    if structure.class_bound is not None:
        blocks = []
        for i, found in enumerate(structure.classes):
            if found is None or len(blocks) >= MAX_REPORTED_BLOCKS:
                continue
            blocks.append({"block": i + 1, "index": found.index, "lattice": [list(row) for row in found.basis],
                           "tilt": _tilt_json(found.tilt, scale),
                           "class_sums": [{"class": list(rep), "sum": t_poly_text(dict(s), scale)} for rep, s in found.sums]})
        classes = {"bound": structure.class_bound, "t": None if scale == 1 else f"exp(1/{scale})",
                   "blocks_with_classes": sum(1 for c in structure.classes if c is not None), "blocks": blocks}
    edges = None
    if structure.edges is not None:
        blocks = []
        for i, (block, tree) in enumerate(zip(form.blocks, structure.edges.trees)):
            if len(blocks) >= MAX_REPORTED_BLOCKS:
                break
            names = [f"x{k + 1}" for k in range(block.rank)]
            rows = []
            for e in tree:
                shift = lambda p: LPoly(block.rank + 1, {tuple(a - b for a, b in zip(x[:-1], e.u)) + x[-1:]: c for x, c in p.items()})  # noqa: E731
                rows.append({"u": list(e.u), "w": list(e.w), "witness": list(e.witness),
                             "face_limit": f"({poly_text(shift(e.face_P), names, scale)}) / ({poly_text(shift(e.face_Q), names, scale)})"})
            blocks.append({"block": i + 1, "edges": rows})
        edges = {"bound": structure.edges.bound, "vertices": structure.edges.vertices, "support": structure.edges.support,
                 "blocks": blocks}
    multiples = None
    if bounds.multiple_bound is not None:
        multiples = {"bound": bounds.multiple_bound, "lemma": bounds.multiple_lemma,
                     "blocks": [{"block": i + 1, **_multiple_json(m)} for i, m in enumerate(bounds.multiples) if m is not None][:MAX_REPORTED_BLOCKS]}
    faces = None
    if bounds.faces is not None:
        rows = []
        for face in bounds.faces.faces:
            sub = bounds.table.get(face.form) if face.form else None
            rows.append({"direction": _dense(face.direction, form.model.dimension), "function": function_text(fold_constants(face_limit(form.model, face.direction))),
                         "bound": face.value, "lemma": sub.best[1] if sub is not None else "constant"})
        faces = {"bound": bounds.faces.value, "faces": rows}
    unit = bounds.unit_roots
    result["unit_roots"] = None if unit is None else {"bound": unit.bound, "orders": list(unit.orders), "lcm": unit.lcm,
                                                      "halving": unit.halving, "term": unit.term}
    result["residue_classes"], result["rigid_edges"], result["multiples"], result["disjoint_faces"] = classes, edges, multiples, faces
    result["theorem_k"] = None if bounds.theorem_k is None else {"bound": bounds.theorem_k, **theorem_k_instance(form)}  # K_4 (Theorem K)
    line = bounds.line  # Lemma R: the best line the engine bounded (certify may close f_u by a tree)
    result["line"] = None if line is None else {"direction": _dense(line.direction, form.model.dimension), "bound": line.value}
    return result


def _dense(direction: tuple, dimension: int) -> list:
    out = [0] * dimension
    for j, v in direction:
        out[j] = rational_to_json(v)
    return out
