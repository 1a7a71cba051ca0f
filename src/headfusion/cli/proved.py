"""`search --atoms M` below the proved lower bound: the answer is a kernel-checked lemma, not a solver's word."""

from __future__ import annotations

import argparse
import sys

from headfusion.cli.common import EXIT_OK, print_json
from headfusion.cli.progress import Progress
from headfusion.spec.model import Spec


def answer_from_proof(args: argparse.Namespace, spec: Spec, progress: Progress) -> int | None:
    """`--atoms M` below the proved lower bound: unsat, proved by the lemma's kernel-checked claim, and no solver runs
    (None: M is at or above it, the solver decides)."""
    from headfusion.proof.proved import proved_lower_bound

    progress("proved lower bounds (the bound engine, then the kernel)")
    proved = proved_lower_bound(spec.model)
    if args.atoms >= proved.bound:
        return None
    if args.smt2 or args.cross_check:
        sys.stderr.write(f"headfusion: no query written or cross-checked: m = {args.atoms} is below the proved lower bound {proved.bound}\n")
    progress.close()
    if args.json:
        print_json({"spec": spec.text, "title": spec.title, "atoms": args.atoms, "status": "unsat", "answer_kind": "proved",
                    "proof": proved.to_json()})
        return EXIT_OK
    from headfusion.kernel.statements import LEMMAS

    again = f"headfusion certify {args.spec}" + (f" --d {args.d}" if args.d else "")
    sys.stdout.write(f"{spec.title}, m = {args.atoms}: UNSAT (no head with at most {args.atoms} atoms)\n"
                     f"  proved by Lemma {proved.lemma} ({LEMMAS[proved.lemma][0]}; claim {proved.claim_id}, kernel-checked, "
                     f"no solver): m*(F) >= {proved.bound}\n"
                     f"  the certificate with this claim in full: {again}\n")
    return EXIT_OK
