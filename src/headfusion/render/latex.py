"""LaTeX rendering of certificates: the Jinja2 environment and `render_latex`.

`render_latex` is pure and deterministic: the same certificate dict gives the same bytes.
The template (templates/certificate.tex.j2, with LaTeX-safe delimiters) only places the
snippets that `context.build_context` prepared from the certificate; it includes one file per
lemma, templates/lemmas/ID.tex.j2 (`((* include "lemmas/ID.tex.j2" *))`, loaded by the same
loader). Writing files and compiling the PDF are in `write` and `files`.
"""

from __future__ import annotations

from importlib import resources

import jinja2

from headfusion.render.context import build_context
from headfusion.render.errors import RenderError
from headfusion.render.tex import latex_escape, tex_tt

TEMPLATE_NAME = "certificate.tex.j2"


def _load_template(name: str) -> str:
    return resources.files("headfusion.templates").joinpath(name).read_text(encoding="utf-8")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_template),
        block_start_string="((*",
        block_end_string="*))",
        variable_start_string="(((",
        variable_end_string=")))",
        comment_start_string="((=",
        comment_end_string="=))",
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["e"] = latex_escape
    env.filters["latex_escape"] = latex_escape
    env.filters["tt"] = tex_tt
    return env


def render_latex(cert: dict, file_stem: str | None = None) -> str:
    """The certificate as a LaTeX document (pure and deterministic); file_stem names its files (default: the spec's slug)."""
    try:
        context = build_context(cert, file_stem)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RenderError(f"malformed certificate: {type(exc).__name__}: {exc}") from None
    return _environment().get_template(TEMPLATE_NAME).render(**context)
