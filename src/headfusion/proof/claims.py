"""The certificate: claims with evidence, assembled from the producers and completed by the kernel.

The producers (algebra, bounds, solving) find the evidence.  Each claim's kind, title,
dependencies and statement are then produced by running the kernel's own check on it,
so a certificate says exactly what its checked numbers support, and `certify` has
replayed every claim before anything is written.
"""

from __future__ import annotations

import platform
from importlib import metadata
from typing import Any

from headfusion import __version__
from headfusion.bounds.constructions import closed_forms
from headfusion.bounds.engine import FunctionBounds, function_bounds
from headfusion.bounds.graphs import graph_class
from headfusion.bounds.classes import untried_tilts
from headfusion.kernel import statements
from headfusion.kernel.base import CheckFailed, SchemaError, sha256
from headfusion.kernel.model import model_from_json
from headfusion.kernel.verify import FORMAT, KINDS, MULTIPLICATIVE, check_of, summary, theorem_facts
from headfusion.proof.statement import verify_certificate
from headfusion.proof import evidence
from headfusion.spec.errors import InputError, ResourceLimit
from headfusion.spec.model import Spec

PROVENANCE_NOTE = "provenance only: not part of what the kernel checks"


def versions() -> dict[str, str]:
    """Versions of headfusion and the libraries that produced the evidence."""
    out = {"headfusion": __version__, "python": platform.python_version()}
    for name in ("sympy", "z3-solver", "cvc5", "networkx", "jinja2", "highspy", "python-flint"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def spec_json(spec: Spec, every_d: dict | None = None) -> dict:
    """The spec as a certificate embeds it: the full TOML text, never a path to it."""
    if every_d is not None:
        return every_d
    # a TOML spec is its embedded text, never a path; `text` is the name it took from its file, if any
    text = spec.name if spec.kind == "toml" else spec.text
    return {"kind": spec.kind, "text": text, "source": spec.source, "d": spec.d, "title": spec.title, "slug": spec.slug,
            "every_d": False}


def search_claims(results: list[dict]) -> list[tuple[str, dict]]:
    """(id, evidence) for each search result: a refutation or head is proof, an unsat without one is testimony."""
    out = []
    for r in results:
        m = r["atoms"]
        if r["status"] == "sat":
            out.append((f"search:m{m}", evidence.head_evidence(m, r["head"]["atoms_list"])))
        elif r["status"] == "unsat" and r.get("refutation") is not None:
            out.append((f"search:m{m}", {"atoms": m, **r["refutation"]}))
        elif r["status"] == "unsat":
            solvers = [{"name": r["solver"]["name"], "version": r["solver"]["version"], "verdict": "unsat"}]
            solvers += [{"name": k, "version": v.get("version", ""), "verdict": v.get("status", "")}
                        for k, v in (r.get("cross_check") or {}).items() if isinstance(v, dict)]
            out.append((f"testimony:m{m}", {"atoms": m, "verdict": "unsat", "query_sha256": r.get("query_sha256"),
                                            "options": r.get("options"), "solvers": solvers}))
        else:
            out.append((f"unknown:m{m}", {"atoms": m, "reason": r.get("reason") or "time limit"}))
    return out


def complete(cert: dict, drafts: list[tuple[str, dict]], members: dict | None = None) -> None:
    """Run the kernel's check on each draft claim, in order, and record what it says (and the summary)."""
    model = model_from_json(cert["model"])
    facts: dict[str, Any] = {}
    claims = []
    for cid, ev in drafts:
        check = check_of(cid)
        if check == "lemma":
            name, deps, text = statements.LEMMAS[cid[6:]]
            found, deps, kind, title = {}, [f"lemma:{d}" for d in deps], "lemma", f"Lemma {cid[6:]} ({name})"
        elif check == "theorem":
            found, deps, text = theorem_facts(facts, cert["spec"]["every_d"], cert["spec"].get("every"), cert["spec"].get("graphs") is True)
            ev, kind, title = found, "theorem", "Theorem"
        else:
            if check == "search":
                check = "refutation" if "tree" in ev else "head"
            kind, title, function = KINDS[check]
            found, deps, text = function(model, ev, {**facts, "model_sha256": sha256(cert["model"]), "every": cert["spec"].get("every"),
                                                     "members": {n: model_from_json(m.to_json()) for n, m in (members or {}).items()}})
        facts[cid] = found
        claims.append({"id": cid, "kind": kind, "title": title, "statement": text, "depends_on": sorted(deps), "evidence": ev})
    cert["claims"] = claims
    cert["summary"] = summary(model, facts, cert["spec"]["every_d"])


def prune_lemmas(cert: dict) -> None:
    """Keep the lemmas the claims use, directly or through other lemmas (the kernel rejects unused ones)."""
    deps = {c["id"]: c["depends_on"] for c in cert["claims"]}
    used: set[str] = set()
    todo = [d for c in cert["claims"] if c["kind"] != "lemma" for d in c["depends_on"]]
    while todo:
        cid = todo.pop()
        if cid not in used:
            used.add(cid)
            todo += deps.get(cid, [])
    cert["claims"] = [c for c in cert["claims"] if c["kind"] != "lemma" or c["id"] in used]


def block_claims(model, bounds: FunctionBounds, have: set[str]) -> list[tuple[str, dict]]:
    """For the theorem for every d: the block's strongest claim when its lemma bounds F alone (LU, LE, LD, …, which do not
    multiply over blocks) and beats the bounds that do — it decides d = 1 (F_1 = c_1 + F), checked by the kernel, unused
    by the theorem for every d (issue 41: d = 1 was called open when Lemma LU decided the block)."""
    block = function_bounds(model)
    if block.best[0] <= bounds.best[0] or evidence.CLAIM_OF.get(block.best[1]) in MULTIPLICATIVE:
        return []
    return [(cid, ev) for cid, ev in evidence.lower_claims(block, None) if cid not in have]


def build_certificate(spec: Spec, command: list[str], search_results: list[dict] | None = None,
                      notes: list[str] | None = None, bounds: FunctionBounds | None = None, every_d: dict | None = None,
                      members: dict | None = None) -> dict:
    """The certificate for a spec: model, claims with evidence (completed and replayed by the kernel), summary.

    `every_d`: the spec fields of a family F_d = c_d + Σ_j f(q_j) whose block f is `spec`; the
    theorem is then stated for every d (Lemma LP), from the block's checked claims.  With the field
    `every` (the family σ(a·q1) + σ(b·q1), `spec` its lift G), the theorem is Theorem P's, for all a ≠ b.
    """
    model = spec.model
    if bounds is None:  # the every-d theorem uses only the bounds that multiply over blocks (LP, LM); a family of graphs, all
        local = every_d is None or every_d.get("graphs") is True
        bounds = function_bounds(model, faces=local, edges=local)
    form = closed_forms(bounds.form)  # a form that already carries its best head keeps it
    cert: dict[str, Any] = {"format": FORMAT, "spec": spec_json(spec, every_d), "model": model.to_json()}
    drafts: list[tuple[str, dict]] = [
        ("def:F", {"model_sha256": sha256(cert["model"])}),
        ("exp-form", evidence.exp_form_evidence(form)),
        ("coprime", evidence.coprimality_evidence(form)),
        ("upper", evidence.construction_evidence(form)),
    ]
    drafts += evidence.lower_claims(bounds, None)
    if every_d is not None and not every_d.get("graphs") and not every_d.get("every"):
        drafts += block_claims(model, bounds, {cid for cid, _ in drafts})
    if every_d is not None and every_d.get("every"):  # Theorem P for the family (issue 26)
        drafts.append(("lower:pairs" if len(every_d["every"]) == 2 else "lower:every-bias", {}))  # Theorem P, or Pβ for every bias
    if members:  # a family of graphs: its members' class and counts (Lemma LF)
        drafts.append(("family:graphs", {"class": graph_class(members), "from": min(members), "to": max(members)}))
    drafts += search_claims(search_results or [])
    try:
        complete(cert, [(f"lemma:{i}", {}) for i in statements.LEMMAS] + drafts + [("theorem", {})], members)
        prune_lemmas(cert)
    except SchemaError as exc:  # a claim the kernel would refuse to replay: refused now, with the limit named
        raise ResourceLimit(f"the certificate would exceed what verify replays ({exc}); analyze answers this function") from None
    except CheckFailed as exc:
        if not members:
            raise
        raise InputError(f"no theorem for every n: {exc} (Lemma LF covers cycles, trees and complete graphs)") from None
    cert["metadata"] = {"note": PROVENANCE_NOTE, "versions": versions(), "command": command,
                        "notes": [n for n in [*untried_tilts(form), *(notes or [])] if n]}
    failed = [r for r in verify_certificate(cert).rows if r[2] == "failed"]
    if failed:
        raise CheckFailed(f"the kernel rejects the certificate just built: {failed[0][0]}: {failed[0][3]}")
    return cert
