"""The document model: the whole template context, built from a certificate dict.

`build_context` is a pure function of the certificate (exact JSON data; nothing is recomputed
from the model).  It gathers the summary, theorem and lemmas, the claims table and the parts
prepared by `sections`, `search` and `figures`, every value already a LaTeX snippet.  Claim
statements are LaTeX written by the proof package and are inserted as they are.
"""

from __future__ import annotations

import re
import shlex

from headfusion.render.figures import dag_layout, series_context
from headfusion.render.files import sanitize_slug
from headfusion.render.search import search_context
from headfusion.render.sections import construction_context, exp_form_context, faces_context, heads_context, newton_context
from headfusion.render.tex import math_safe_statement, tex_breakable, tex_int, tex_note, tex_text, tex_tt


def _claims_by_id(cert: dict) -> dict[str, dict]:
    return {c["id"]: c for c in cert.get("claims", [])}


def _claim_rows(claims_list: list[dict]) -> list[dict]:
    return [
        {
            "id": tex_text(c["id"]),
            "title": tex_text(c.get("title", "")),
            "kind": tex_text(c.get("kind", "")),
            "statement": math_safe_statement(c.get("statement", "")),
            "check": tex_text(c.get("check", "")),
            "deps": ", ".join(r"\texttt{" + tex_text(d) + "}" for d in c.get("depends_on", [])),
            "is_lemma": c.get("kind") == "lemma",
        }
        for c in claims_list
    ]


def _lemma_name(title: str) -> str:
    """'Lemma L1 (Merge)' -> 'Merge'."""
    m = re.search(r"\(([^()]*)\)\s*$", title)
    return m.group(1) if m else title


def build_context(cert: dict) -> dict:
    """Everything the template needs, as LaTeX snippets (pure function of the certificate)."""
    claims_list = list(cert.get("claims", []))
    claims = _claims_by_id(cert)
    summary = cert.get("summary", {})
    spec = cert.get("spec", {})
    theorem = claims.get("theorem", {})
    status = summary.get("status", theorem.get("evidence", {}).get("status", "bounds"))
    lower, upper = summary.get("lower_bound"), summary.get("upper_bound")
    solver_lower = theorem.get("evidence", {}).get("solver_lower")
    lemmas = [
        {
            "id": tex_text(c.get("evidence", {}).get("lemma", c["id"])),
            "title": tex_text(c.get("title", "")),
            "name": tex_text(_lemma_name(c.get("title", ""))),
            "statement": math_safe_statement(c["statement"]),
        }
        for c in claims_list
        if c.get("kind") == "lemma"
    ]
    metadata = cert.get("metadata", {})
    command = metadata.get("command", [])
    command_text = " ".join(shlex.quote(str(x)) for x in command) if isinstance(command, list) else str(command)
    versions = metadata.get("versions", {})
    slug = sanitize_slug(spec.get("slug", "certificate"))
    d = spec.get("d")
    return {
        "title": tex_breakable(spec.get("title", "")),
        "spec_text": tex_tt(spec.get("text", "")),
        "spec_kind": tex_text(spec.get("kind", "")),
        "spec_d": d,
        "slug": tex_text(slug),
        "slug_raw": slug,
        "format": tex_text(cert.get("format", "")),
        "status": status,
        "minimum": tex_int(summary["minimum"]) if summary.get("minimum") is not None else None,
        "lower": tex_int(lower) if lower is not None else None,
        "upper": tex_int(upper) if upper is not None else None,
        "solver_lower": tex_int(solver_lower) if solver_lower is not None else None,
        "search_lower": tex_int(max(lower or 0, solver_lower or 0)),
        "head_atom_terms": tex_int(summary.get("head_atom_terms", 0)),
        "nheads": tex_int(summary.get("heads", 0)),
        "dimension": tex_int(summary.get("dimension", 0)),
        "theorem_statement": math_safe_statement(theorem.get("statement", "")),
        "lemmas": lemmas,
        "lemma_ids": [lm["id"] for lm in lemmas],
        "heads": heads_context(cert),
        "exp": exp_form_context(cert, claims),
        "construction": construction_context(claims),
        "newton": newton_context(claims),
        "faces": faces_context(cert, claims),
        "search": search_context(claims_list),
        "search_note": tex_note(summary["search_note"]) if summary.get("search_note") else None,
        "claims": _claim_rows(claims_list),
        "claim_statements": {c["id"]: c.get("statement", "") for c in claims_list},
        "dag": dag_layout(claims_list),
        "series": series_context(cert),
        "command": tex_breakable(command_text).replace("'", r"\textquotesingle{}").replace("`", r"\textasciigrave{}"),
        "versions": [{"name": tex_text(k), "version": tex_text(versions[k])} for k in sorted(versions)],
        "model_sha256": tex_text(claims.get("def:F", {}).get("evidence", {}).get("model_sha256", "")),
    }

