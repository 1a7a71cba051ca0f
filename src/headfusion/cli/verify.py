"""`headfusion verify`: the kernel replays every claim of a certificate."""

from __future__ import annotations

import argparse
import sys

from headfusion.cli.common import (EXIT_CHECK_FAILED, EXIT_OK, UsageError, answer, answer_lines, certificate_answer, one_line,
                                   plain_maths, print_json)
from headfusion.cli.progress import Progress


def cmd_verify(args: argparse.Namespace) -> int:
    """Replay every claim with the kernel; exit 1 if any fails, 2 if the file is not a bounded certificate."""
    from headfusion.kernel.base import SchemaError, parse_json, read_certificate_text
    from headfusion.proof.replay import verify_bounded, verify_text

    progress = Progress("verify", quiet=args.quiet)
    try:
        progress("the kernel replays every claim")
        if args.resolve:  # the file is read once: the solvers get the very text the kernel checked
            text = read_certificate_text(args.certificate)
            report = verify_text(text, args.timeout)
        else:
            text = None
            report = verify_bounded(args.certificate, args.timeout)  # cost model, then the kernel in a child with a deadline
        cert = parse_json(text if text is not None else read_certificate_text(args.certificate)) if report.ok else None  # its summary
    except SchemaError as exc:
        raise UsageError(f"{args.certificate}: {exc}") from None
    except OSError as exc:  # e.g. /proc/self/mem: a "regular file" that cannot be read
        raise UsageError(f"cannot read {args.certificate}: {exc.strerror or exc}") from None
    finally:
        progress.close()
    resolved: list[tuple[str, str, str]] = []
    if args.resolve and report.ok:
        from headfusion.solving.resolve import resolve_testimony

        with Progress("verify --resolve", quiet=args.quiet) as solving:
            solving("re-solving the solver testimony")
            resolved = resolve_testimony(cert)
    ok = report.ok and not any(v == "sat" or v.startswith("hash mismatch") for _, _, v in resolved)
    rows = [{"id": i, "kind": k, "outcome": o, "message": m} for i, k, o, m in report.rows]
    from headfusion.render.everyd import first_member

    answered = verification_answer(ok, report.shown[2], cert["summary"] if ok and cert else None, rows, args.certificate,
                                   first_member(cert) if ok and cert else None,
                                   refute_step(cert, rows) if args.resolve and ok and cert else None)
    if args.json:
        function, title, theorem = report.shown  # the theorem as the console writes it; its LaTeX as the certificate prints it
        print_json({"ok": ok, "function": function, "title": title, "theorem": plain_maths(theorem) if theorem else theorem,
                    "theorem_latex": theorem, **answered, "claims": rows,
                    "resolve": [{"claim": c, "solver": s, "verdict": v} for c, s, v in resolved]})
        return EXIT_OK if ok else EXIT_CHECK_FAILED
    for outcome in ("checked", "testimony", "undecided"):
        ids = [r["id"] for r in rows if r["outcome"] == outcome]
        if ids:
            label = {"checked": "proved and replayed", "testimony": "solver testimony, NOT checked",
                     "undecided": "undecided searches"}[outcome]
            sys.stdout.write(f"{label}: {len(ids)} ({', '.join(ids[:12])}{', ...' if len(ids) > 12 else ''})\n")
    for r in rows:
        if r["outcome"] == "failed":
            sys.stdout.write(one_line(f"FAILED {r['id']} ({r['kind']}): {r['message']}") + "\n")  # ids and kinds are the file's
    for claim, solver, verdict in resolved:
        sys.stdout.write(f"re-solved {claim} with {solver}: {verdict}\n")
    if ok:
        function, title, statement = report.shown  # the kernel's text, never the file's
        sys.stdout.write(f"certificate verified: {plain_maths(statement)}\n  F = {function}\n  (title, the spec's own label: {title})\n")
    else:
        sys.stdout.write("certificate REJECTED\n")
    sys.stdout.write(answer_lines(answered))
    return EXIT_OK if ok else EXIT_CHECK_FAILED


def refute_step(cert: dict, rows: list[dict]) -> str:
    """After `verify --resolve` (not itself again): the refutation that would turn the first testimony into a proof."""
    import shlex

    ms = sorted(int(r["id"].split(":m")[1]) for r in rows if r["outcome"] == "testimony" and ":m" in r["id"])
    command = [str(w) for w in cert.get("metadata", {}).get("command", [])]
    if not ms or len(command) < 3 or command[1] != "certify":
        return ""
    d = next((f" --d {b}" for a, b in zip(command, command[1:]) if a in ("--d", "-d")), "")
    return f"headfusion search {shlex.quote(command[2])}{d} --atoms {ms[0]} --refute"


def verification_answer(ok: bool, statement: str, summary: dict | None, rows: list[dict], path: str,
                        first: tuple[int, str] | None = None, after_resolve: str | None = None) -> dict:
    """The answer of `verify`: the kernel's theorem when every claim replays (its summary is the kernel's own), else none.

    `after_resolve`: the next step once `--resolve` has run (never `verify --resolve` again; "" for none)."""
    if not ok or summary is None:
        failed = next((r for r in rows if r["outcome"] == "failed"), None)
        why = f"{failed['id']} does not re-check" if failed else "the theorem was not checked"
        return answer("unknown", "this file proves nothing", f"the kernel rejects it ({why})", None)
    testimony = sum(r["outcome"] == "testimony" for r in rows)
    again = (after_resolve or None) if after_resolve is not None else f"headfusion verify {path} --resolve"
    answered = certificate_answer(summary, plain_maths(statement), again if testimony else None,
                                  any(r["id"] == "family:graphs" for r in rows), first)
    return answered
