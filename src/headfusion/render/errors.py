"""The one error type of rendering: a malformed certificate, a cyclic claims graph, a missing
or failing LaTeX engine, an unsafe file name.  Its message is one line, meant for stderr.
"""

from __future__ import annotations


class RenderError(Exception):
    """Rendering or compiling a certificate failed (one line, for stderr)."""
