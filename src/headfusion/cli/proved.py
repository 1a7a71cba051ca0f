"""`search --atoms M` below the proved lower bound: the answer is a kernel-checked lemma, not a solver's word."""

from __future__ import annotations

import argparse
import sys

from headfusion.cli.common import EXIT_OK, answer, answer_lines, lemma_tables, print_json, spec_words
from headfusion.cli.progress import Progress
from headfusion.spec.model import Spec


def answer_from_proof(args: argparse.Namespace, spec: Spec, progress: Progress) -> int | None:
    """`--atoms M` below the proved lower bound: unsat, proved by the lemma's kernel-checked claim, and no solver runs
    (None: M is at or above it, the solver decides)."""
    from headfusion.proof.proved import proved_lower_bound

    progress("proved lower bounds (the bound engine, then the kernel)")
    # Lemma R on a line, as certify uses it, within half of --timeout (the solver gets the rest)
    proved = proved_lower_bound(spec.model, args.atoms, args.timeout / 2, progress)
    if args.atoms >= proved.bound:
        return None
    if args.smt2 or args.cross_check:
        sys.stderr.write(f"headfusion: no query written or cross-checked: m = {args.atoms} is below the proved lower bound {proved.bound}\n")
    progress.close()
    lemma = lemma_tables()[0][proved.lemma]
    again = f"headfusion certify {spec_words(args)}"
    answered = answer("proved", f"no head with at most {args.atoms} atoms: m*(F) ≥ {proved.bound}",
                      f"{lemma}, claim {proved.claim_id} (kernel-checked, no solver)", again)
    if args.json:
        print_json({"spec": spec.text, "title": spec.title, "atoms": args.atoms, "status": "unsat", **answered, "proof": proved.to_json()})
        return EXIT_OK
    sys.stdout.write(f"{spec.title}, m = {args.atoms}: UNSAT (no head with at most {args.atoms} atoms)\n"
                     f"  proved by {lemma} (claim {proved.claim_id}, kernel-checked, no solver): m*(F) >= {proved.bound}\n"
                     + answer_lines(answered))
    return EXIT_OK
