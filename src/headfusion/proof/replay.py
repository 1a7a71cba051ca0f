"""`verify` at the edge: a cost model before replay, then the kernel in a child process with a deadline.

The kernel is plain and has no clock.  Here a parsed certificate is first measured — claims,
digits × terms of each polynomial, powers of t in the sign decisions, multiplier entries and
the work of checking them, face functions no face reaches, the digits × exponents of the tilted
coefficients of the residue classes, the box × digits of each three-slice division — and refused with the
limit named when it asks for more than any certificate `certify` writes.  Then the kernel
replays it in a child process (`solving.bounded`) killed after `timeout` seconds or when it
passes 2 GB of memory: one line, exit 2, never a verdict.

The same measures bound refutation files (`certify --refutation`) before their replay.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from headfusion.kernel.base import MAX_NODES, CheckFailed, SchemaError, parse_json, rational, read_certificate_text, within
from headfusion.kernel.multiples import MAX_ROOT_WORK
from headfusion.kernel.structure import MAX_TILT_DIGITS, tilt_digits
from headfusion.kernel.verify import Report
from headfusion.proof.statement import verify_certificate

DEFAULT_TIMEOUT = 600.0  # seconds: the largest certificates of the test suite and benchmarks replay in under a minute
MAX_CLAIMS = 10_000  # claims of one certificate (certify writes ~20, plus one per search)
MAX_DIGIT_TERMS = 4_000_000  # terms × digits of its longest coefficient, per polynomial (the work of one product)
MAX_T_WORK = 2_000_000  # Σ (spread of the powers of t + 1) over the mixed-sign coefficients of the construction
MAX_MULTIPLIER_ENTRIES = 2_000_000  # entries of all multiplier vectors of one refutation
MAX_MULTIPLIER_WORK = 50_000_000  # entries × terms of a row they combine (P′ or Q′), per refutation


def _digits(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value).bit_length() * 30103 // 100000 + 1
    return len(value) if isinstance(value, str) else 1


def _is_poly(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(t, list) and len(t) == 2 and isinstance(t[0], list) for t in value[:3])


def _polynomials(value: object, skip: frozenset = frozenset({"tree", "multipliers", "nodes", "head"})) -> list[list]:
    """Every list of [exponent, coefficient] terms inside `value` (iterative; refutations and forms skipped)."""
    found, stack = [], [value]
    while stack:
        node = stack.pop()
        if _is_poly(node):
            found.append(node)
        elif isinstance(node, dict):
            stack.extend(v for k, v in node.items() if k not in skip)
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _t_work(D: list) -> int:
    """Σ over the x-groups of D with coefficients of both signs of (spread of their powers of t + 1)."""
    groups: dict[tuple, list] = {}
    for term in D:
        if isinstance(term, list) and len(term) == 2 and isinstance(term[0], list) and term[0]:
            negative = term[1] < 0 if isinstance(term[1], int) else str(term[1]).startswith("-")
            groups.setdefault(tuple(map(str, term[0][:-1])), []).append((term[0][-1], negative))
    work = 0
    for items in groups.values():
        powers = [k for k, _ in items if isinstance(k, int)]
        if powers and len({n for _, n in items}) == 2:
            work += max(powers) - min(powers) + 1
    return work


def refutation_cost(evidence: object, row_terms: int) -> None:
    """Refuse a refutation whose multipliers are beyond the limits (`row_terms`: the terms of P′ or Q′, whichever is larger)."""
    if not isinstance(evidence, dict):
        return
    tree, vectors = evidence.get("tree"), evidence.get("multipliers")
    if isinstance(tree, list):
        within(len(tree), MAX_NODES, "refutation nodes")
    if isinstance(vectors, list):
        entries = sum(len(v) for v in vectors if isinstance(v, list))
        within(entries, MAX_MULTIPLIER_ENTRIES, "multiplier entries of a refutation")
        within(entries * max(row_terms, 1), MAX_MULTIPLIER_WORK, "multiplier entries × row terms of a refutation")


def _question_terms(claims: list) -> int:
    """An upper bound on the terms of P′ and Q′ from the exp-form evidence (Q′ = Π Q′_B, P′ within Σ_B P′_B Π Q′_B′ + Q′)."""
    form = next((c.get("evidence") for c in claims if isinstance(c, dict) and c.get("id") == "exp-form"), None)
    try:
        shapes = [(len(s["P"]), len(s["Q"])) for s in form["shapes"]]
        sizes = [shapes[b["shape"]] for b in form["blocks"]]
    except (TypeError, KeyError, IndexError):
        return 1  # malformed: the kernel says so
    q = 1
    for _, qb in sizes:
        q = min(q * max(qb, 1), 10**12)
    return min(q + sum(pb * q // max(qb, 1) for pb, qb in sizes), 10**12)


def _tilt_work(claims: list) -> int:
    """Σ over the terms of each tilted Q′_B of Σ_c |e_c|·digits(ρ_c): the work of the class sums (`structure.tilt_digits`)."""
    found = {c.get("id"): c.get("evidence") for c in claims if isinstance(c, dict) and c.get("id") in ("exp-form", "lower:classes")}
    try:
        return sum(sum(tilt_digits({tuple(e): 1 for e, _ in shape["Q"]}, [(rational(r), 0) for r, _ in item["tilt"]]))
                   for item, shape in zip(found["lower:classes"]["shapes"], found["exp-form"]["shapes"]) if item)
    except (TypeError, KeyError, IndexError, ValueError, AttributeError, CheckFailed):
        return 0  # absent or malformed: the kernel says so


def _entries(claims: list, method: str):
    """Every evidence entry (nested ones too) whose "method" is `method`."""
    todo = [c.get("evidence") for c in claims if isinstance(c, dict)]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
            if item.get("method") == method:
                yield item


def _root_work(claims: list) -> int:
    """Σ over the slice entries anywhere in the evidence (nested ones too) of span × Σ k·digits(ρ) (`multiples.slices`);
    the span is bounded by ω over supp B, before B is evaluated."""
    work = 0
    for item in _entries(claims, "slices"):
        try:
            levels = [sum(int(w) * int(x) for w, x in zip(item["omega"], e)) for e, _ in item["B"]]
            work += (max(levels) - min(levels)) * sum(max(int(k), 0) * _digits(rho) for rho, k in item["roots"])
        except (TypeError, KeyError, ValueError):
            continue  # malformed: the kernel says so
    return work


MAX_DIVISION_WORK = 20_000_000  # box points × digits of the V3 line-factor divisions (a 200,000-point box at 100 digits)


def _division_work(claims: list) -> int:
    """Σ over the three-slice entries (Lemma V3, nested ones too) of the work of dividing A by its line factor
    1 + (λ_1/λ_2)·x^ε (`threeslices.three_slices`): the points of A's box, times the digits a quotient coefficient can
    reach — those of A plus one λ_1/λ_2 per step along a line, at most the longest side of the box."""
    work = 0
    for item in _entries(claims, "three-slices"):
        try:
            exponents = [[int(x) for x in e] for e, _ in item["A"]]
            sides = [max(column) - min(column) + 1 for column in zip(*exponents)]
            box = 1
            for side in sides:
                box = min(box * side, 10**15)
            ratio = sum(_digits(c) for f in item["f"] for _, c in f)  # λ_1/λ_2 has at most the digits of the four coefficients
            work += box * (max(_digits(c) for _, c in item["A"]) + max(sides) * ratio)
        except (TypeError, KeyError, ValueError):
            continue  # malformed: the kernel says so
    return work


MAX_GRAPH_WORK = 5_000_000  # Σ 3^(vertices) over the face functions whose vertices are a graph's orientations (3^12 ≈ 531,441)


def _graph_work(evidence: dict) -> int:
    """Σ over face functions counted by Lemma LG of 3^(their variables): the work of the kernel's source recursion."""
    work = 0
    for entry in evidence.get("functions", []) if isinstance(evidence.get("functions"), list) else ():
        claims = dict(c for c in entry.get("claims", []) if isinstance(c, list) and len(c) == 2) if isinstance(entry, dict) else {}
        newton, exp = claims.get("lower:newton"), claims.get("exp-form")
        try:
            graphs = sum(1 for s in newton["shapes"] if s.get("method") == "graph")
            work += graphs * 3 ** (1 + max(len(s["rows"]) for s in exp["shapes"])) if graphs else 0
        except (TypeError, KeyError, AttributeError, ValueError):
            continue  # malformed: the kernel says so
    return work


