"""The one error type of rendering: a malformed certificate, a cyclic claims graph, a missing
or failing LaTeX engine, an unsafe file name.  Its message is one line, meant for stderr.
"""

from __future__ import annotations

from headfusion.spec.errors import CheckFailed


class RenderError(CheckFailed):
    """Rendering or compiling a certificate failed (one line, for stderr)."""
