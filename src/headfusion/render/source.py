"""How the function of a certificate was given, in words: the title, the spec, the family, the TOML text.

Only what the statement layer parsed is stated as the definition of F: the expression, the family
built into headfusion, or the TOML text's function (expanded by the same parser the verifier
runs).  What a spec's author wrote in words — the TOML title and descriptions — is not checked:
the title is printed labelled as the author's, the descriptions are left out of the printed TOML
text, and no file name or path outside the certificate appears (a TOML spec's path in the recorded
command becomes SPEC, a file holding the embedded text).
"""

from __future__ import annotations

import re
import shlex
import tomllib
from typing import TYPE_CHECKING

from headfusion.render.everyd import first_member_clause
from headfusion.render.notation import formula_tex
from headfusion.render.tex import tex_breakable, tex_int, tex_text, tex_tt

if TYPE_CHECKING:
    from headfusion.spec.toml import TomlSpec

MAX_SOURCE_LINES = 80  # lines of an embedded TOML text shown in the appendix
AUTHORS_KEYS = ("title", "description")  # TOML keys whose values are the author's words


def _toml_names(doc: TomlSpec, spec: dict) -> tuple[str, str]:
    """(spec name, parameter name) of an embedded TOML text as the statement layer parsed it (`doc`).

    A text without `name` took its name from its file; the certificate records that name as `text`."""
    return str(doc.name or spec.get("text") or "without a name"), doc.parameter.name if doc.parameter else "d"


def _math(text: object) -> str | None:
    formula = formula_tex(text)
    return None if formula is None else "$" + unbroken_groups(formula) + "$"


def unbroken_groups(formula: str) -> str:
    """Each outermost (…) of a math formula in braces: TeX breaks a line only at the top level, so a title may break
    between the terms of F but never inside σ(2q_1+1)."""
    out, depth = [], 0
    for ch in formula:
        if ch == "(" and depth == 0:
            out.append("{")
        out.append(ch)
        depth += (ch == "(") - (ch == ")")
        if ch == ")" and depth == 0:
            out.append("}")
    return "".join(out)


def _plural(n: int, word: str) -> str:
    return f"one {word}" if n == 1 else f"${tex_int(n)}$ {word}s"


def _family_lhs(title: str) -> str | None:
    """'W_d(q) = …' -> 'W_{d}', the name a built-in family's title gives its members."""
    m = re.fullmatch(r"\s*([A-Z])_d\(q\)\s*=.*", title)
    return f"{m.group(1)}_{{d}}" if m else None


def _every_d_bound(summary: dict, name: str) -> str:
    lower, upper = tex_int(summary["lower_bound"]), tex_int(summary["upper_bound"])
    if lower == upper:
        return rf"$m^*({name})={lower}^d$ for every $d\ge1$"
    return rf"${lower}^d\le m^*({name})\le {upper}^d$ for every $d\ge1$"


def _top_level_terms(text: str) -> list[str]:
    """'a + f(b - c) - [d]' -> ['a ', '+ f(b - c) ', '- [d]']: split before each + or − (after a space) outside brackets."""
    terms, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if depth == 0 and ch in "+-" and i > start and text[i - 1] == " ":
            terms.append(text[start:i])
            start = i
    return terms + [text[start:]]


def _unwrap_terms(text: str) -> str:
    """'(sigmoid(a)) + (sigmoid(b))' -> 'sigmoid(a) + sigmoid(b)': parentheses around a term added with + change nothing."""
    out = []
    for term in _top_level_terms(text):
        body = term.strip()
        sign = body[0] if body[:1] in "+-" else ""
        inner = body[1:].strip() if sign else body
        if sign != "-" and inner.startswith("(") and inner.endswith(")") and _balanced(inner[1:-1]):
            inner = inner[1:-1]
        out.append((f" {sign} " if sign else "") + inner)
    return "".join(out).strip()


