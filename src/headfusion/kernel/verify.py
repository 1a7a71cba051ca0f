"""The kernel's entry point: replay every claim of a certificate, exactly, with no solver.

The certificate is data.  The kernel decides which check applies from the claim's id
(never from a field the certificate chooses), recomputes each claim's dependencies,
statement and facts, and recomputes the summary.  The theorem states only what the
checked claims prove; solver testimony is reported as such and supports nothing.
F is the certificate's explicit list of heads (`model`: keys, weights, values), read by
`model.model_from_json`; that the spec text gives the same list is checked outside the kernel.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from headfusion.kernel import checks, cyclotomic, faces, graphs, lines, multiples, statements as say, structure, tournament4
from headfusion.kernel import oneline
from headfusion.kernel.base import CheckFailed, SchemaError, require, sha256
from headfusion.kernel.model import Model, model_from_json

FORMAT = "headfusion-certificate/3"
KINDS: dict[str, tuple[str, str, Callable]] = {  # check: (kind, title, function)
    "definition": ("definition", "The function", checks.check_definition),
    "exp-form": ("identity", "Exponential-family form", checks.check_exp_form),
    "coprime": ("coprimality", "Lowest terms", checks.check_coprime),
    "construction": ("construction", "Construction", checks.check_construction),
    "newton": ("lower-bound", "Newton-polytope bound", checks.check_newton),
    "classes": ("lower-bound", "Residue-class bound", structure.check_classes),
    "edges": ("lower-bound", "Rigid-edge bound", structure.check_edges),
    "graph": ("lower-bound", "Graph bound", graphs.check_graph),
    "hexagon": ("lower-bound", "Hexagon bound", lambda m, e, f: multiples.check_multiples("LH", m, e, f)),
    "slices": ("lower-bound", "Slice bound", lambda m, e, f: multiples.check_multiples("LS", m, e, f)),
    "three-slices": ("lower-bound", "Three-slice bound", lambda m, e, f: multiples.check_multiples("V3", m, e, f)),
    "two-adic": ("lower-bound", "2-adic bound", lambda m, e, f: multiples.check_multiples("V2", m, e, f)),
    "grid": ("lower-bound", "Grid bound", lambda m, e, f: multiples.check_multiples("grid", m, e, f)),
    "faces": ("lower-bound", "Disjoint-face bound", lambda m, e, f: faces.check_faces(m, e, f, SUB_CHECKS)),
    "unit-roots": ("lower-bound", "Unit-root bound", cyclotomic.check_unit_roots),
    "pairs": ("lower-bound", "Pairs of scales", cyclotomic.check_pairs),
    "pair-biased": ("lower-bound", "Pairs with biases", oneline.check_pair_biased),
    "two-scales": ("lower-bound", "Two scales", oneline.check_two_scales),
    "every-bias": ("lower-bound", "Pairs with every bias", oneline.check_pairs_every_bias),
    "theorem-k": ("lower-bound", "Four-vertex tournament bound", tournament4.check_theorem_k),
    "line": ("lower-bound", "Restriction to a line", lambda m, e, f: lines.check_line(m, e, f, LINE_CHECKS)),
    "family": ("family", "Family of graphs", graphs.check_family),
    "refutation": ("refutation", "No smaller head", checks.check_refutation),
    "head": ("construction", "A smaller head", checks.check_head),
    "testimony": ("testimony", "Solver testimony", checks.check_testimony),
    "unknown": ("undecided", "Undecided search", checks.check_unknown),
}
FIXED = {"def:F": "definition", "exp-form": "exp-form", "coprime": "coprime", "upper": "construction",
         "lower:newton": "newton", "lower:classes": "classes", "lower:edges": "edges", "lower:hexagon": "hexagon",
         "lower:slices": "slices", "lower:three-slices": "three-slices", "lower:two-adic": "two-adic", "lower:faces": "faces", "lower:graph": "graph", "lower:unit-roots": "unit-roots", "lower:pairs": "pairs",
         "family:graphs": "family", "lower:theorem-k": "theorem-k", "lower:line": "line",
         "lower:pair-biased": "pair-biased",
         "lower:two-scales": "two-scales",
         "lower:every-bias": "every-bias",
         "lower:grid": "grid"}
LOWER = ("lower:classes", "lower:graph", "lower:edges", "lower:hexagon", "lower:slices", "lower:three-slices", "lower:two-adic", "lower:faces", "lower:theorem-k", "lower:line",
         "lower:grid")  # claims stating a "bound"
MULTIPLICATIVE = ("lower:newton", "lower:classes", "lower:hexagon", "lower:slices", "lower:three-slices", "lower:two-adic",
                  "lower:grid")  # bounds on μ(Q′): they hold for every d (LP, LM)
REQUIRED = ("def:F", "exp-form", "coprime", "upper", "lower:newton", "theorem")
_ = None  # FIELDS: every field a check may find in its evidence ({...} a table, [x] a list of x); any other fails
FIELDS: dict[str, object] = {"exp-form": {"t_scale": _, "shapes": [{"denominator": _, "rows": _, "P": _, "Q": _}], "blocks": [
    {"shape": _, "heads": _, "variables": _}]}, "construction": {"heads": [{"N": _, "D": _, "found": _}]}, "newton": {"shapes": [{"method": _, "vertices": _}]},
    "coprime": {"shapes": [{"factors": [{"poly": _, "multiplicity": _, "reason": _, "substitution": _, "A": _, "B": _}]}]},
    "faces": {"faces": _, "functions": _}, "graph": {}, "hexagon": {"shapes": _}, "slices": {"shapes": _}, "three-slices": {"shapes": _}, "two-adic": {"shapes": _}, "unknown": {"atoms": _, "reason": _},
    "refutation": {"atoms": _, "tree": _, "multipliers": _, "symmetries": _}, "head": {"atoms": _, "head": [{"key": _, "weight": _, "value": _}]},
    "testimony": {"atoms": _, "verdict": _, "query_sha256": _, "options": _, "solvers": [{"name": _, "version": _, "verdict": _}]},
    "classes": {"shapes": [{"lattice": _, "tilt": _, "sums": _}]}, "edges": {"shapes": [{"edges": _}]}, "unit-roots": {"orders": _}, "pairs": {}, "family": {"class": _, "from": _, "to": _},
    "theorem-k": {"faces": _, "pairs": _}, "line": {"direction": _, "function": _},
    "pair-biased": {"terms": _},
    "two-scales": {"terms": _},
    "every-bias": {},
    "grid": {"shapes": _}}
MODEL_FIELDS = {"dimension": _, "constant": _, "heads": [{"label": _, "scale": _, "atoms": [{"key": _, "weight": _, "value": _}]}]}  # F: what a reader compares with the paper


def known_fields(value: object, schema: object, where: str = "evidence") -> None:
    """CheckFailed if a table in `value` has a field `schema` does not name: nothing unread is accepted."""
    if isinstance(schema, dict) and isinstance(value, dict):
        require(set(value) <= set(schema), f"unknown fields {sorted(set(value) - set(schema))[:5]} in {where}")
        for key, item in value.items():
            known_fields(item, schema[key], f"{where}.{key}")
    elif isinstance(schema, list) and isinstance(value, list):
        for item in value:
            known_fields(item, schema[0], where)


def _sub_check(check: str) -> Callable:
    """A check as a face function's claim gets it: its fields checked first."""
    def run(model: Model, ev: dict, facts: dict) -> tuple:
        known_fields(ev, FIELDS.get(check))
        return KINDS[check][2](model, ev, facts)
    return run


