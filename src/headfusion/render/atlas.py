"""Atlas output: the table of a grid's points (Markdown, LaTeX, CSV, JSON) and a figure where it helps.

Pure text builders (`atlas_markdown`, `atlas_latex`, `atlas_csv`, `atlas_json`, `atlas_figure`) and
`write_atlas`, which writes them atomically and, with a LaTeX engine, compiles the table and the figure
(`standalone_png` is also the explore plot's compiler).  Deterministic: the same rows give the same bytes.
"""

from __future__ import annotations

import collections
import csv
import io
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from headfusion.render.files import LATEX_TIMEOUT, atomic_write, compile_pdf, latex_engine
from headfusion.render.tex import latex_escape, tex_breakable, tex_text

HEADERS = ("lower", "upper", "m*", "status", "lower bound by")
GRAPH_HEADERS = ("edges", "n", "V", "\\|supp Q′\\|")  # a graph map's Markdown columns after the graph's number
GRAPH_FIELDS = ("edges", "vertices", "V", "support")


def _graphs(rows: list[dict]) -> bool:
    """Whether the rows are a graph map's (each carries its graph's edges)."""
    return bool(rows) and all("edges" in row for row in rows)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _cells(row: dict) -> list[str]:
    minimum = "" if row["minimum"] is None else str(row["minimum"])
    lemma = row["lemma"] or (f"refused: {row['reason']}" if row.get("reason") else "")
    claim = f", {row['claim']}" if row.get("claim") else ""
    graph = [_text(row[k]) for k in GRAPH_FIELDS] if "edges" in row else []
    return [str(v) for v in row["point"].values()] + graph + ["" if row["lower"] is None else str(row["lower"]),
                                                              "" if row["upper"] is None else str(row["upper"]), minimum,
                                                              row["status"], lemma + claim]


LEGEND = ("“lower” and “upper” are the bounds on m* that the point's certificate proves, and “m*” their value when they meet;"
          " “status” is proved (lower = upper), bounds (they do not meet), or why no certificate was written (refused, failed,"
          " time limit); “lower bound by” names the lemma and the claim of the certificate that give the lower bound.")
HEAD_LEGEND = " “head” says how the head of the upper bound was built."


def summary_lines(rows: list[dict]) -> list[str]:
    """Under the table: the decided count, then how many lower bounds each lemma gives and (with the head column) how many
    upper bounds each kind of head gives, most frequent first."""
    decided = sum(1 for r in rows if r["minimum"] is not None)

    def counted(values: collections.Counter) -> str:
        return "; ".join(f"{value} {count}" for value, count in sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))) + "."
    lines = [f"{len(rows)} points, {decided} decided (m* proved), {len(rows) - decided} with bounds only or refused.",
             "Lower bounds by: " + counted(collections.Counter(r["lemma"] or r["status"] for r in rows))]
    return lines + ["Upper bounds by the head: " + counted(collections.Counter(r.get("construction") or r["status"] for r in rows))] * _beaten(rows)


def _inline_tex(text: str) -> str:
    """Markdown prose for LaTeX: escaped, `code` in typewriter."""
    parts = text.split("`")
    return "".join(rf"\texttt{{{tex_breakable(p)}}}" if i % 2 else tex_text(p) for i, p in enumerate(parts))


def _name_tex(name: str) -> str:
    """A parameter's column header: a letter in math italics, a word (graph) upright."""
    return f"${latex_escape(name)}$" if len(name) == 1 else latex_escape(name)


def _beaten(rows: list[dict]) -> bool:
    """Whether the table says how each head was found (DESIGN §10): on a graph map, or when some head is not the product head."""
    return _graphs(rows) or any(row.get("construction") not in (None, "product", "reduced") for row in rows)


def atlas_markdown(rows: list[dict], title: str, names: list[str], note: str = "") -> str:
    """A Markdown table of the rows (one line per point); a column "head" when a construction beats the product head."""
    kinds = _beaten(rows)
    head = list(names) + list(GRAPH_HEADERS) * _graphs(rows) + list(HEADERS) + ["head"] * kinds
    lines = [f"# Atlas: {title}", ""] + ([note, ""] if note else []) + [LEGEND + HEAD_LEGEND * kinds, ""]
    lines += ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for row in rows:
        cells = _cells(row) + [row.get("construction") or ""] * kinds
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    first, *more = summary_lines(rows)
    lines += ["", first, ""] + [f"- {line}" for line in more] + [""]
    return "\n".join(lines)