def tex_tt_terms(text: str) -> str:
    """An expression in typewriter type that breaks only between its top-level terms (never inside a list or a call)."""
    terms = _top_level_terms(text)
    if any(len(t) > 60 for t in terms):  # a term longer than a line: let it break where tex_tt breaks
        return tex_tt(text)
    return r"\ ".join(r"\mbox{" + tex_tt(t.strip()).replace(r"\allowbreak{}", "") + "}" for t in terms if t.strip())


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def function_parts(cert: dict) -> dict:
    """Title, formula of F, how it was given, the author's title (labelled) and, for every d, the family."""
    from headfusion.spec.toml import parse_toml_text
    from headfusion.spec.toml_expand import expand

    spec, summary, model = cert.get("spec", {}), cert["summary"], cert["model"]
    kind, every_d = spec.get("kind"), bool(spec.get("every_d"))
    nheads, atoms = summary.get("heads", 0), summary.get("head_atom_terms", 0)
    out: dict = {"every_d": every_d, "pair_family": False, "authors_title": None, "every_d_family": None, "family_corollary": None, "source_note": None,
                 "heads_phrase": ("one head" if nheads == 1 else f"a sum of ${tex_int(nheads)}$ heads")
                 + f" with {_plural(atoms, 'atom')}" + ("" if nheads == 1 else " in total")}
    labels = [h.get("label", "") for h in model.get("heads", [])]
    block = formula_tex(" + ".join(labels)) if all(labels) and str(model.get("constant", 0)) == "0" else None
    doc = parse_toml_text(str(spec["source"]), "the embedded TOML spec") if kind == "toml" else None
    toml_name, parameter = _toml_names(doc, spec) if doc is not None else (None, None)
    if kind == "toml":
        out["source_note"] = ((rf"The option \texttt{{-{{}}-d}} of the recorded command sets the spec's parameter, here ${tex_text(parameter)}={tex_int(spec['d'])}$. "
                               if spec.get("d") is not None and not every_d else "")
                              + r"The verifier checks with headfusion's spec parser, outside its kernel, that this text gives the heads of Table~\ref{tab:heads}"
                              + (rf" (the \texttt{{[graph]}} generator names the networkx function {tex_tt(doc.generator)},"
                                 r" which lists the graph's edges)" if doc is not None and doc.generator else "")
                              + r"; the kernel reads $F$ from that list of heads (keys, weights, values), and it is what the certificate is about.")
        out["authors_title"] = tex_tt(spec.get("title", "")) if spec.get("title") else None
        written = doc.title
        substituted = spec.get("d") is not None and written is not None and written != spec.get("title")
        lettered = written is not None and written != spec.get("title")  # for every d, {d} is written as the letter d
        out["authors_note"] = (rf"(the author's words with ${tex_text(parameter)}={tex_int(spec['d'])}$ substituted; not checked)" if substituted
                               else rf"(the author's words, with the parameter written as the letter ${tex_text(parameter)}$; not checked)" if lettered
                               else "(the author's words, not checked)")
    out["every_d_hint"] = None if every_d or spec.get("every") else _every_d_hint(spec)
    out["family_intro"] = r"$F$ is the block of the family of Section~\ref{sec:function}, whose members are sums of copies of $F$." if every_d else None
    if spec.get("every"):  # the family σ(a·q1) + σ(b·q1) of Theorem P (issue 26)
        from headfusion.render.unitroots import pair_family_parts

        return {**out, **pair_family_parts(spec, block)}
    if spec.get("graphs"):  # a family of graphs: the theorem for every n (Lemma LF)
        from headfusion.render.families import graph_family_parts

        return {**out, **graph_family_parts(cert, block, toml_name, doc.generator if doc is not None else None)}
    if every_d:
        out["spec_math"] = ("F(q)=" + block) if block else None
        if kind == "family":
            title = str(spec.get("title", ""))
            out["title"] = (_math(title) or tex_breakable(title)) + r", for every $d\ge1$"
            lhs = _family_lhs(title)
            out["every_d_family"] = (
                rf"$F$ is the block of the family {tex_tt(spec.get('text', ''))} built into headfusion, {_math(title) or tex_breakable(title)}:"
                r" its member $d$ is a constant plus the sum of $d$ copies of $F$ on the disjoint variables $q_1,\dots,q_d$ (the verifier"
                r" checks this from the family's definition).")
            out["family_corollary"] = _every_d_bound(summary, lhs) + first_member_clause(cert) if lhs else None
        else:
            out["title"] = (rf"$\sum_{{j=1}}^dF(q_j)$ with $F(q)={block}$, for every $d\ge1$" if block
                            else r"a family $\sum_{j=1}^dF(q_j)$, for every $d\ge1$")
            out["every_d_family"] = (
                rf"$F$ is the block of the family of the TOML spec {tex_tt(toml_name)} embedded in the certificate"
                rf" (Appendix~\ref{{sec:source}}): its member {'$d$' if parameter == 'd' else f'${tex_text(parameter)}=d$'} is a constant plus the sum of $d$ copies of $F$ on"
                r" the disjoint variables $q_1,\dots,q_d$ (the verifier checks this from the TOML text).")
            out["family_corollary"] = ("the member $d$ of this family has " + _every_d_bound(summary, "").replace("m^*()", "m^*")
                                       + first_member_clause(cert))
        out["spec_description"] = r"The function $F$ of this certificate is the block of a family (below); as a sum of heads it is"
        return out
    if kind == "expression":
        text = spec.get("text", "")
        out["title"] = _math(text) or tex_breakable(text)
        out["spec_math"] = formula_tex(text)
        out["spec_description"] = rf"The function of this certificate is given by the expression {tex_tt_terms(text)}; as a sum of heads it is"
    elif kind == "family":
        title = str(spec.get("title", ""))
        out["title"] = _math(title) or tex_breakable(title)
        out["spec_math"] = formula_tex(title)
        out["spec_description"] = (rf"The function of this certificate is the member $d={tex_int(spec.get('d') or 0)}$ of the family"
                                   rf" {tex_tt(spec.get('text', ''))} built into headfusion; as a sum of heads it is")
    else:
        expanded = _unwrap_terms(expand(doc, spec["d"]).expression())
        out["spec_math"] = formula_tex(expanded)
        out["title"] = ("$" + unbroken_groups(out["spec_math"]) + "$") if out["spec_math"] else (
            rf"the TOML spec {tex_tt(toml_name)} at ${tex_text(parameter)}={tex_int(spec.get('d') or 0)}$")
        member = (rf"the member ${tex_text(parameter)}={tex_int(spec['d'])}$ of" if spec.get("d") is not None
                  else "defined by")  # a spec without [parameter] (an edge list, an expression) has no member d
        out["spec_description"] = (rf"The function of this certificate is {member}"
                                   rf" the TOML spec {tex_tt(toml_name)}, whose text the certificate embeds (Appendix~\ref{{sec:source}});"
                                   r" as a sum of heads it is")
    return out


