"""The solver-search section of the certificate document, as template context.

One entry per `search` claim: the solver's verdict and version, the box that was searched,
the SHA-256 of the query, the .smt2 file, a second solver's cross-check, the head found (when
sat) and any further evidence fields, all shown as escaped text; nothing here claims more
than the solver said.
"""

from __future__ import annotations

import json

from headfusion.render.sections import MAX_ATOM_ROWS
from headfusion.render.tex import math_safe_statement, tex_breakable, tex_key, tex_number, tex_text, tex_tt


def _flat_text(value: object, limit: int = 80) -> str:
    """A short escaped rendering of a JSON value (scalars, flat lists and dicts)."""
    if isinstance(value, dict):
        text = ", ".join(f"{k} {_plain(value[k])}" for k in sorted(value))
    elif isinstance(value, list):
        text = ", ".join(_plain(v) for v in value)
    else:
        text = _plain(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return tex_breakable(text)


def _plain(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "on", False: "off", None: "none"}[value]
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _sha_tex(sha: object) -> str:
    text = str(sha or "")
    return r"\allowbreak{}".join(tex_text(text[i : i + 16]) for i in range(0, len(text), 16)) or "--"


def _box_shape_tex(shape: list) -> str:
    sizes = [int(n) for n in shape]
    if sizes and all(n == sizes[0] for n in sizes) and len(sizes) > 1:
        return rf"\{{0,\dots,{sizes[0] - 1}\}}^{{{len(sizes)}}}"
    return r"\times ".join(rf"\{{0,\dots,{n - 1}\}}" for n in sizes)


def _points(value: object) -> str:
    return f"{tex_text(value)} point" + ("" if value == 1 else "s")


def _box_text(box: object) -> str:
    """The L3 box of a search: {0,…,a}×… with its number of points (and the cofactor box)."""
    if isinstance(box, dict) and isinstance(box.get("shape"), list):
        text = "$" + _box_shape_tex(box["shape"]) + "$"
        if "points" in box:
            text += f" ({_points(box['points'])})"
        if isinstance(box.get("cofactor_shape"), list):
            text += "; cofactor box $" + _box_shape_tex(box["cofactor_shape"]) + "$"
            if "cofactor_points" in box:
                text += f" ({_points(box['cofactor_points'])})"
        return text
    if box is None:
        return "--"
    return r"\texttt{" + _flat_text(box, 120) + "}"


_SEARCH_SHOWN = {"status", "atoms", "solver", "query_sha256", "box", "head", "encoding", "smt2_file", "cross_check", "reason"}


def search_context(claims_list: list[dict]) -> list[dict]:
    """One entry per solver-search claim: verdict, solver, box, query hash, cross-check, head, extras."""
    out = []
    for claim in claims_list:
        if claim.get("kind") != "search":
            continue
        ev = claim.get("evidence", {})
        solver = ev.get("solver", {}) or {}
        status = str(ev.get("status", ""))
        extra = [
            {"key": tex_text(key), "value": _flat_text(ev[key])}
            for key in sorted(ev)
            if key not in _SEARCH_SHOWN and (isinstance(ev[key], (str, int, float, bool, dict, list)) or ev[key] is None)
        ]
        cross = ev.get("cross_check")
        cross_text = None
        if isinstance(cross, dict):
            name = tex_text(cross.get("solver", "second solver"))
            version = tex_text(cross.get("version", ""))
            cstatus = str(cross.get("status", "?"))
            if cstatus in ("sat", "unsat", "unknown"):
                cross_text = rf"{name} {version} reports \emph{{{tex_text(cstatus)}}} on the same query"
                if cross.get("query_sha256"):
                    cross_text += rf" (portable dialect, SHA-256 \texttt{{{_sha_tex(cross['query_sha256'])}}})"
            else:
                cross_text = rf"{name}: {tex_text(cstatus)}"
                if cross.get("reason"):
                    cross_text += f" ({tex_breakable(cross['reason'])})"
        head = ev.get("head") if isinstance(ev.get("head"), dict) else None
        head_rows = []
        if head and isinstance(head.get("atoms_list"), list):
            head_rows = [
                {"key": tex_key(a["key"]), "weight": tex_number(a["weight"]), "value": tex_number(a["value"])}
                for a in head["atoms_list"][:MAX_ATOM_ROWS]
            ]
        out.append(
            {
                "id": tex_text(claim["id"]),
                "atoms": tex_text(ev.get("atoms", "?")),
                "status": tex_text(status),
                "status_raw": status,
                "solver": tex_text(solver.get("name", "solver")),
                "version": tex_text(solver.get("version", "?")),
                "box": _box_text(ev.get("box")),
                "sha": _sha_tex(ev.get("query_sha256")),
                "file": tex_tt(ev["smt2_file"]) if ev.get("smt2_file") else None,
                "encoding": tex_text(ev["encoding"]) if ev.get("encoding") is not None else None,
                "reason": tex_breakable(ev["reason"]) if ev.get("reason") else None,
                "cross": cross_text,
                "head_rows": head_rows,
                "head_more": max(0, len(head["atoms_list"]) - MAX_ATOM_ROWS) if head_rows else 0,
                "head_checked": bool(head.get("checked_exactly")) if head else False,
                "extra": extra,
                "statement": math_safe_statement(claim.get("statement", "")),
            }
        )
    return out

