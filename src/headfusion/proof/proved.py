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
                  "lower:slices": "LS", "lower:faces": "LD", "lower:three-slices": "V3", "lower:two-adic": "V2", "lower:theorem-k": "K", "lower:line": "R"}


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
