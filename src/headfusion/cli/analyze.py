"""`headfusion analyze`: the exponential-family form, the fused head and the bounds."""

from __future__ import annotations

import argparse
import sys

from headfusion.cli.common import (EXIT_OK, lemma_tables, answer, answer_lines, big, note_huge_integers, spec_words,
                                   with_answer)
from headfusion.cli.progress import Progress
from headfusion.guards import deadline

SHOWN_ATOMS = 64  # the text output lists this many atoms of the fused head (--json: all of them)
SHOWN_DIMENSION = 1024  # ... when their keys have at most this many coordinates (a key is printed in full)


def cmd_analyze(args: argparse.Namespace) -> int:
    from headfusion.proof.analysis import CONSTRUCT_SECONDS, analyze, write_json
    from headfusion.spec.load import load_spec

    with deadline(args.timeout, "analyze"), Progress("analyze", quiet=args.quiet) as progress:
        spec = load_spec(args.spec, args.d)
        listed = not args.no_atoms_list and (args.json or spec.model.dimension <= SHOWN_DIMENSION)
        result = analyze(spec, list_atoms=listed, stream=args.json, preview=0 if args.json else SHOWN_ATOMS + 1,
                         progress=progress, construct_seconds=min(CONSTRUCT_SECONDS, args.timeout / 4))
        if args.json:  # the atom list streams (generated while written), within the deadline
            progress.close()  # stdout and stderr may be one terminal
            note_huge_integers(result)
            write_json(with_answer(result, analysis_answer(result, args), after="minimum"), sys.stdout)
            return EXIT_OK
    out = sys.stdout
    out.write(f"function: {result['title']}  (dimension {result['dimension']})\n")
    out.write(f"heads: {result['heads']}, head-atom terms: {result['head_atom_terms']}\n")
    form = result["exponential_form"]
    blocks = form["blocks_total"]
    out.write(f"exponential-family form: F = {form['constant']} + " + ("P'_B/Q'_B for its one block\n" if blocks == 1 else f"sum over {blocks} blocks of P'_B/Q'_B\n"))
    if form["t"]:
        out.write(f"  t = {form['t']}\n")
    for i, block in enumerate(form["blocks"], 1):
        out.write(f"  block {i}: {', '.join(block['heads'])}  [{'; '.join(block['variables']) or 'constant'}]\n")
        if block["Q_reduced"] is not None:
            out.write(f"    Q' = {block['Q_reduced']}\n    P' = {block['P_reduced']}\n")
        else:
            out.write(f"    Q' has {block['Q_reduced_terms']} terms\n")
    if form["blocks_total"] > form["blocks_shown"]:
        more = form["blocks_total"] - form["blocks_shown"]
        out.write(f"  ... {more} more block{'s' if more != 1 else ''}\n")
    out.write(f"fused head: {big(result['upper_bound'])} atoms ({result['upper_bound_method']})\n")
    made = result.get("construction") or {}
    if made.get("kind") not in (None, "product", "reduced"):  # a head below the product head (DESIGN §10): how it was found
        out.write(f"  construction: {made['kind']}, {big(made['atoms'])} atoms (the product head has {big(made['product_head_atoms'])})\n")
        for b in made["blocks"][:3]:
            if b.get("cofactor"):
                out.write(f"  block {b['block']} ({b['kind']}): D = Q'*g with g = {b['cofactor']}\n")
    lower = result["lower_bound"]
    out.write(
        f"lower bound: {big(lower)} ({result['lower_bound_method']})\n" if lower is not None else "lower bound: not computed\n"
    )
    _newton_evidence(result, out)
    classes, edges = result.get("residue_classes"), result.get("rigid_edges")
    if classes:  # Lemma LK's instance: one line per block (the JSON has every class)
        for b in classes["blocks"][:3]:
            sums = sorted({c["sum"] for c in b["class_sums"]})
            tilt = "" if all(t == "1" for t in b["tilt"]) else f", tilt {', '.join(b['tilt'])}"
            out.write(f"  residue classes (LK): m* >= {big(classes['bound'])}; block {b['block']}: {b['index']} classes{tilt}, "
                      f"every class sum = {sums[0]}\n")
    if edges:
        count = sum(len(b["edges"]) for b in edges["blocks"])
        out.write(f"  rigid edges (LE): m* >= {big(edges['bound'])}; {count} tree edge{'s' if count != 1 else ''} with non-constant "
                  f"face limits, |supp Q'| = {big(edges['support'])} > V = {big(edges['vertices'])}\n")
    multiples, faces = result.get("multiples"), result.get("disjoint_faces")
    if multiples and result["lower_bound"] == multiples["bound"]:  # LH/LS: the certificate of each block, in a line
        for b in multiples["blocks"][:3]:
            out.write(f"  {multiples['lemma']}: m* >= {big(multiples['bound'])}; block {b['block']}: mu(Q'_B) >= {big(b['mu'])} ({_multiple_text(b)})\n")
    if faces and result["lower_bound"] == faces["bound"]:  # LD: the faces, grouped by their functions' bounds
        counts: dict[tuple, int] = {}
        for f in faces["faces"]:
            counts[(f["bound"], f["lemma"])] = counts.get((f["bound"], f["lemma"]), 0) + 1
        parts = ", ".join(f"{n} x {big(b)} ({lemma})" for (b, lemma), n in counts.items())
        out.write(f"  disjoint faces (LD): m* >= {big(faces['bound'])} = {parts}; e.g. along {faces['faces'][0]['direction']}: "
                  f"F_c = {faces['faces'][0]['function']}\n")
    if result.get("theorem_k"):  # Theorem K: the eight faces of a K_4 tournament
        out.write(f"  Theorem K: m* >= {result['theorem_k']['bound']}; F is a K_4 tournament function: 4 disjoint source faces "
                  f"(LD, LH: 4 x 7) and 4 disjoint sink faces, each with a term off every source face (LN: 4 more)\n")
    minimum = result["minimum"]
    out.write(f"minimum m*: {big(minimum)}\n" if minimum is not None else "minimum m*: undecided by bounds\n")
    atoms = result["fused_head"].get("atoms_preview")
    if atoms is None and not args.no_atoms_list:
        out.write(f"atoms: not listed (each key has {result['dimension']} coordinates; --json lists atoms within its limits)\n")
    if atoms is not None:
        shown = atoms[:SHOWN_ATOMS]
        out.write("atoms (key | weight | value):\n")
        for atom in shown:
            key = ", ".join(str(k) for k in atom["key"])
            out.write(f"  ({key}) | {atom['weight']} | {atom['value']}\n")
        if result["upper_bound"] > len(shown):
            out.write(f"  ... {big(result['upper_bound'] - len(shown))} more (--json lists them)\n")
    out.write(answer_lines(analysis_answer(result, args)))
    return EXIT_OK