def _faces_unreached(evidence: dict) -> int:
    """Face functions of a lower:faces table that no face reaches, directly or through a nested lower:faces (each
    costs a replay and proves nothing)."""
    functions, faces = evidence.get("functions"), evidence.get("faces")
    if not isinstance(functions, list) or not isinstance(faces, list):
        return 0
    todo = [f[1] for f in faces if isinstance(f, list) and len(f) == 2 and isinstance(f[1], int)]
    reached: set[int] = set()
    while todo:
        k = todo.pop()
        if not 0 <= k < len(functions) or k in reached:
            continue
        reached.add(k)
        claims = functions[k].get("claims") if isinstance(functions[k], dict) else None
        for item in claims if isinstance(claims, list) else ():
            if isinstance(item, list) and len(item) == 2 and item[0] == "lower:faces" and isinstance(item[1], dict):
                todo += [f[1] for f in item[1].get("faces", []) if isinstance(f, list) and len(f) == 2 and isinstance(f[1], int)]
    return len(functions) - len(reached)


def certificate_cost(cert: object) -> None:
    """Refuse (SchemaError naming the limit) a parsed certificate that asks for more work than the limits."""
    if not isinstance(cert, dict) or not isinstance(cert.get("claims"), list):
        return  # not a certificate: the kernel says so
    claims = cert["claims"]
    within(len(claims), MAX_CLAIMS, "claims of a certificate")
    for poly in _polynomials(claims):
        within(len(poly) * max((_digits(t[1]) for t in poly if isinstance(t, list) and len(t) == 2), default=1), MAX_DIGIT_TERMS,
               "terms × digits of a polynomial")
    upper = next((c.get("evidence") for c in claims if isinstance(c, dict) and c.get("id") == "upper"), None)
    heads = upper.get("heads") if isinstance(upper, dict) else None
    if isinstance(heads, list):
        within(sum(_t_work(h["D"]) for h in heads if isinstance(h, dict) and isinstance(h.get("D"), list)), MAX_T_WORK,
               "powers of t in the sign decisions of the construction")
    within(_root_work(claims), MAX_ROOT_WORK, "degree × digits of the roots of the slice claims")
    within(_division_work(claims), MAX_DIVISION_WORK, "box points × digits of the line-factor divisions of the three-slice claims (V3)")
    within(_tilt_work(claims), MAX_TILT_DIGITS, "digits of the tilted coefficients of the residue classes (terms × digits × exponent)")
    row_terms = None
    for claim in claims:
        evidence = claim.get("evidence") if isinstance(claim, dict) else None
        if isinstance(evidence, dict) and "multipliers" in evidence:
            row_terms = _question_terms(claims) if row_terms is None else row_terms
            refutation_cost(evidence, row_terms)
        if isinstance(claim, dict) and claim.get("id") == "lower:faces" and isinstance(evidence, dict):
            within(_faces_unreached(evidence), 0, "face functions not reached from the faces")
            within(_graph_work(evidence), MAX_GRAPH_WORK, "vertex-set pairs of the acyclic-orientation counts of the face functions")
            for entry in evidence.get("functions", []) if isinstance(evidence.get("functions"), list) else ():
                for item in entry.get("claims", []) if isinstance(entry, dict) and isinstance(entry.get("claims"), list) else ():
                    if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict) and "multipliers" in item[1]:
                        refutation_cost(item[1], 1)  # a face function's refutation: its entries bounded (rows are small)
        if isinstance(claim, dict) and claim.get("id") == "lower:line" and isinstance(evidence, dict) and isinstance(evidence.get("function"), dict):
            for item in evidence["function"].get("claims", []) if isinstance(evidence["function"].get("claims"), list) else ():
                if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict) and "multipliers" in item[1]:
                    refutation_cost(item[1], 1)  # f_u's refutation (Lemma R): its entries bounded


