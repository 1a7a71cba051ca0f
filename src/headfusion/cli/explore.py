"""`headfusion explore`: a table of bounds and minima over a family's parameter."""

from __future__ import annotations

import argparse
import re
import sys

from headfusion.cli.common import (ANSWER_KINDS, EXIT_CHECK_FAILED, EXIT_OK, big, missing_folders, one_line, print_json,
                                   say_made, spec_words)
from headfusion.cli.progress import Progress
from headfusion.spec import options
from headfusion.spec.errors import InputError


def cmd_explore(args: argparse.Namespace) -> int:
    from headfusion.proof.explore import check_parameterised, explore, parameterised_title, parse_range
    from headfusion.render.errors import RenderError
    from headfusion.render.explore import write_explore
    from headfusion.render.files import sanitize_slug
    from headfusion.spec.load import load_spec

    out_dir = options.out_dir(args.out)  # a writable folder, checked before any work
    made = missing_folders(out_dir)
    values = parse_range(args.range)
    check_parameterised(args.spec)
    try:
        first = load_spec(args.spec, values.start)  # validates the spec and the range start before any work
        if len(values) > 1 and first.kind == "toml":
            load_spec(args.spec, values[-1])  # and the range's end (within the TOML's own [parameter] range)
        with Progress("explore", quiet=args.quiet, total=len(values), unit="value") as progress:
            rows = [r.to_json() for r in explore(args.spec, values, args.timeout,
                                                 progress=lambda done, note: progress.update(done=done, note=note))]
    except InputError as exc:  # no --d was typed here: the value came from --range
        raise type(exc)(re.sub(r"--d (\d+)", rf"the value \1 of --range {args.range}", str(exc))) from None
    name = _parameter_name(first)
    slug = args.name or sanitize_slug(first.slug.rsplit("_", 1)[0] if first.d is not None else first.slug)
    title = parameterised_title(first)
    try:
        paths = write_explore(rows, out_dir, slug, title, png=not args.no_pdf, parameter=name)
    except RenderError as exc:
        sys.stderr.write(f"headfusion: error: {one_line(str(exc))}\n")
        return EXIT_CHECK_FAILED
    say_made(made)
    if args.json:
        print_json({"rows": rows,
                    "files": {k: str(v) for k, v in sorted(paths.items())}})
        return EXIT_OK
    out = sys.stdout
    out.write(f"{name:>4} {'terms':>7} {'lower':>10} {'upper':>10} {'minimum':>10}  answer: decided by (lower bound from)\n")
    for r in rows:
        minimum = "unknown" if r["minimum"] is None else big(r["minimum"])
        how = r["decided_by"] + (f": {r['search_note']}" if r["search_note"] else "")
        out.write(f"{r['d']:>4} {r['head_atom_terms']:>7} {big(r['lower_bound']):>10} {big(r['upper_bound']):>10} "
                  f"{minimum:>10}  {r['answer_kind']}: {how} ({r['lower_bound_method']})\n")
    for kind, path in sorted(paths.items()):
        out.write(f"wrote {path}\n")
    if "png" not in paths and not args.no_pdf:
        out.write("no plot image: needs a LaTeX engine and pdftoppm (poppler-utils)\n")
    kinds = [r["answer_kind"] for r in rows]
    out.write("answer kinds: " + ", ".join(f"{kinds.count(k)} {k}" for k in ANSWER_KINDS if k in kinds)
              + " (proved: the bounds meet, computed exactly; testimony: z3 excluded smaller m, not checked by the kernel)\n")
    out.write(f"next: headfusion certify {spec_words(args).split(' --d ')[0]} --d D  (the kernel-checked certificate of one value)\n")
    return EXIT_OK


def _parameter_name(spec) -> str:
    """The parameter's own name for the table's first column: d for a family, the TOML [parameter]'s name (n for graphs)."""
    if spec.kind != "toml":
        return "d"
    from headfusion.spec.toml import read_toml_spec

    document = read_toml_spec(spec.text)
    return document.parameter.name if document.parameter else "d"