def _every_d_hint(spec: dict) -> str | None:
    """Where the family of this member is a sum of copies of one block: the command that certifies it for every d."""
    from headfusion.spec.errors import InputError
    from headfusion.spec.expressions import SpecError
    from headfusion.spec.family import every_d_block

    if spec.get("kind") not in ("family", "toml"):
        return None
    try:
        every_d_block(str(spec["kind"]), spec.get("text"), spec.get("source") if spec.get("kind") == "toml" else None)
    except (SpecError, InputError):
        return None
    what = "SPEC" if spec["kind"] == "toml" else tex_text(spec.get("text", ""))
    return (r"The family of this function is a sum of copies of one block on disjoint variables; its theorem for every $d$ has its own"
            rf" certificate, \texttt{{headfusion certify {what} -{{}}-every-d}}.")


def command_text(command: object, spec: dict) -> tuple[str, bool]:
    """The recorded command for typewriter type, without its --out folder, a TOML path as SPEC, a --refutation file as FILE."""
    if not isinstance(command, list):
        return tex_breakable(str(command)), False
    out, skip, replaced = [], False, False
    for item in (str(x) for x in command):
        if skip:
            skip = False
            continue
        if item in ("--out", "--refutation"):
            skip = item == "--out"
            if item == "--refutation":
                out += [item, "FILE"]
                skip = True
            continue
        if item.startswith("--out=") or item.startswith("--refutation="):
            continue
        if spec.get("kind") == "toml" and item.endswith(".toml"):
            item, replaced = "SPEC", True
        out.append(item)
    text = " ".join(shlex.quote(x) for x in out)
    return tex_breakable(text).replace("'", r"\textquotesingle{}").replace("`", r"\textasciigrave{}"), replaced


def _drop_authors_words(lines: list[str]) -> tuple[list[str], set[str]]:
    """The TOML lines without `title = …` and `description = …` (single-line or triple-quoted), and which of the two were there."""
    out, dropped, i = [], set(), 0
    while i < len(lines):
        m = re.match(r"\s*(title|description)\s*=\s*(.*)$", lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        dropped.add(m.group(1))
        rest = m.group(2)
        quote = rest[:3] if rest[:3] in ('"""', "'''") else None
        i += 1
        if quote is not None and rest.count(quote) < 2:
            while i < len(lines) and quote not in lines[i]:
                i += 1
            i += 1
    return out, dropped


def _without_comment(line: str) -> str:
    """A TOML line without its comment: from the first # outside a one-line string (a guess: the caller re-parses)."""
    quote = None
    for i, ch in enumerate(line):
        if quote is None and ch == "#":
            return line[:i].rstrip()
        if ch in "\"'" and (quote is None or quote == ch) and not (quote == '"' and line[i - 1:i] == "\\"):
            quote = None if quote == ch else ch
    return line


def _without(data: object) -> object:
    if isinstance(data, dict):
        return {k: _without(v) for k, v in data.items() if k not in AUTHORS_KEYS}
    return data


def source_lines(source: object) -> dict | None:
    """The embedded TOML text for the appendix, without the author's title, descriptions and comments (checked by re-parsing)."""
    if not isinstance(source, str) or not source.strip():
        return None
    kept, dropped = _drop_authors_words(source.rstrip("\n").split("\n"))
    uncommented = [_without_comment(line) for line in kept if not line.lstrip().startswith("#")]  # comments are the author's words too
    for lines in (uncommented, kept):  # without comments if the text re-parses so, else with them
        try:
            faithful = tomllib.loads("\n".join(lines)) == _without(tomllib.loads(source))
        except tomllib.TOMLDecodeError:
            faithful = False
        if faithful:  # never print a text that is not the spec minus the author's words
            break
    else:
        return {"lines": [], "more": 0, "omitted": None, "unshown": True}
    words = [w for w, left_out in ((r"the title (Section~\ref{sec:function})", "title" in dropped), ("the descriptions", "description" in dropped),
                                   ("the comments", lines is uncommented and uncommented != kept)) if left_out]
    while lines and not lines[0].strip():
        lines = lines[1:]
    shown = []
    for line in lines[:MAX_SOURCE_LINES]:
        body = line.lstrip(" ")
        shown.append(r"\ " * (len(line) - len(body)) + tex_breakable(body.replace("\t", "    ")))
    return {"lines": shown, "more": max(0, len(lines) - MAX_SOURCE_LINES),
            "omitted": (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]) if words else None, "unshown": False}