def atlas_csv(rows: list[dict], names: list[str]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    fields = GRAPH_FIELDS * _graphs(rows) + ("lower", "upper", "minimum", "status", "lemma", "claim", "certificate", "reason") + ("construction",) * _beaten(rows)
    writer.writerow(list(names) + list(fields))
    for row in rows:
        writer.writerow([*row["point"].values(), *("" if row.get(k) is None else row[k] for k in fields)])
    return buffer.getvalue()


def atlas_json(rows: list[dict], title: str, spec: str, ranges: list[str]) -> str:
    return json.dumps({"title": title, "spec": spec, "ranges": ranges, "rows": rows}, indent=1) + "\n"


def _title_tex(title: str, spec: str | None, ranges: list[str] | None) -> str:
    """The atlas's heading: its function in mathematical notation when it reads as one (else the title as text)."""
    if spec is None or ranges is None:
        return tex_text(title)
    from headfusion.render.notation import formula_tex

    try:
        formula = formula_tex(spec)
    except Exception:  # noqa: BLE001 - a family name or a TOML path: the plain title
        return tex_text(title)
    if not isinstance(formula, str) or not formula:  # a graph map (graphs:N) is no formula
        return tex_text(title)
    return rf"${formula}$ over " + ", ".join(tex_text(r) for r in ranges)


def atlas_latex(rows: list[dict], title: str, names: list[str], figure: str | None, function: str | None = None,
                ranges: list[str] | None = None, note: str = "") -> str:
    """A standalone LaTeX document: what the table is (the note and the legend of the Markdown), the figure if any, the
    table (longtable, with the head column when the Markdown has it) and the summary lines."""
    graph, kinds = _graphs(rows), _beaten(rows)
    head = " & ".join([_name_tex(n) for n in names] + [r"edges", "$n$", "$V$", r"$|\mathrm{supp}\,Q'|$"] * graph
                      + ["lower", "upper", "$m^*$", "status", "lower bound by"] + ["head"] * kinds)
    body = [" & ".join(latex_escape(c) for c in _cells(row) + [row.get("construction") or ""] * kinds) + r"\\" for row in rows]
    spec = "r" * len(names) + "lrrr" * graph + "rrrll" + "l" * kinds
    legend = _inline_tex(LEGEND + HEAD_LEGEND * kinds).replace("m*", "$m^*$")
    words = (r"\sloppy\noindent " + _inline_tex(note) + "\n\n" if note else "") + r"\noindent " + legend + "\n\n"
    return "\n".join([
        r"\documentclass[10pt]{article}", r"\usepackage[margin=2cm" + ",landscape" * graph + "]{geometry}",
        r"\usepackage{longtable,booktabs,tikz}", r"\begin{document}" + r"\small" * graph, r"\section*{Atlas: " + _title_tex(title, function, ranges) + "}",
        words, (figure or "") + ("\n\n" if figure else ""),
        r"\begin{longtable}{" + spec + "}", r"\toprule", head + r"\\", r"\midrule", r"\endhead",
        *body, r"\bottomrule", r"\end{longtable}",
        *(r"\par\noindent " + _inline_tex(line).replace("m*", "$m^*$") for line in summary_lines(rows)), r"\end{document}", ""])


def atlas_figure(rows: list[dict], names: list[str]) -> str | None:
    """A TikZ grid of m* (or lower–upper) over two integer parameters; None for other grids (the table says it all)."""
    if len(names) != 2 or not rows or any(not isinstance(v, int) for r in rows for v in r["point"].values()):
        return None  # a listed fraction ("1/2") has no place on an integer grid
    a, b = names
    cells = []
    top = max((r["upper"] or 0) for r in rows) or 1
    for row in rows:
        x, y = row["point"][a], row["point"][b]
        if row["minimum"] is not None:
            text, shade = str(row["minimum"]), int(10 + 35 * row["minimum"] / top)
        elif row["lower"] is not None:
            text, shade = f"{row['lower']}--{row['upper']}", 0
        else:
            text, shade = "--", 0
        fill = f"blue!{shade}" if shade else "red!15"
        cells.append(rf"\node[draw=white,fill={fill},minimum size=7mm,font=\scriptsize] at ({x * 0.7:.2f},{y * 0.7:.2f}) {{{text}}};")
    xs = sorted({r["point"][a] for r in rows})
    ys = sorted({r["point"][b] for r in rows})
    labels = [rf"\node[font=\scriptsize] at ({x * 0.7:.2f},{(min(ys) - 1) * 0.7:.2f}) {{{x}}};" for x in xs]
    labels += [rf"\node[font=\scriptsize] at ({(min(xs) - 1) * 0.7:.2f},{y * 0.7:.2f}) {{{y}}};" for y in ys]
    labels += [rf"\node at ({(min(xs) + max(xs)) * 0.35:.2f},{(min(ys) - 1.8) * 0.7:.2f}) {{${latex_escape(a)}$}};",
               rf"\node at ({(min(xs) - 1.8) * 0.7:.2f},{(min(ys) + max(ys)) * 0.35:.2f}) {{${latex_escape(b)}$}};"]
    return "\n".join([r"\begin{tikzpicture}", *cells, *labels, r"\end{tikzpicture}"])


def standalone_png(figure: str, out_dir: Path, stem: str, size: str = "paperwidth=12.5cm,paperheight=8.5cm",
                   preamble: str = "") -> dict[str, Path]:
    """Compile a tikzpicture on its own page to <stem>.pdf and, with pdftoppm, <stem>.png (nothing without an engine)."""
    engine = latex_engine()
    if engine is None:
        return {}
    document = "\n".join([r"\documentclass{article}", rf"\usepackage[{size},margin=2mm]{{geometry}}",
                          r"\usepackage{tikz}" + preamble + r"\pagestyle{empty}", r"\begin{document}\centering", figure,
                          r"\end{document}", ""])
    paths: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tex = Path(tmp) / f"{stem}.tex"
        tex.write_text(document, encoding="utf-8")
        pdf = compile_pdf(tex, engine)
        atomic_write(out_dir / pdf.name, pdf.read_bytes())
        paths["pdf"] = out_dir / pdf.name
        if shutil.which("pdftoppm"):
            subprocess.run(["pdftoppm", "-png", "-r", "110", "-singlefile", str(pdf), str(Path(tmp) / "plot")],
                           check=True, stdin=subprocess.DEVNULL, capture_output=True, timeout=LATEX_TIMEOUT)
            atomic_write(out_dir / f"{stem}.png", (Path(tmp) / "plot.png").read_bytes())
            paths["png"] = out_dir / f"{stem}.png"
    return paths


def write_atlas(rows: list[dict], out_dir: Path, title: str, names: list[str], spec: str, ranges: list[str],
                note: str = "", pdf: bool = True) -> dict[str, Path]:
    """Write atlas.{md,csv,json,tex} into out_dir and, with a LaTeX engine, atlas.pdf and the figure (PDF, PNG)."""
    figure = atlas_figure(rows, names)
    files = {"markdown": ("atlas.md", atlas_markdown(rows, title, names, note)), "csv": ("atlas.csv", atlas_csv(rows, names)),
             "json": ("atlas.json", atlas_json(rows, title, spec, ranges)), "tex": ("atlas.tex", atlas_latex(rows, title, names, figure, spec, ranges, note))}
    paths: dict[str, Path] = {}
    for kind, (name, text) in files.items():
        atomic_write(out_dir / name, text.encode("utf-8"))
        paths[kind] = out_dir / name
    engine = latex_engine() if pdf else None
    if engine is not None:
        with tempfile.TemporaryDirectory() as tmp:
            tex = Path(tmp) / "atlas.tex"
            tex.write_text(files["tex"][1], encoding="utf-8")
            atomic_write(out_dir / "atlas.pdf", compile_pdf(tex, engine).read_bytes())
            paths["pdf"] = out_dir / "atlas.pdf"
        if figure is not None:
            width = max(r["point"][names[0]] for r in rows) - min(r["point"][names[0]] for r in rows) + 3
            height = max(r["point"][names[1]] for r in rows) - min(r["point"][names[1]] for r in rows) + 3
            found = standalone_png(figure, out_dir, "atlas.figure", f"paperwidth={0.7 * width + 1:.1f}cm,paperheight={0.7 * height + 1:.1f}cm")
            paths.update({f"figure_{k}": v for k, v in found.items()})
    return paths