def _multiple_text(entry: dict) -> str:
    """'hexagon', or 'slices: 3 roots x (hexagon)' nested."""
    if entry["method"] != "slices":
        return entry["method"]
    roots = sum(k for _, k in entry["roots"])
    return f"slices: {roots + 1} x mu(A), A by {_multiple_text(entry['A'])}"


def certify_step(result: dict, args: argparse.Namespace) -> tuple[str | None, str]:
    """(the command that certifies this function, or None; why) — never one that refuses: when certify would refuse the
    function up front, the family theorem it belongs to (Theorem P for σ(a·q1) + σ(b·q1)), else no command."""
    refusal = result.get("certify_refusal")
    if not refusal:
        return f"headfusion certify {spec_words(args)}", "certify writes the certificate the kernel replays"
    if result.get("certify_instead"):
        return (result["certify_instead"], f"certify refuses this member ({refusal}); Theorem P certifies every pair "
                "σ(a·q1) + σ(b·q1), a ≠ b, at once")
    return None, f"certify cannot write its certificate yet: {refusal}"


def analysis_answer(result: dict, args: argparse.Namespace) -> dict:
    """What analyze answers about m*(F): proved when the bounds meet (computed exactly, not yet by the kernel), else unknown."""
    lemma = lemma_tables()[1].get(result["lower_bound_method"], result["lower_bound_method"] or "no lower bound")
    lower, upper, minimum = result["lower_bound"], result["upper_bound"], result["minimum"]
    step, why = certify_step(result, args)
    if minimum is not None:
        return answer("proved", f"m*(F) = {big(minimum)}", f"{lemma} and the fused head of {big(upper)} atoms, computed "
                      f"exactly ({why})", step)
    bounds = f"{big(lower)} ≤ m*(F) ≤ {big(upper)}" if lower is not None else f"m*(F) ≤ {big(upper)}"
    more = "certify searches between them where the search box is small enough" if step and step.endswith(spec_words(args)) else why
    return answer("unknown", bounds, f"the lower bound by {lemma} and the fused head do not meet; {more}", step)


def _newton_evidence(result: dict, out) -> None:
    """Lemma L5's evidence in a line: the vertex count and one witness (all of them in --json), or the blocks' product."""
    vertices, how = result.get("vertices"), result.get("newton_evidence")
    if not vertices:
        return
    if how == "explicit" and result.get("vertex_witnesses"):
        first = result["vertex_witnesses"][0]
        vertex, witness = (", ".join(str(v) for v in first[k]) for k in ("vertex", "witness"))
        listed = len(result["vertex_witnesses"])
        out.write(f"  Newton polytope (L5): m* >= {big(vertices)}; Newt(Q') has {big(vertices)} vertices, each the only "
                  f"maximiser of <c, .> on supp Q' for an integer witness c, e.g. ({vertex}) by c = ({witness})"
                  f" ({'all ' if listed == vertices else ''}{listed} listed in --json)\n")
    else:
        blocks = result["exponential_form"]["blocks_total"]
        out.write(f"  Newton polytope (L5, LP): m* >= {big(vertices)}; the product of the vertex counts of Newt(Q'_B) over the "
                  f"{big(blocks)} block{'s' if blocks != 1 else ''} (zonotopes counted by their hyperplane arrangements)\n")