SUB_CHECKS = {cid: _sub_check(FIXED[cid]) for cid in ("exp-form", "coprime", "lower:newton", "lower:unit-roots") + LOWER}
LINE_CHECKS = {**SUB_CHECKS, "refutation": _sub_check("refutation")}  # f_u's claims (Lemma R): also a tree over its own box


@dataclass(frozen=True)
class Report:
    """Per claim: (id, kind, outcome, message); outcome is checked, failed, testimony or undecided.

    `shown` is what a reader is shown, never the certificate's own text: (F in canonical form from
    the checked model, the title as the spec parser printed it, the theorem's statement as generated);
    the kernel fills the theorem, `proof.statement` the other two."""

    rows: tuple[tuple[str, str, str, str], ...]
    shown: tuple[str, str, str] = ("", "", "")

    @property
    def ok(self) -> bool:
        return any(r[0] == "theorem" and r[2] == "checked" for r in self.rows) and all(r[2] != "failed" for r in self.rows)


def check_of(claim_id: str) -> str:
    """Which check a claim id gets (CheckFailed for an id the kernel does not know)."""
    if claim_id in FIXED:
        return FIXED[claim_id]
    if re.fullmatch(r"(search|testimony|unknown):m([1-9][0-9]{0,6})", claim_id):
        return claim_id.split(":")[0]
    if claim_id.startswith("lemma:") and claim_id[6:] in say.LEMMAS:
        return "lemma"
    require(claim_id == "theorem", f"unknown claim id {claim_id!r}")
    return "theorem"


