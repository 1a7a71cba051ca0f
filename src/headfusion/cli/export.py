"""`headfusion export --coq CERT.json --out DIR`: the certificate as a Coq file plus the library it loads."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from headfusion.cli.common import UsageError, one_line, print_json


def library_text(name: str) -> str:
    """A fixed library file shipped inside the package (src/headfusion/export/coq/)."""
    return (resources.files("headfusion.export") / "coq" / name).read_text(encoding="utf-8")


def cmd_export(args: argparse.Namespace) -> int:
    """Write DIR/<name>.v and the library files; the last line printed is the command that checks them."""
    from headfusion.export.coq import LIBRARY, check_command, export_coq
    from headfusion.kernel.base import SchemaError, parse_json, read_certificate_text

    if not args.coq:
        raise UsageError("choose a proof assistant: --coq (the only one so far)")
    try:
        cert = parse_json(read_certificate_text(args.certificate))
    except SchemaError as exc:
        raise UsageError(f"{args.certificate}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {args.certificate}: {exc.strerror or exc}") from None
    exported = export_coq(cert)
    folder = Path(args.out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in LIBRARY:
            (folder / name).write_text(library_text(name), encoding="utf-8")
        (folder / f"{exported.name}.v").write_text(exported.text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    command = check_command(exported.name)
    if args.json:
        print_json({"ok": True, "folder": str(folder), "file": f"{exported.name}.v", "library": list(LIBRARY),
                    "lower": exported.lower, "upper": exported.upper, "exported": exported.exported, "statement_problem": exported.statement,
                    "left_out": [{"claim": c, "reason": r} for c, r in exported.left_out], "command": command})
        return 0
    bounds = {(None, None): "no bound", }.get((exported.lower, exported.upper))
    if bounds is None:
        lo, up = exported.lower, exported.upper
        bounds = f"m*(F) = {up}" if lo == up else " and ".join(x for x in (lo and f"m*(F) >= {lo}", up and f"m*(F) <= {up}") if x)
    sys.stdout.write(f"wrote {folder / (exported.name + '.v')} and {len(LIBRARY)} library files; the theorem: {bounds}\n")
    sys.stdout.write(f"exported claims: {', '.join(exported.exported)}\n")
    if exported.statement:
        sys.stdout.write(one_line(f"warning: the spec text does not give this model ({exported.statement}): the title is not F's name") + "\n")
    for claim, reason in exported.left_out:
        sys.stdout.write(one_line(f"not exported: {claim} ({reason})") + "\n")
    sys.stdout.write(f"check it from {folder}:\n{command}\n")
    return 0
