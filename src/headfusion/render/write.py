"""Writing a certificate: its JSON, its .tex, extra files (.smt2 queries) and the PDF.

The only function here that touches the disk for a certificate; the document is rendered
before anything is written, so a failure leaves no half-written certificate behind.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from headfusion.render.errors import RenderError
from headfusion.render.files import INSTALL_HINT, atomic_write_set, check_targets, compile_pdf, latex_engine, safe_file_name, sanitize_slug
from headfusion.render.latex import render_latex
from headfusion.spec.errors import InputError


def write_certificate(
    cert: dict,
    out_dir: Path,
    extra_files: dict[str, str] | None = None,
    pdf: bool | None = None,
    name: str | None = None,
) -> dict[str, Path]:
    """Write <slug>.json, <slug>.tex, extra files and (optionally) <slug>.pdf into out_dir.

    `name` (checked by `spec.options.output_name`) replaces the slug in the file names only, the
    extra files' `<slug>.` prefix included: the certificate itself still records its own slug.

    Returns {"json": path, "tex": path, "pdf": path (when built), <extra name>: path, ...}.
    pdf=None builds the PDF when an engine is present, pdf=True requires it, pdf=False skips it.
    The set is written atomically (`files.atomic_write_set`): every file goes to a temporary
    in out_dir first, then all are renamed with SIGINT/SIGTERM held back, the .json (the
    certificate) last; out_dir holds the previous set or the new one, never half of each.
    The PDF is compiled in a `headfusion-tex-*` temporary folder that is removed on any exit
    the process survives (errors, Ctrl-C, SIGTERM through the CLI's handler).
    """
    out_dir = Path(out_dir)
    slug = sanitize_slug(cert.get("spec", {}).get("slug", "certificate"))
    engine = latex_engine()
    if pdf is True and engine is None:
        raise RenderError(f"no LaTeX engine found: {INSTALL_HINT}")
    extra = dict(extra_files or {})
    if name is not None:
        extra = {name + k[len(slug):] if k.startswith(slug + ".") else k: v for k, v in extra.items()}
        slug = sanitize_slug(name)
    for name in extra:
        if not safe_file_name(name):
            raise RenderError(f"unsafe extra file name: {name!r}")
        if name in (f"{slug}.json", f"{slug}.tex", f"{slug}.pdf"):
            raise RenderError(f"extra file name clashes with the certificate: {name}")
    tex = render_latex(cert, slug)  # render before writing anything: no half-written certificate
    json_text = json.dumps(cert, indent=1) + "\n"
    names = [f"{slug}.json", f"{slug}.tex", f"{slug}.pdf", *extra]
    check_targets([out_dir / name for name in names])  # before the LaTeX run: a taken name is refused at once
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the folder {out_dir}: {exc.strerror or exc}") from None
    pdf_bytes: bytes | None = None
    if pdf is not False and engine is not None:
        with tempfile.TemporaryDirectory(prefix="headfusion-tex-") as tmp:
            tex_path = Path(tmp) / f"{slug}.tex"
            tex_path.write_text(tex, encoding="utf-8")
            pdf_bytes = compile_pdf(tex_path, engine).read_bytes()
    files: list[tuple[str, Path, bytes]] = [(name, out_dir / name, extra[name].encode("utf-8")) for name in sorted(extra)]
    files.append(("tex", out_dir / f"{slug}.tex", tex.encode("utf-8")))
    if pdf_bytes is not None:
        files.append(("pdf", out_dir / f"{slug}.pdf", pdf_bytes))
    files.append(("json", out_dir / f"{slug}.json", json_text.encode("utf-8")))  # the certificate itself, last
    atomic_write_set([(path, data) for _, path, data in files])
    written = {kind: path for kind, path, _ in files}
    return written


def other_function_at(out_dir: Path, name: str | None, cert: dict) -> str | None:
    """A note when `certify --name NAME` is about to replace the certificate of another function (issue 41: it was
    overwritten silently); None when there is none, or it certifies the same function (a re-run)."""
    if name is None:
        return None
    path = Path(out_dir) / f"{sanitize_slug(name)}.json"
    try:
        if not path.is_file() or path.stat().st_size > 64 * 2**20:
            return None
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(old, dict) or (old.get("model"), old.get("spec", {}).get("text") if isinstance(old.get("spec"), dict) else None) == (
            cert.get("model"), cert.get("spec", {}).get("text")):
        return None
    title = old.get("spec", {}).get("title") if isinstance(old.get("spec"), dict) else None
    return f"replacing {path}, the certificate of another function" + (f" ({str(title)[:80]})" if title else "")