def theorem_facts(facts: dict, every_d: bool = False, every: list | None = None, graphs: bool = False) -> tuple[dict, list[str], str]:
    """The theorem's numbers, dependencies and statement from the checked claims.

    The lower bound is the strongest checked one, the upper the least; `lower_by` names the first claim
    that gives it, and the theorem depends on exactly the claims that give its two numbers (others stay
    checked but unused).  For every d (Lemma LP over d disjoint copies of the block): X^d ≤ m*(F_d) ≤ A^d,
    with X the block's Newton or residue-class bound (LK mixes with L5 per block) and A its construction;
    searches, faces, graphs and rigid edges of the block are not used (they do not multiply).  For the family of
    Theorem P (`every`): its lower bound and the lift's construction (restricted to every member) only.
    """
    found = [("lower:newton", facts["lower:newton"]["count"])] + [(i, facts[i]["bound"]) for i in LOWER if i in facts]
    uppers = [("upper", facts["upper"]["atoms"])] + ([] if every_d else [(i, f["upper"]) for i, f in facts.items() if "upper" in f])
    if every_d and not graphs:
        found = [(i, b) for i, b in found if i in MULTIPLICATIVE]
    else:
        found += [(i, f["lower"]) for i, f in facts.items() if "lower" in f]
    if every:  # two names: Theorem P (lower:pairs); a, b and two biases: Theorem Pβ (lower:every-bias)
        family = "lower:pairs" if len(every) == 2 else "lower:every-bias"
        require(family in facts, f"the theorem for every pair rests on claim {family}")
        found, uppers = [(family, facts[family]["pairs"])], uppers[:1]
    (by, lower), (upper_by, upper) = max(found, key=lambda item: item[1]), min(uppers, key=lambda item: item[1])
    require(lower <= upper, f"checked bounds contradict each other ({lower} > {upper})")
    status = "proved" if lower == upper else "bounds"
    expected = {"lower": lower, "upper": upper, "minimum": lower if lower == upper else None, "status": status, "lower_by": by}
    if graphs:  # Lemma LF on the class of the members; the numbers are the first member's
        require("family:graphs" in facts, "the theorem for a family of graphs rests on claim family:graphs")
        return expected, sorted({by, upper_by, "family:graphs"}), say.graph_theorem(facts["family:graphs"]["class"], facts["family:graphs"]["from"])
    deps = sorted({by, upper_by} | ({"lemma:LP"} if every_d else set()))
    return expected, deps, say.every_pair(lower, upper, every, facts[by].get("signs")) if every else say.every_d(lower, upper) if every_d else say.theorem(lower, upper)


def summary(model: Model, facts: dict, every_d: bool = False) -> dict:
    """The summary every certificate carries, recomputed from checked facts."""
    theorem = facts["theorem"]
    return {
        "dimension": model.dimension, "heads": len(model.heads), "head_atom_terms": facts["def:F"]["terms"],
        "lower_bound": theorem["lower"], "upper_bound": theorem["upper"], "minimum": theorem["minimum"],
        "status": theorem["status"], "newton_vertices": facts["lower:newton"]["count"],
        **{f"{name}_bound": facts[i]["bound"] if i in facts else None for i, name in (
            ("lower:classes", "residue_class"), ("lower:graph", "graph"), ("lower:edges", "rigid_edge"), ("lower:hexagon", "hexagon"),
            ("lower:slices", "slice"), ("lower:three-slices", "three_slice"), ("lower:two-adic", "two_adic"), ("lower:faces", "disjoint_face"))},
        "lower_bound_claim": theorem["lower_by"],
        "refutations": sum(1 for i in facts if i.startswith("search:") and "lower" in facts[i]),
        "testimony_lower": max((f["testimony"] for f in facts.values() if "testimony" in f), default=None),
        "every_d": every_d,
    }


def check_schema(cert: object) -> None:
    """SchemaError unless `cert` has the certificate's top-level shape."""
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise SchemaError(f"not a headfusion certificate (format {FORMAT} expected)")
    for key, kind in (("spec", dict), ("model", dict), ("summary", dict), ("claims", list)):
        if not isinstance(cert.get(key), kind):
            raise SchemaError(f"field '{key}' missing or not a {kind.__name__}")
    if not set(cert) <= {"format", "spec", "model", "summary", "claims", "metadata"}:
        raise SchemaError(f"unexpected top-level fields {sorted(set(cert) - {'format', 'spec', 'model', 'summary', 'claims', 'metadata'})}")
    if not isinstance(cert.get("metadata", {}), dict) or not set(cert.get("metadata", {})) <= {"note", "versions", "command", "notes"}:
        raise SchemaError("metadata must be a table of the fields note, versions, command and notes")


