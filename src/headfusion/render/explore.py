"""Explore output: the table of bounds over d (CSV, JSON) and its pgfplots figure.

`explore_pgfplots` draws head-atom terms and single-head bounds on a log2 scale as a
tikzpicture that can be \\input anywhere; `write_explore` writes the table, the figure and,
with a LaTeX engine, a standalone PDF and PNG of it.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from headfusion.render.files import atomic_write, sanitize_slug
from headfusion.render.notation import formula_tex
from headfusion.render.tex import log2_int, tex_text

EXPLORE_COLUMNS = ("d", "heads", "head_atom_terms", "lower_bound", "lower_bound_method", "upper_bound", "minimum",
                   "decided_by", "search_note")


_MATH_BITS = re.compile(r"(?:sigmoid|tanh)\([^()]*\)|\b[A-Za-z]_\{?[A-Za-z0-9]+\}?|\b[a-z] ?[<>]=? ?[a-z]\b")


def title_tex(title: str) -> str:
    """The plot's title as mathematics (issue 41: it was set as code): a formula whole when it is one, else its
    formulas — σ(…), C_n, i < j — in math mode between the author's words."""
    whole = formula_tex(title)
    if whole:
        return f"${whole}$"
    out, pos = [], 0
    for bit in _MATH_BITS.finditer(title):
        formula = formula_tex(bit.group(0)) or (bit.group(0).replace(" ", "").replace("<", "<") if re.fullmatch(
            r"[a-z] ?[<>]=? ?[a-z]", bit.group(0)) else None)
        out += [tex_text(title[pos:bit.start()]), f"${formula}$" if formula else tex_text(bit.group(0))]
        pos = bit.end()
    return "".join(out) + tex_text(title[pos:])


def explore_pgfplots(rows: list[dict], title: str, parameter: str = "d") -> str:
    """A tikzpicture (pgfplots, log2 scale) of cost and single-head bounds over the parameter, \\input-able anywhere."""
    def series(key: str) -> str:
        points = [f"({r['d']},{log2_int(r[key]):.4f})" for r in rows if r.get(key)]
        return " ".join(points)

    lines = [
        r"\begin{tikzpicture}",
        r"\begin{axis}[width=11cm,height=7cm,xlabel={$" + parameter + r"$},ylabel={$\log_2$ atoms},legend pos=north west,"
        r"title={" + title_tex(title) + r"},xtick=data,grid=major]",
        r"\addplot[blue,mark=*] coordinates {" + series("head_atom_terms") + r"};",
        r"\addlegendentry{multi-head: head-atom terms}",
        r"\addplot[red,mark=square*] coordinates {" + series("upper_bound") + r"};",
        r"\addlegendentry{single head: upper bound}",
        r"\addplot[black,dashed,mark=triangle*] coordinates {" + series("lower_bound") + r"};",
        r"\addlegendentry{single head: lower bound}",
    ]
    decided = series("minimum")
    if decided:
        lines += [r"\addplot[only marks,mark=o,mark size=4pt,green!50!black] coordinates {" + decided + r"};",
                  r"\addlegendentry{minimum $m^*$ (decided)}"]
    lines += [r"\end{axis}", r"\end{tikzpicture}", ""]
    return "\n".join(lines)


def write_explore(rows: list[dict], out_dir: Path, slug: str, title: str, png: bool = True, parameter: str = "d") -> dict[str, Path]:
    """Write <slug>.explore.{csv,json}, the pgfplots figure (.pgf.tex) and, with a LaTeX engine, PDF and PNG; the CSV's
    first column and the plot's axis are named after the spec's `parameter` (n for a family of graphs)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    slug = sanitize_slug(slug)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow((parameter,) + EXPLORE_COLUMNS[1:])
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row[c] for c in EXPLORE_COLUMNS])
    figure = explore_pgfplots(rows, title, parameter)
    files = {
        "csv": (out_dir / f"{slug}.explore.csv", buffer.getvalue()),
        "json": (out_dir / f"{slug}.explore.json", json.dumps({"title": title, "rows": rows}, indent=1) + "\n"),
        "pgfplots": (out_dir / f"{slug}.explore.pgf.tex", figure),
    }
    paths: dict[str, Path] = {}
    for kind, (path, text) in files.items():
        atomic_write(path, text.encode("utf-8"))
        paths[kind] = path
    if png:
        from headfusion.render.atlas import standalone_png

        paths.update(standalone_png(figure, out_dir, f"{slug}.explore", preamble=r"\usepackage{pgfplots}\pgfplotsset{compat=1.16}"))
    return paths
