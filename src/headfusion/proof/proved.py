"""The strongest lower bound of F as a kernel-checked claim: what `search --atoms M` answers from when M is below it.

The bound engine finds the lemma; its claim (with exp-form, coprime and lower:newton before it) is
replayed here by the kernel's own checks, so "no head with M atoms — proved by Lemma LE" is a
statement the kernel has checked, exactly as it would inside a certificate.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from headfusion.bounds.engine import function_bounds
from headfusion.kernel.model import model_from_json
from headfusion.kernel.verify import KINDS, check_of
from headfusion.proof import evidence
from headfusion.spec.model import MultiHead

LEMMA_OF_CLAIM = {"lower:newton": "L5", "lower:classes": "LK", "lower:unit-roots": "LU", "lower:graph": "LG", "lower:edges": "LE", "lower:hexagon": "LH",
                  "lower:slices": "LS", "lower:faces": "LD", "lower:three-slices": "V3", "lower:two-adic": "V2", "lower:theorem-k": "K", "lower:line": "R",
                  "lower:pair-biased": "PB",
                  "lower:two-scales": "P4",
                  "lower:grid": "K35"}


@dataclass(frozen=True)
class ProvedBound:
    """m*(F) ≥ bound by the claim `claim_id` (Lemma `lemma`), replayed by the kernel; its statement and evidence."""

    bound: int
    lemma: str
    claim_id: str
    statement: str
    claim_evidence: dict
    upper: int

    def to_json(self) -> dict:
        return {"lower_bound": self.bound, "lemma": self.lemma, "claim": self.claim_id, "statement": self.statement,
                "kernel_checked": True, "evidence": self.claim_evidence}


def proved_lower_bound(model: MultiHead, atoms: int | None = None, seconds: float = 0.0,
                       progress: Callable[[str], None] | None = None) -> ProvedBound:
    """The strongest lower bound the engine finds, with its claim checked by the kernel (CheckFailed if it does not).

    Asked about `atoms` (search --atoms M) above the engine's bound, Lemma R is tried as certify tries it: a line u whose
    f_u needs M + 1 atoms, by its own lemmas or by a refutation tree over f_u's one-dimensional box, within `seconds`."""
    bounds = function_bounds(model)
    form = bounds.form
    if (atoms is not None and seconds > 0 and bounds.best[0] <= atoms < form.upper_bound and form.is_rational
            and sum(b.rank for b in form.blocks) >= 2):
        from headfusion.proof.certify import line_tree

        line = line_tree(form, bounds.table, seconds, progress, upper=atoms + 1)
        if line is not None:
            bounds = replace(bounds, line=line)
    drafts = [("exp-form", evidence.exp_form_evidence(bounds.form)), ("coprime", evidence.coprimality_evidence(bounds.form))]
    drafts += evidence.lower_claims(bounds, None)
    kernel_model = model_from_json(model.to_json())
    facts: dict = {}
    statement = ""
    for cid, ev in drafts:
        facts[cid], _, statement = KINDS[check_of(cid)][2](kernel_model, ev, facts)
    cid, ev = drafts[-1]
    bound = facts[cid].get("bound", facts[cid].get("count", facts[cid].get("lower")))
    return ProvedBound(bound, LEMMA_OF_CLAIM[cid], cid, statement, ev, bounds.form.upper_bound)


def block_decision(cert: dict) -> tuple[int, str] | None:
    """For a theorem for every d (d disjoint copies of one block F, Lemma LP): (bound, claim id) of the strongest checked
    block claim that the theorem does not use — a lemma that bounds the heads of F alone (LU, LE, LD, …) and does not
    multiply over blocks — replayed here by the kernel's own checks on the certificate's model; it decides d = 1 (F_1 is
    F plus a constant).  None for other certificates, or when there is no such claim or it does not replay."""
    from headfusion.kernel.base import CheckFailed, SchemaError
    from headfusion.kernel.verify import MULTIPLICATIVE

    spec = cert.get("spec", {}) if isinstance(cert, dict) else {}
    if spec.get("every_d") is not True or spec.get("graphs") or spec.get("every"):
        return None
    facts: dict = {"_": {"every": None, "members": {}}}  # as kernel.verify seeds them (the definition is not replayed here)
    best: tuple[int, str] | None = None
    try:
        model = model_from_json(cert["model"])
        for claim in cert["claims"]:
            cid = claim["id"]
            if cid in ("def:F", "theorem") or cid.startswith("lemma:"):
                continue
            facts[cid], _, _ = KINDS[check_of(cid)][2](model, claim["evidence"], facts)
            if cid in LEMMA_OF_CLAIM and cid not in MULTIPLICATIVE:
                value = facts[cid].get("bound", facts[cid].get("lower"))
                if isinstance(value, int) and (best is None or value > best[0]):
                    best = (value, cid)
    except (CheckFailed, SchemaError, KeyError, TypeError, ValueError):
        return None
    return best