def verify_certificate(cert: object, members: dict | None = None) -> Report:
    """Replay every claim of a parsed certificate about F as its explicit list of heads, `model` (SchemaError: not a
    certificate, or over a limit).  The spec text is not read here: that it gives the same list is checked outside
    the kernel (`proof.statement`), which also builds a family of graphs' `members` n_0..8 (model JSON) for Lemma LF."""
    check_schema(cert)
    rows: list[tuple[str, str, str, str]] = []
    facts: dict[str, dict] = {}
    try:
        known_fields(cert["model"], MODEL_FIELDS, "the model")
        require(all(isinstance(cert["spec"].get(k), t) for k, t in (("every_d", bool), ("every", (list, type(None))))), "malformed spec flags")
        model = model_from_json(cert["model"])
        members_read = {n: model_from_json(m) for n, m in (members or {}).items()}
    except (CheckFailed, KeyError, TypeError) as exc:
        return Report((("def:F", "definition", "failed", str(exc)),))
    facts["_"] = {"model_sha256": sha256(cert["model"]), "every": cert["spec"].get("every"), "members": members_read}
    ids = [c.get("id") if isinstance(c, dict) else None for c in cert["claims"]]
    repeats = Counter(i for i in ids if isinstance(i, str))
    for claim in cert["claims"]:
        cid = claim.get("id") if isinstance(claim, dict) else None
        try:
            require(isinstance(cid, str) and repeats[cid] == 1, f"claim id {cid!r} missing or repeated")
            check = check_of(cid)
            require(set(claim) == {"id", "kind", "title", "statement", "depends_on", "evidence"}, "unexpected claim fields")
            require(isinstance(claim["depends_on"], list) and all(isinstance(d, str) for d in claim["depends_on"]),
                    "depends_on must be a list of claim ids")
            if check == "lemma":
                name, deps, text = say.LEMMAS[cid[6:]]
                require(claim["evidence"] == {}, "a lemma's claim carries no evidence")
                found, deps, kind, title = {}, [f"lemma:{d}" for d in deps], "lemma", f"Lemma {cid[6:]} ({name})"
            elif check == "theorem":
                found, deps, text = theorem_facts(facts, cert["spec"]["every_d"], cert["spec"].get("every"), cert["spec"].get("graphs") is True)
                require(claim["evidence"] == found, "the theorem's numbers differ from its checked claims")
                kind, title = "theorem", "Theorem"
            else:
                if check == "search":
                    check = "refutation" if "tree" in claim["evidence"] else "head"
                    require(claim["evidence"].get("atoms") == int(cid.split(":m")[1]), "the claim id and its m differ")
                kind, title, function = KINDS[check]
                known_fields(claim["evidence"], FIELDS.get(check))
                missing = [d for d in claim["depends_on"] if d not in facts]
                require(not missing, f"depends on {missing}, not checked before it")
                found, deps, text = function(model, claim["evidence"], {**facts, **facts["_"]})
            require(sorted(claim["depends_on"]) == sorted(deps), f"dependencies {claim['depends_on']} differ from those its check uses {sorted(deps)}")
            require(all(d in facts for d in deps), f"depends on claims not checked before it: {[d for d in deps if d not in facts]}")
            require(claim["kind"] == kind and claim["title"] == title, "kind or title differ from the claim's check")
            require(claim["statement"] == text, "the statement differs from what its checked numbers say")
            facts[cid] = found
            outcome = {"testimony": "testimony", "unknown": "undecided"}.get(check, "checked")
            rows.append((cid, kind, outcome, "ok" if outcome == "checked" else "not a proof"))
        except CheckFailed as exc:
            rows.append((str(cid), str(claim.get("kind") if isinstance(claim, dict) else "?"), "failed", str(exc)))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError) as exc:
            rows.append((str(cid), "?", "failed", f"malformed evidence ({type(exc).__name__}: {exc})"))
    problems = [r for r in REQUIRED if r not in facts]
    used = {d for c in cert["claims"] if isinstance(c, dict) and isinstance(c.get("depends_on"), list)
            for d in c["depends_on"] if isinstance(d, str)}
    lemmas = {i for i in facts if i.startswith("lemma:")}
    if lemmas - used:
        problems.append(f"unused lemmas {sorted(lemmas - used)}")
    if ids and ids[-1] != "theorem":
        problems.append("the theorem must come last")
    if not problems and cert["summary"] != summary(model, facts, cert["spec"]["every_d"]):
        problems.append("the summary differs from the checked claims")
    if problems:
        rows.append(("certificate", "structure", "failed", "; ".join(problems)))
    statement = next(c["statement"] for c in cert["claims"] if isinstance(c, dict) and c.get("id") == "theorem") if "theorem" in facts else ""
    return Report(tuple(rows), ("", "", statement))