def _replay(path: str | None, text: str | None) -> Report:
    """Read (bounded), measure and replay: the work of the child process."""
    cert = parse_json(read_certificate_text(path) if path is not None else text)
    certificate_cost(cert)
    return verify_certificate(cert)


def verify_bounded(certificate: str | Path | dict[str, Any], timeout: float = DEFAULT_TIMEOUT) -> Report:
    """The kernel's report on a certificate (a path or parsed data), within `timeout` seconds and 2 GB.

    SchemaError (exit 2) when it is not a bounded certificate, over a limit of the cost model,
    or when the replay overruns its time or memory; OSError when the file cannot be read;
    TypeError or ValueError when data passed as a dict is not JSON.
    """
    text = json.dumps(certificate) if isinstance(certificate, dict) else None  # the same bounds as a file
    path = None if isinstance(certificate, dict) else str(certificate)
    return _bounded(path, text, timeout)


def verify_text(text: str, timeout: float = DEFAULT_TIMEOUT) -> Report:
    """The kernel's report on a certificate's text, read once by the caller (`verify --resolve` then solves this same text)."""
    return _bounded(None, text, timeout)


def _bounded(path: str | None, text: str | None, timeout: float) -> Report:
    """Parse, measure and replay (the file at `path`, or `text`) in a child with a deadline and a memory limit."""
    from headfusion.solving.bounded import MEMORY_BYTES, run_bounded

    status, value = run_bounded(lambda: _replay(path, text), timeout)
    if status == "timeout":
        raise SchemaError(f"verification exceeded its timeout of {timeout:g} s")
    if status == "memory":
        raise SchemaError(f"verification exceeded its memory limit of {MEMORY_BYTES // 2**30} GB")
    if status == "error":
        if isinstance(value, (SchemaError, OSError)):
            raise value
        if isinstance(value, RecursionError):
            raise SchemaError("input nested too deeply")
        raise SchemaError(f"verification failed: {type(value).__name__}: {value}")
    return value
