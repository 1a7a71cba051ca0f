"""`headfusion search SPEC --atoms M --refute`: exact refutations by cube-and-conquer on Dask."""

from __future__ import annotations

import argparse
import re
import sys
import time

from headfusion.cli.common import EXIT_OK, UsageError, answer, answer_lines, print_json, spec_words
from headfusion.cli.progress import Progress
from headfusion.spec.model import Spec


def search_refute(args: argparse.Namespace, spec: Spec, progress: Progress) -> int:
    """`search SPEC --atoms M --refute`: the exact refutation producer, cube-and-conquer on Dask.

    unsat is returned only with a refutation the kernel has replayed; a timeout or a lost
    worker gives "unknown".  --scheduler ADDRESS uses an existing Dask cluster (`dask
    scheduler`, then `dask worker ADDRESS` on each machine); otherwise a LocalCluster with
    --jobs worker processes (default: one per core).  Without Dask (the extra
    headfusion[cluster]) it runs in this process; --scheduler, --jobs and --checkpoint need Dask.
    """
    from headfusion.algebra.expform import exponential_form
    from headfusion.proof.certify import kernel_question
    from headfusion.solving.distribute import distributed_refute, have_dask, quiet_dask, require_dask, scheduler_address
    from headfusion.cli.proved import answer_from_proof
    from headfusion.solving.cubes import writable_folder
    from headfusion.solving.refute import refute

    if args.atoms is None:
        raise UsageError("search: --refute needs --atoms M")
    if args.minimize or args.smt2 or args.cross_check:
        raise UsageError("search: --refute does not combine with --minimize, --smt2 or --cross-check")
    if args.scheduler is not None:
        scheduler_address(args.scheduler)  # a malformed address is refused before any work
    cluster = have_dask()
    if not cluster and (args.scheduler or args.jobs > 1 or args.checkpoint):
        used = "--scheduler" if args.scheduler else "--jobs" if args.jobs > 1 else "--checkpoint"
        require_dask(f"search --refute {used}")
    if args.checkpoint:
        writable_folder(args.checkpoint)  # refused before any work
    if (answer := answer_from_proof(args, spec, progress)) is not None:  # below the proved bound: nothing to refute
        return answer
    form = exponential_form(spec.model)
    P, Q, vertices = kernel_question(form)  # V checked by the kernel: interior leaves at m ≤ V
    if any(e[-1] for e in list(P) + list(Q)):
        raise UsageError("search: --refute needs rational weights (no e^b weights)")
    _refuse_big_box(P, Q, args, form)
    began = time.monotonic()
    small = _small_box(P, Q, args)
    if cluster and small is not None:  # no cluster asked for, and a LocalCluster would take longer to start than the tree
        cluster, why_here = False, f"a box of {small} points: no LocalCluster needed"
    else:
        why_here = f"no Dask: {_install_hint()}"
    if cluster:
        quiet_dask(args.verbose)
        progress.close()  # a bar with counts replaces the status line
        bar = Progress("search --refute", quiet=args.quiet, total=0, unit="cube")

        def cubes(state: dict) -> None:
            running = f"{state['in_flight']} in flight" + (f" (oldest {state['oldest_running']:.0f} s)" if state["in_flight"] else "")
            lost = f", {state['workers_lost']} lost" if state.get("workers_lost") else ""
            bar.update(done=state["done"], total=state["total"],
                       note=f"{running}, {state['resplits']} re-splits, {state.get('workers', 0)} workers{lost}")

        with bar:
            result = distributed_refute(
                P, Q, args.atoms,
                scheduler=args.scheduler, workers=args.jobs if args.jobs > 1 else None,
                cube_depth=args.cube_depth, cube_timeout=args.cube_timeout,
                deadline=args.started + args.timeout,  # from the command's start: math and cluster start count
                checkpoint=args.checkpoint, progress=cubes, vertices=vertices,
            )
    else:  # no Dask: the same exact producer in this process
        progress(f"refuting m = {args.atoms} in this process ({why_here})")
        result = refute(P, Q, args.atoms, deadline=args.started + args.timeout, vertices=vertices,
                        progress=lambda s: progress(f"{s.get('nodes', 0)} nodes, {s.get('vectors', 0)} multiplier vectors"))
    progress.close()
    seconds = time.monotonic() - began
    stats = {k: v for k, v in result.stats.items() if isinstance(v, (int, float, str))}
    written = None
    if result.evidence is not None and args.checkpoint:
        from headfusion.solving.cubes import Checkpoint

        written = Checkpoint(args.checkpoint, P, Q, args.atoms).write_refutation(args.atoms, result.evidence)  # atomic
    answered = refute_answer(result.status, args, stats.get("reason"), written, vertices)
    if args.json:
        out = {"spec": spec.text, "title": spec.title, "atoms": args.atoms, "status": result.status,
               "seconds": seconds, "stats": stats, **answered}
        if result.evidence is not None:
            out["refutation"] = {"atoms": args.atoms, **result.evidence}
        if result.head is not None:
            out["head_D"] = [[list(e), str(v)] for e, v in sorted(result.head["D"].items())]
        print_json(out)
        return EXIT_OK
    meaning = {
        "sat": f"a head with at most {args.atoms} atoms exists",
        "unsat": f"no head with at most {args.atoms} atoms: m*(F) > {args.atoms} (refutation replayed by the kernel)",
        "unknown": "undecided",
    }[result.status]
    w = sys.stdout.write
    w(f"{spec.title}, m = {args.atoms}: {result.status.upper()} ({meaning})\n")
    if cluster:
        lost = (f" ({stats['workers_lost']} lost: the scheduler re-ran their cubes"
                + (f", {stats['requeued']} re-queued after KilledWorker" if stats.get("requeued") else "") + ")"
                if stats.get("workers_lost") or stats.get("requeued") else "")
        w(f"  cubes {stats.get('solved', 0)}/{stats.get('cubes', 0)} solved ({stats.get('from_checkpoint', 0)} from the checkpoint), "
          f"{stats.get('resplits', 0)} re-splits, {stats.get('workers', 0)} workers{lost}, {seconds:.2f} s\n")
    else:
        w(f"  in this process ({why_here.split(':')[0]}), {stats.get('nodes', 0)} nodes, {seconds:.2f} s\n")
    if result.evidence is not None:
        w(f"  refutation: {len(result.evidence['tree'])} nodes, {len(result.evidence['multipliers'])} multiplier vectors\n")
        if written is not None:
            w(f"  written to {written}\n")
    if result.head is not None:
        w(f"  head: D with {len(result.head['D'])} atoms (checked exactly)\n")
    if stats.get("reason"):
        w(f"  reason: {stats['reason']}\n")
    w(answer_lines(answered))
    return EXIT_OK


