"""The kernel's entry point: replay every claim of a certificate, exactly, with no solver.

The certificate is data.  The kernel decides which check applies from the claim's id
(never from a field the certificate chooses), recomputes each claim's dependencies,
statement and facts, and recomputes the summary.  The theorem states only what the
checked claims prove; solver testimony is reported as such and supports nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from headfusion.kernel import checks, statements as say
from headfusion.kernel.base import CheckFailed, SchemaError, parse_json, read_certificate_text, require, sha256
from headfusion.kernel.model import Model, model_from_json

FORMAT = "headfusion-certificate/2"
KINDS: dict[str, tuple[str, str, Callable]] = {  # check: (kind, title, function)
    "definition": ("definition", "The function", checks.check_definition),
    "exp-form": ("identity", "Exponential-family form", checks.check_exp_form),
    "coprime": ("coprimality", "Lowest terms", checks.check_coprime),
    "construction": ("construction", "Construction", checks.check_construction),
    "newton": ("lower-bound", "Newton-polytope bound", checks.check_newton),
    "face-limits": ("lower-bound", "Face-limit bound", checks.check_faces),
    "refutation": ("refutation", "No smaller head", checks.check_refutation),
    "head": ("construction", "A smaller head", checks.check_head),
    "testimony": ("testimony", "Solver testimony", checks.check_testimony),
    "unknown": ("undecided", "Undecided search", checks.check_unknown),
}
FIXED = {"def:F": "definition", "exp-form": "exp-form", "coprime": "coprime", "upper": "construction",
         "lower:newton": "newton", "lower:face": "face-limits"}
REQUIRED = ("def:F", "exp-form", "coprime", "upper", "lower:newton", "theorem")


@dataclass(frozen=True)
class Report:
    """Per claim: (id, kind, outcome, message); outcome is checked, failed, testimony or undecided."""

    rows: tuple[tuple[str, str, str, str], ...]

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


def rebuild(spec: dict) -> tuple[dict, dict]:
    """Statement layer: (model JSON, spec fields) rebuilt from the embedded spec text by the spec parser.

    For the theorem for every d, the spec parser also decides that every member is
    F_d = c_d + Σ_{j=1}^d f(q_j) and returns the block f, which is then the model checked here.
    """
    from headfusion.spec.family import every_d_block
    from headfusion.spec.load import load_spec
    from headfusion.spec.toml import load_toml_text

    try:
        if spec["every_d"] is True:
            built, title, slug = every_d_block(spec["kind"], spec["text"], spec["source"])
            fields = {"kind": spec["kind"], "text": spec["text"],
                      "source": spec["source"], "d": None, "title": title, "slug": slug, "every_d": True}
            return built.model.to_json(), fields
        if spec["kind"] == "toml":
            built = load_toml_text(spec["source"], "the embedded TOML spec", spec["d"], spec["text"])
        else:
            built = load_spec(spec["text"], spec["d"])
    except Exception as exc:  # the statement layer refuses: the definition fails, with its reason
        raise CheckFailed(f"the spec does not rebuild: {exc}") from None
    fields = {"kind": built.kind, "text": built.name if built.kind == "toml" else built.text, "source": built.source,
              "d": built.d, "title": built.title, "slug": built.slug, "every_d": False}
    return built.model.to_json(), fields


def theorem_facts(facts: dict, every_d: bool = False) -> tuple[dict, list[str], str]:
    """The theorem's numbers, dependencies and statement from the checked claims.

    For every d (Lemma LP over d disjoint copies of the block): V^d ≤ m*(F_d) ≤ A^d, with V the
    block's Newton vertices and A its construction; searches about the block are not used.
    """
    if every_d:
        lower, upper = facts["lower:newton"]["count"], facts["upper"]["atoms"]
        deps = ["upper", "lower:newton", "lemma:LP"]
    else:
        lower = max([facts["lower:newton"]["count"]] + [f["lower"] for f in facts.values() if "lower" in f]
                    + ([facts["lower:face"]["bound"]] if "lower:face" in facts else []))
        upper = min([facts["upper"]["atoms"]] + [f["upper"] for f in facts.values() if "upper" in f])
        deps = ["upper", "lower:newton"] + [i for i in facts if i == "lower:face" or i.startswith("search:")]
    require(lower <= upper, f"checked bounds contradict each other ({lower} > {upper})")
    status = "proved" if lower == upper else "bounds"
    expected = {"lower": lower, "upper": upper, "minimum": lower if lower == upper else None, "status": status}
    return expected, deps, (say.every_d(lower, upper) if every_d else say.theorem(lower, upper))


def summary(model: Model, facts: dict, every_d: bool = False) -> dict:
    """The summary every certificate carries, recomputed from checked facts."""
    theorem = facts["theorem"]
    return {
        "dimension": model.dimension, "heads": len(model.heads), "head_atom_terms": facts["def:F"]["terms"],
        "lower_bound": theorem["lower"], "upper_bound": theorem["upper"], "minimum": theorem["minimum"],
        "status": theorem["status"], "newton_vertices": facts["lower:newton"]["count"],
        "face_limit_bound": facts["lower:face"]["bound"] if "lower:face" in facts else None,
        "refutations": sum(1 for i in facts if i.startswith("search:") and "lower" in facts[i]),
        "testimony_lower": max((f["testimony"] for f in facts.values() if "testimony" in f), default=None),
        "every_d": every_d,
    }


def verify_certificate(cert: object) -> Report:
    """Replay every claim of a parsed certificate (SchemaError: not a certificate, or over a limit)."""
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise SchemaError(f"not a headfusion certificate (format {FORMAT} expected)")
    for key, kind in (("spec", dict), ("model", dict), ("summary", dict), ("claims", list)):
        if not isinstance(cert.get(key), kind):
            raise SchemaError(f"field '{key}' missing or not a {kind.__name__}")
    if not set(cert) <= {"format", "spec", "model", "summary", "claims", "metadata"}:
        raise SchemaError(f"unexpected top-level fields {sorted(set(cert) - {'format', 'spec', 'model', 'summary', 'claims', 'metadata'})}")
    rows: list[tuple[str, str, str, str]] = []
    facts: dict[str, dict] = {}
    try:
        model_json, spec_fields = rebuild(cert["spec"])
        require(cert["spec"] == spec_fields, "the spec fields (title, slug, parameter) differ from the spec text")
        require(cert["model"] == model_json, "the stored model differs from the model rebuilt from the spec")
        model = model_from_json(cert["model"])
    except (CheckFailed, KeyError, TypeError) as exc:
        return Report((("def:F", "definition", "failed", str(exc)),))
    facts["_"] = {"model_sha256": sha256(cert["model"])}
    ids = [c.get("id") if isinstance(c, dict) else None for c in cert["claims"]]
    for claim in cert["claims"]:
        cid = claim.get("id") if isinstance(claim, dict) else None
        try:
            require(isinstance(cid, str) and ids.count(cid) == 1, f"claim id {cid!r} missing or repeated")
            check = check_of(cid)
            require(set(claim) == {"id", "kind", "title", "statement", "depends_on", "evidence"}, "unexpected claim fields")
            require(isinstance(claim["depends_on"], list) and all(isinstance(d, str) for d in claim["depends_on"]),
                    "depends_on must be a list of claim ids")
            if check == "lemma":
                name, deps, text = say.LEMMAS[cid[6:]]
                found, deps, kind, title = {}, [f"lemma:{d}" for d in deps], "lemma", f"Lemma {cid[6:]} ({name})"
            elif check == "theorem":
                found, deps, text = theorem_facts(facts, cert["spec"]["every_d"])
                require(claim["evidence"] == found, "the theorem's numbers differ from its checked claims")
                kind, title = "theorem", "Theorem"
            else:
                if check == "search":
                    check = "refutation" if "tree" in claim["evidence"] else "head"
                    require(claim["evidence"].get("atoms") == int(cid.split(":m")[1]), "the claim id and its m differ")
                kind, title, function = KINDS[check]
                missing = [d for d in claim["depends_on"] if d not in facts]
                require(not missing, f"depends on {missing}, not checked before it")
                found, deps, text = function(model, claim["evidence"], {**facts, "model_sha256": facts["_"]["model_sha256"]})
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
    return Report(tuple(rows))


def verify_file(path: str) -> Report:
    """Read (bounded, regular files only), parse and verify a certificate file."""
    return verify_certificate(parse_json(read_certificate_text(path)))