def refute_answer(status: str, args: argparse.Namespace, reason: str | None, written, vertices: int) -> dict:
    """The answer of `search --atoms M --refute`: a tree the kernel replayed, a head checked exactly, or unknown.

    `vertices`: V of Newt(Q′), checked by the kernel; below it Lemma L5 already excludes m, and a
    certificate asks no search there (so the next step is a plain certify).
    """
    m, spec = args.atoms, spec_words(args)
    if status == "unsat" and m < vertices:
        return answer("proved", f"no head with at most {m} atoms: m*(F) > {m}", "a refutation tree (kernel-checked); "
                      f"Lemma L5 gives it too (Newt(Q') has {vertices} vertices)", f"headfusion certify {spec}")
    if status == "unsat":
        where = str(written) if written is not None else "FILE"
        return answer("proved", f"no head with at most {m} atoms: m*(F) > {m}", "a refutation tree (kernel-checked)",
                      f"headfusion certify {spec} --refutation {where}"
                      + ("" if written is not None else "  (FILE: this command's --json output)"))
    if status == "sat":
        return answer("found", f"a head with at most {m} atoms exists", "the refutation search, and checked exactly",
                      f"headfusion certify {spec}")
    again = f"headfusion search {spec} --atoms {m} --refute --timeout {min(2 * args.timeout, 86400):g}"
    return answer("unknown", f"a head with at most {m} atoms?", reason or "undecided",
                  again + ("" if args.checkpoint else " --checkpoint DIR  (DIR keeps solved cubes for the next run)"))


SMALL_BOX = 1000  # points of the cofactor box below which --refute solves in this process unless a cluster was asked for


def _small_box(P: dict, Q: dict, args: argparse.Namespace) -> int | None:
    """The box's points when it is small and no cluster option was typed (--scheduler, --jobs, --checkpoint), else None."""
    from math import prod

    from headfusion.kernel.refutation import search_box

    if args.scheduler is not None or args.checkpoint or {"--jobs", "--cube-depth", "--cube-timeout"} & set(args.given):
        return None
    sizes = search_box(P, Q, args.atoms)
    points = prod(s + 1 for s in sizes) if sizes is not None else 0
    return points if points <= SMALL_BOX else None


def _z3_can_answer(form, m: int) -> bool:
    """Whether `search --atoms m` (z3) would search at all: its key range within solver.MAX_BOX_POINTS (it answers
    "unknown: the box has N points" otherwise, which no --timeout changes)."""
    from headfusion.solving.problem import problem_from_form
    from headfusion.solving.solver import MAX_BOX_POINTS

    try:
        return problem_from_form(form, m).box_points <= MAX_BOX_POINTS
    except (ValueError, ArithmeticError):  # transcendental weights, too many terms: z3 does not search either
        return False


def _refuse_big_box(P: dict, Q: dict, args: argparse.Namespace, form) -> None:
    """A box the kernel would not replay is refused before any cube is solved (one line, exit 2).

    The kernel regenerates the L3 box of every refutation and refuses boxes over its replay
    limit, so a refutation of such a box could never be checked: no search is started.
    """
    from headfusion.kernel.base import SchemaError
    from headfusion.kernel.refutation import search_box

    try:
        search_box(P, Q, args.atoms)
    except SchemaError as exc:
        spec = spec_words(args)
        found = re.search(r"points of the search box: (\d+) exceeds the verification limit (\d+)", str(exc))
        what = (f"the box of the cofactor g (Lemma L3) has {int(found[1]):,} points, which exceeds the verification limit "
                f"{found[2]} (the kernel's replay limit; z3's key range at this m is larger still)" if found
                else f"{exc} (the kernel's replay limit)")
        z3 = (f", and `headfusion search {spec} --atoms {args.atoms}` asks z3 (solver testimony, not proof)"
              if _z3_can_answer(form, args.atoms) else "")  # recommended only when it can answer (not "unknown: the box …")
        raise UsageError(f"search --refute at m = {args.atoms}: {what}, so no refutation of it "
                         f"could be checked; instead `headfusion certify {spec}` proves what the lemmas give{z3}") from None


def _install_hint() -> str:
    from headfusion.solving.distribute import INSTALL_HINT

    return INSTALL_HINT
