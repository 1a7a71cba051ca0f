"""The small trusted checker (`headfusion verify`; named checker.py so that `hf.verify` stays a function).

It re-checks every claim of a certificate with exact arithmetic.

It rebuilds the model from the spec stored in the certificate and never trusts the
stored mathematics: identities are re-multiplied, witnesses re-evaluated, factors
re-divided, face limits recomputed.  It imports no solver and not the solver module (solver.py);
UNSAT claims are checked by regenerating the SMT-LIB query (pure text) and comparing
its hash, and `--resolve` re-solves them with z3 (and cvc5 when installed).

Trusted base: this file, `exact`, `laurent` (polynomial arithmetic and exact
division), `lattice` (coordinates), `model`/`parse`/`spec` (to rebuild F),
`facelimits.face_limit`/`canonical_form`, `polytope.zonotope_vertex_count`, and
`smtlib` (query text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, prod
from typing import Any, Callable

from headfusion.spec.numbers import rational_from_json
from headfusion.algebra.exact import sign_at_t, t_ratio_to_json
from headfusion.algebra.lattice import LatticeBasis
from headfusion.algebra.laurent import LPoly, exact_divide, generators
from headfusion.spec.model import Head, MultiHead

KNOWN_LEMMAS = {"L1", "L2", "L3", "L4", "L5", "L6", "LP", "LS", "LZ"}


class SchemaError(ValueError):
    """The file is not a certificate (exit 2)."""


class CheckFailed(Exception):
    """A claim does not re-check (exit 1)."""


@dataclass
class Context:
    """What the checks share: the certificate, the rebuilt model and derived data."""

    cert: dict
    model: MultiHead
    claims: dict[str, dict]
    derived: dict[str, Any] = field(default_factory=dict)


def require(condition: bool, message: str) -> None:
    """Fail the current claim with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


# -- loading -------------------------------------------------------------------------------


def load_certificate(text: str) -> dict:
    """Parse and shape-check a certificate (SchemaError on anything else)."""
    try:
        cert = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SchemaError(f"not JSON ({exc.msg} at line {exc.lineno})" if hasattr(exc, "msg") else "not JSON") from None
    if not isinstance(cert, dict) or cert.get("format") != "headfusion-certificate/1":
        raise SchemaError("not a headfusion certificate (format headfusion-certificate/1 expected)")
    for key, kind in (("spec", dict), ("model", dict), ("summary", dict), ("claims", list)):
        if not isinstance(cert.get(key), kind):
            raise SchemaError(f"field '{key}' missing or not a {kind.__name__}")
    for claim in cert["claims"]:
        if not isinstance(claim, dict):
            raise SchemaError("a claim is not an object")
        for key, kind in (("id", str), ("kind", str), ("statement", str), ("depends_on", list), ("check", str), ("evidence", dict)):
            if not isinstance(claim.get(key), kind):
                raise SchemaError(f"claim field '{key}' missing or not a {kind.__name__}")
    return cert


def rebuild_model(cert: dict) -> MultiHead:
    """F from the stored spec (not from the stored model)."""
    from headfusion.spec.load import load_spec

    spec = cert["spec"]
    model = load_spec(spec["text"], spec.get("d")).model
    return model


# -- exact helpers -------------------------------------------------------------------------


def poly(data: Any) -> LPoly:
    try:
        return LPoly.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckFailed(f"malformed polynomial ({exc})") from None


def x_groups(p: LPoly) -> dict[tuple[int, ...], dict[int, Fraction]]:
    groups: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for e, c in p.terms.items():
        groups.setdefault(e[:-1], {})[e[-1]] = c
    return groups


def head_base(head: Head) -> dict[int, Fraction]:
    keys = [dict(a.key) for a in head.atoms]
    return {j: min(k.get(j, Fraction(0)) for k in keys) for j in {j for k in keys for j in k}}


def product(polys: list[LPoly], nvars: int) -> LPoly:
    out = LPoly.constant(nvars, Fraction(1))
    for p in polys:
        out = out * p
    return out


# -- the checks ----------------------------------------------------------------------------


def check_model(ctx: Context, ev: dict) -> None:
    from headfusion.proof.claims import model_sha256

    stored = ctx.cert["model"]
    require(stored == ctx.model.to_json(), "the stored model differs from the model rebuilt from the spec")
    require(ev.get("model_sha256") == model_sha256(stored), "model hash mismatch")
    require(ev.get("head_atom_terms") == ctx.model.head_atom_terms, "head-atom terms mismatch")


def check_lemma(ctx: Context, ev: dict) -> None:
    require(ev.get("lemma") in KNOWN_LEMMAS, f"unknown lemma {ev.get('lemma')!r}")


def check_exp_form(ctx: Context, ev: dict) -> None:
    """Rebuild each block's N_h, D_h from the model; check P_B, Q_B and P′_B·Q_B = P_B·Q′_B."""
    model = ctx.model
    scale = int(ev["t_scale"])
    require(scale >= 1, "bad t scale")
    shapes = ev["shapes"]
    seen_heads: list[int] = []
    used_vars: set[int] = set()
    checked: dict[tuple, int] = {}
    for block in ev["blocks"]:
        shape = shapes[block["shape"]]
        variables = [int(v) - 1 for v in block["variables"]]
        require(not used_vars & set(variables), "two blocks share a variable")
        used_vars |= set(variables)
        local = {j: i for i, j in enumerate(variables)}
        basis = LatticeBasis(len(variables), int(shape["basis"]["denominator"]),
                             tuple(tuple((int(j), int(v)) for j, v in row) for row in shape["basis"]["rows"]))
        for r, row in enumerate(basis.rows):  # echelon rows with increasing pivots: independent
            require(bool(row) and row[0][1] != 0 and (r == 0 or row[0][0] > basis.rows[r - 1][0][0]), "basis not in echelon form")
        nvars = basis.rank + 1
        shift = tuple(int(s) for s in shape["shift"]) + (0,)
        signature = []
        dens, nums = [], []
        for h in block["heads"]:
            head = model.heads[h]
            seen_heads.append(h)
            base = head_base(head)
            den: dict[tuple[int, ...], Fraction] = {}
            num: dict[tuple[int, ...], Fraction] = {}
            for atom in head.atoms:
                rel = {j: c - base.get(j, Fraction(0)) for j, c in atom.key}
                rel.update({j: -c for j, c in base.items() if j not in dict(atom.key)})
                require(all(j in local for j, c in rel.items() if c), f"head {h} uses a variable outside its block")
                try:
                    coords = basis.coordinates({local[j]: c for j, c in rel.items() if c})
                except ValueError:
                    raise CheckFailed(f"a key of head {h} is not in the block lattice") from None
                t_exp = atom.weight.exponent * scale
                require(t_exp.denominator == 1, "t scale does not clear the bias denominators")
                e = tuple(a - b for a, b in zip(coords + (int(t_exp),), shift))
                den[e] = den.get(e, Fraction(0)) + atom.weight.coef
                num[e] = num.get(e, Fraction(0)) + atom.weight.coef * atom.value
            dens.append(LPoly(nvars, den))
            nums.append(LPoly(nvars, num) * model.scales[h])
            signature.append((tuple(sorted(den.items())), tuple(sorted(num.items())), model.scales[h]))
        key = (block["shape"], tuple(signature))
        if key in checked:
            continue
        # D_h were shifted once each; the product needs the shift once in total.
        n_heads = len(dens)
        Q = product(dens, nvars).shift(tuple(s * (n_heads - 1) for s in shift))
        P = LPoly(nvars)
        for i in range(n_heads):
            others = product([d for g, d in enumerate(dens) if g != i], nvars)
            P = P + nums[i] * others
        P = P.shift(tuple(s * (n_heads - 1) for s in shift))
        require(Q == poly(shape["Q"]) and P == poly(shape["P"]), f"block {block['heads']}: P_B/Q_B differ from the heads")
        Pr, Qr = poly(shape["P_reduced"]), poly(shape["Q_reduced"])
        require(bool(Qr), "zero reduced denominator")
        require((Pr * Q - P * Qr).terms == {}, f"block {block['heads']}: P'_B/Q'_B is not P_B/Q_B")
        checked[key] = 1
    require(sorted(seen_heads) == list(range(len(model.heads))), "blocks do not cover every head exactly once")
    owner = {h: set(b["variables"]) for b in ev["blocks"] for h in b["heads"]}
    for h, head in enumerate(model.heads):  # heads in different blocks share no variable
        base = head_base(head)
        for atom in head.atoms:
            for j, c in atom.key:
                if c != base.get(j, Fraction(0)):
                    require(j + 1 in owner[h], f"head {h} depends on q{j + 1} outside its block")
    ctx.derived["exp"] = ev


def _exp(ctx: Context) -> dict:
    require("exp" in ctx.derived, "depends on an exponential-family form that did not check")
    return ctx.derived["exp"]


def check_coprime(ctx: Context, ev: dict) -> None:
    """Q′_B = unit·Π f^e, each f irreducible (primitive binomial) or coprime to P′_B by a gcd, f ∤ P′_B."""
    exp = _exp(ctx)
    require(len(ev["shapes"]) == len(exp["shapes"]), "one coprimality entry per block shape expected")
    for i, (entry, shape) in enumerate(zip(ev["shapes"], exp["shapes"])):
        Pr, Qr = poly(shape["P_reduced"]), poly(shape["Q_reduced"])
        nvars = Qr.nvars
        rest = Qr
        for factor in entry["factors"]:
            f = poly(factor["poly"])
            require(f.nvars == nvars and len({e[:-1] for e in f.terms}) > 1, f"shape {i}: factor without x")
            for _ in range(int(factor["multiplicity"])):
                quotient = exact_divide(rest, f)
                require(quotient is not None, f"shape {i}: stated factor does not divide Q'_B")
                rest = quotient
            if factor["irreducible"] == "primitive binomial":
                require(len(f.terms) == 2, f"shape {i}: not a binomial")
                a, b = sorted(f.terms)
                require(gcd(*(x - y for x, y in zip(a, b))) == 1, f"shape {i}: binomial exponent difference not primitive")
                require(not Pr or exact_divide(Pr, f) is None, f"shape {i}: a factor of Q'_B divides P'_B")
            elif factor["irreducible"] == "gcd recomputed":
                require(_gcd_free_of_x(f, Pr), f"shape {i}: a factor of Q'_B shares a factor with P'_B")
            else:
                raise CheckFailed(f"shape {i}: unknown irreducibility reason")
        require(len({e[:-1] for e in rest.terms}) == 1, f"shape {i}: Q'_B is not a unit times the stated factors")
    ctx.derived["coprime"] = ev


def _gcd_free_of_x(f: LPoly, p: LPoly) -> bool:
    """gcd(f, p) over Q[x, t] has no x (then f, p are coprime over Q(t) by Gauss's lemma)."""
    if not p:
        return False
    gens = generators(f.nvars)
    pf, _ = f.to_sympy(gens)
    pp, _ = p.to_sympy(gens)
    g = pf.gcd(pp)
    return all(d == 0 for d in g.degree_list()[:-1])


def _block_heads(ctx: Context, shape: dict) -> tuple[LPoly, LPoly]:
    return (poly(shape["P_reduced"]), poly(shape["Q_reduced"])) if shape["reduced_is_head"] else (poly(shape["P"]), poly(shape["Q"]))


def check_construction(ctx: Context, ev: dict) -> None:
    """Each block head has positive weights and supp N ⊆ supp D; product size; listed atoms (L1, LP)."""
    exp = _exp(ctx)
    scale = int(exp["t_scale"])
    sizes = []
    for i, shape in enumerate(exp["shapes"]):
        N, D = _block_heads(ctx, shape)
        groups = x_groups(D)
        require(all(sign_at_t(c, scale) == 1 for c in groups.values()), f"shape {i}: a weight is not positive")
        require(set(x_groups(N)) <= set(groups), f"shape {i}: supp N is not inside supp D")
        sizes.append(len(groups))
    atoms = prod(sizes[b["shape"]] for b in exp["blocks"])
    require(ev.get("atoms") == atoms, f"construction size {ev.get('atoms')} differs from the product {atoms}")
    if "atoms_list" in ev:
        require(ev["atoms_list"] == list(_product_atoms(ctx)), "listed atoms differ from the product head")
    ctx.derived["upper"] = atoms


def _base(ctx: Context) -> dict[int, Fraction]:
    """Σ_h (coordinate-wise minimum key of head h): the translation of the product head."""
    base: dict[int, Fraction] = {}
    for head in ctx.model.heads:
        for j, v in head_base(head).items():
            base[j] = base.get(j, Fraction(0)) + v
    return base


def _block_keys(block: dict, shape: dict, exponents: list[tuple[int, ...]]) -> list[dict[int, Fraction]]:
    """q-coordinates (on the block's variables, before the base) of block lattice exponents."""
    variables = [int(v) - 1 for v in block["variables"]]
    den = int(shape["basis"]["denominator"])
    shift = [int(s) for s in shape["shift"]]
    keys = []
    for k in exponents:
        key = {j: Fraction(0) for j in variables}
        for c, row in zip((a + s for a, s in zip(k, shift)), shape["basis"]["rows"]):
            for j, v in row:
                key[variables[j]] += Fraction(c * v, den)
        keys.append(key)
    return keys


def _product_atoms(ctx: Context):
    """The product head's atoms (key in q coordinates, weight, value) in lexicographic block order."""
    from itertools import product as cartesian

    exp = _exp(ctx)
    scale = int(exp["t_scale"])
    per_block = []
    for block in exp["blocks"]:
        shape = exp["shapes"][block["shape"]]
        N, D = _block_heads(ctx, shape)
        nums, dens = x_groups(N), x_groups(D)
        exponents = sorted(dens)
        per_block.append([(key, dens[k], nums.get(k, {})) for k, key in zip(exponents, _block_keys(block, shape, exponents))])
    constant = Fraction(ctx.model.constant)
    base = _base(ctx)
    for choice in cartesian(*per_block):
        key = dict(base)
        weight = {0: Fraction(1)}
        num, den = ({0: constant} if constant else {}), {0: Fraction(1)}
        for part, q, p in choice:
            for j, v in part.items():
                key[j] = key.get(j, Fraction(0)) + v
            weight = _t_mul(weight, q)
            num = _t_add(_t_mul(num, q), _t_mul(p, den))
            den = _t_mul(den, q)
        yield {
            "key": [_json_rational(key.get(j, Fraction(0))) for j in range(ctx.model.dimension)],
            "weight": t_ratio_to_json(weight, {0: Fraction(1)}, scale),
            "value": t_ratio_to_json(num, den, scale),
        }


def _json_rational(v: Fraction) -> int | str:
    return v.numerator if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _t_mul(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, Fraction(0)) + x * y
    return {k: v for k, v in out.items() if v}


def _t_add(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, Fraction(0)) + v
    return {k: v for k, v in out.items() if v}


def check_newton(ctx: Context, ev: dict) -> None:
    """Every witness singles out its vertex in supp Q′_B; the count is the product over blocks (L5, LP, LZ)."""
    exp = _exp(ctx)
    require(len(ev["shapes"]) == len(exp["shapes"]), "one vertex entry per block shape expected")
    counts = []
    for i, (entry, shape) in enumerate(zip(ev["shapes"], exp["shapes"])):
        support = sorted(x_groups(poly(shape["Q_reduced"])))
        if entry["method"] == "explicit":
            vertices = [(tuple(int(x) for x in v), [int(x) for x in c]) for v, c in entry["vertices"]]
            require(len({v for v, _ in vertices}) == len(vertices), f"shape {i}: a vertex is listed twice")
            for v, c in vertices:
                require(v in support, f"shape {i}: vertex {list(v)} is not in supp Q'_B")
                top = sum(a * b for a, b in zip(c, v))
                require(all(sum(a * b for a, b in zip(c, u)) < top for u in support if u != v),
                        f"shape {i}: witness {c} does not single out vertex {list(v)}")
            counts.append(len(vertices))
        elif entry["method"] == "zonotope":
            from headfusion.bounds.polytope import zonotope_directions, zonotope_vertex_count

            generators_ = _binomial_directions(ctx, i)
            require(generators_ is not None, f"shape {i}: Q'_B is not a product of binomials")
            directions = zonotope_directions(generators_)
            require([list(d) for d in directions] == entry["directions"], f"shape {i}: zonotope generators differ")
            counts.append(zonotope_vertex_count(directions))
        else:
            raise CheckFailed(f"shape {i}: unknown vertex method")
        require(entry["count"] == counts[-1], f"shape {i}: stated vertex count {entry['count']} differs from {counts[-1]}")
    total = prod(counts[b["shape"]] for b in exp["blocks"])
    require(ev["count"] == total, f"stated vertex count differs from the product {total}")
    _check_listed_witnesses(ctx, ev.get("vertex_witnesses", []))
    ctx.derived["lower:newton"] = total


def _binomial_directions(ctx: Context, shape_index: int) -> list[tuple[int, ...]] | None:
    coprime = ctx.derived.get("coprime")
    require(coprime is not None, "zonotope count needs the coprimality factors")
    out = []
    for factor in coprime["shapes"][shape_index]["factors"]:
        f = poly(factor["poly"])
        xs = sorted(x_groups(f))
        if len(xs) != 2 or len(f.terms) != 2:
            return None
        out += [tuple(a - b for a, b in zip(xs[1], xs[0]))] * int(factor["multiplicity"])
    return out


def _check_listed_witnesses(ctx: Context, listed: list) -> None:
    """q-coordinate witnesses: restricted to each block, c singles out the vertex among the block's keys."""
    if not listed:
        return
    exp = _exp(ctx)
    base = _base(ctx)
    keys_by_block = []
    for block in exp["blocks"]:
        shape = exp["shapes"][block["shape"]]
        keys = _block_keys(block, shape, sorted(x_groups(poly(shape["Q_reduced"]))))
        keys_by_block.append([{j: v + base.get(j, Fraction(0)) for j, v in key.items()} for key in keys])
    for item in listed:
        vertex = [rational_from_json(x) for x in item["vertex"]]
        witness = [rational_from_json(x) for x in item["witness"]]
        for keys in keys_by_block:
            mine = [k for k in keys if all(v == vertex[j] for j, v in k.items())]
            require(len(mine) == 1, f"listed vertex {item['vertex']} is not a point of supp Q'")
            top = sum((witness[j] * v for j, v in mine[0].items()), Fraction(0))
            require(all(sum((witness[j] * v for j, v in k.items()), Fraction(0)) < top for k in keys if k is not mine[0]),
                    f"listed witness {item['witness']} fails")


def check_face_limits(ctx: Context, ev: dict) -> None:
    """Recompute every face limit, its canonical form and non-invariance; bounds add up (L6)."""
    from headfusion.bounds.facelimits import canonical_form, face_limit, model_from_canonical, negate
    from headfusion.proof.claims import canonical_json

    nodes = ev["nodes"]
    require(bool(nodes) and nodes[0]["form"] == canonical_json(canonical_form(ctx.model)), "root is not F")
    for i, node in enumerate(nodes):
        if node["direction"] is None:
            require(node["bound"] == 1, f"node {i}: a leaf bounds m* by 1 only")
            continue
        model = model_from_canonical(_canonical_from_json(node["form"]))
        c = tuple((int(j) - 1, rational_from_json(v)) for j, v in node["direction"])
        plus, minus = nodes[node["plus"]], nodes[node["minus"]]
        require(plus["form"] == canonical_json(canonical_form(face_limit(model, c))), f"node {i}: F_c is wrong")
        require(minus["form"] == canonical_json(canonical_form(face_limit(model, negate(c)))), f"node {i}: F_-c is wrong")
        require(not _invariant(model, dict(c)), f"node {i}: F is invariant along the direction")
        require(node["bound"] == plus["bound"] + minus["bound"], f"node {i}: bound is not the sum of its children")
        require(node["plus"] > i and node["minus"] > i, f"node {i}: children must come later (no cycles)")
    require(ev["bound"] == nodes[0]["bound"], "stated face-limit bound differs from the root's")
    ctx.derived["lower:face"] = nodes[0]["bound"]


def _canonical_from_json(data: list) -> tuple:
    return tuple(
        (rational_from_json(scale), tuple(
            (tuple((int(j) - 1, rational_from_json(v)) for j, v in key), rational_from_json(c), rational_from_json(e), rational_from_json(val))
            for key, c, e, val in atoms))
        for scale, atoms in data
    )


def _invariant(model: MultiHead, c: dict[int, Fraction]) -> bool:
    """∂_c F = 0, tested per group of heads on shared variables: Σ_h a_h (∂N_h·D_h − N_h·∂D_h)·Π_{g≠h} D_g² = 0."""
    from math import lcm

    groups: list[tuple[set[int], list[int]]] = []
    for h, head in enumerate(model.heads):
        used = {j for a in head.atoms for j, _ in a.key}
        merged = [g for g in groups if g[0] & used]
        new = (used.union(*(g[0] for g in merged)), [h] + [x for g in merged for x in g[1]])
        groups = [g for g in groups if g not in merged] + [new]
    den = lcm(1, *(v.denominator for head in model.heads for a in head.atoms for _, v in a.key))
    scale = lcm(1, *(a.weight.exponent.denominator for head in model.heads for a in head.atoms))
    for variables, heads in groups:
        order = sorted(variables)
        nvars = len(order) + 1
        polys = []
        for h in heads:
            N, D, dN, dD = {}, {}, {}, {}
            for a in model.heads[h].atoms:
                key = dict(a.key)
                e = tuple(int(key.get(j, 0) * den) for j in order) + (int(a.weight.exponent * scale),)
                slope = sum((v * c.get(j, Fraction(0)) for j, v in a.key), Fraction(0))
                for target, value in ((D, a.weight.coef), (N, a.weight.coef * a.value), (dD, a.weight.coef * slope), (dN, a.weight.coef * a.value * slope)):
                    target[e] = target.get(e, Fraction(0)) + value
            polys.append((LPoly(nvars, N), LPoly(nvars, D), LPoly(nvars, dN), LPoly(nvars, dD), model.scales[h]))
        total = LPoly(nvars)
        for i, (N, D, dN, dD, a) in enumerate(polys):
            term = (dN * D - N * dD) * a
            for g, other in enumerate(polys):
                if g != i:
                    term = term * other[1] * other[1]
            total = total + term
        if total:
            return False
    return True


def check_search(ctx: Context, ev: dict, status: str) -> None:
    """UNSAT/unknown: the stored query hash matches the query regenerated from the spec; SAT: the head checks."""
    from headfusion.algebra.expform import exponential_form
    from headfusion.solving.smtlib import Options, problem_from_form, query_sha256, query_text

    require(ev.get("status") == status, "search status differs from the claim's check")
    options = Options(**(ev.get("options") or {}))
    text = query_text(problem_from_form(exponential_form(ctx.model), int(ev["atoms"])), options)
    require(query_sha256(text) == ev.get("query_sha256"), "query hash does not match the regenerated query")
    if status == "sat":
        head = ev.get("head") or {}
        atoms = head.get("atoms_list") or []
        require(0 < len(atoms) <= int(ev["atoms"]), "SAT head missing or too large")
        require(_head_represents(ctx.model, atoms), "the SAT head does not represent F")
        ctx.derived.setdefault("sat", []).append(len(atoms))
    if status == "unsat":
        ctx.derived.setdefault("unsat", []).append(int(ev["atoms"]))
    ctx.derived.setdefault("queries", []).append(text)


def _head_represents(model: MultiHead, atoms: list) -> bool:
    """N·Q = D·P exactly, in q-coordinate exponents scaled to integers (rational weights only)."""
    from math import lcm

    keys = [[rational_from_json(x) for x in a["key"]] for a in atoms]
    weights = [rational_from_json(a["weight"]) for a in atoms]
    values = [rational_from_json(a["value"]) for a in atoms]
    if any(w <= 0 for w in weights) or any(a.weight.exponent for h in model.heads for a in h.atoms):
        return False
    den = lcm(1, *(v.denominator for k in keys for v in k), *(v.denominator for h in model.heads for a in h.atoms for _, v in a.key))
    d = model.dimension

    def exponent(key: dict[int, Fraction]) -> tuple[int, ...]:
        return tuple(int(key.get(j, Fraction(0)) * den) for j in range(d))

    heads = []
    for h in model.heads:
        D = LPoly(d, {})
        N = LPoly(d, {})
        for a in h.atoms:
            D = D + LPoly(d, {exponent(dict(a.key)): a.weight.coef})
            N = N + LPoly(d, {exponent(dict(a.key)): a.weight.coef * a.value})
        heads.append((N, D))
    Q = product([D for _, D in heads], d)
    P = Q * model.constant
    for i, (N, _) in enumerate(heads):
        P = P + N * product([D for g, (_, D) in enumerate(heads) if g != i], d) * model.scales[i]
    Dh = LPoly(d, {exponent(dict(enumerate(k))): w for k, w in zip(keys, weights)})
    Nh = LPoly(d, {exponent(dict(enumerate(k))): w * v for k, w, v in zip(keys, weights, values)})
    return (Nh * Q - Dh * P).terms == {}


def check_theorem(ctx: Context, ev: dict) -> None:
    """The stated bounds follow from the checked claims it depends on."""
    theorem = ctx.claims["theorem"]
    deps = set(theorem["depends_on"])
    require("upper" in deps, "the theorem does not depend on the construction")
    lowers = [ctx.derived[k] for k in ("lower:newton", "lower:face") if k in deps and k in ctx.derived]
    require(bool(lowers), "the theorem depends on no checked lower bound")
    lower = max(lowers)
    upper = min([ctx.derived["upper"]] + ctx.derived.get("sat", []))
    unsat = ctx.derived.get("unsat", [])
    solver_lower = max((m + 1 for m in unsat), default=None)
    require(ev["lower_proved"] == lower and ev["upper"] == upper, "theorem bounds differ from the checked claims")
    require(ev.get("solver_lower") == solver_lower, "solver lower bound differs from the UNSAT claims")
    status = ev["status"]
    if status == "proved":
        require(lower == upper and ev["minimum"] == lower, "'proved' needs lower = upper")
    elif status == "solver":
        require(solver_lower is not None and solver_lower >= upper and ev["minimum"] == upper, "'solver' needs UNSAT up to upper − 1")
    else:
        require(status == "bounds" and ev["minimum"] is None and lower < upper, "inconsistent theorem status")
    summary = ctx.cert["summary"]
    require(summary.get("minimum") == ev["minimum"] and summary.get("upper_bound") == upper
            and summary.get("lower_bound") == lower and summary.get("status") == status, "summary differs from the theorem")
    model = ctx.model
    require(summary.get("dimension") == model.dimension and summary.get("heads") == len(model.heads)
            and summary.get("head_atom_terms") == model.head_atom_terms, "summary differs from the model")
    require(summary.get("newton_vertices") == ctx.derived.get("lower:newton")
            and summary.get("face_limit_bound") == ctx.derived.get("lower:face"), "summary bounds differ from their claims")
    _check_series(ctx, summary)


def _check_series(ctx: Context, summary: dict) -> None:
    """The plotted series: the certified d's row is the summary; every row's cost is its model's.

    The bounds of the other rows are recomputed by the producer and marked as not
    certified in the document; their multi-head cost is re-checked here.
    """
    series = ctx.cert.get("series")
    if series is None:
        return
    from headfusion.spec.load import load_spec

    spec = ctx.cert["spec"]
    rows = [r for r in series if r["d"] == spec.get("d")]
    require(len(rows) == 1, "the series has no single row for the certified parameter")
    require(rows[0] == {"d": spec["d"], "head_atom_terms": summary["head_atom_terms"],
                        "lower_bound": summary["lower_bound"], "upper_bound": summary["upper_bound"]},
            "the series row of the certified parameter differs from the summary")
    for row in series:
        require(row["lower_bound"] <= row["upper_bound"], f"series row d = {row['d']}: lower above upper")
        require(load_spec(spec["text"], int(row["d"])).model.head_atom_terms == row["head_atom_terms"],
                f"series row d = {row['d']}: head-atom terms differ from the model")


CHECKS: dict[str, Callable[[Context, dict], None]] = {
    "model": check_model,
    "lemma": check_lemma,
    "exp-form": check_exp_form,
    "coprime": check_coprime,
    "construction": check_construction,
    "newton": check_newton,
    "face-limits": check_face_limits,
    "search-unsat": lambda ctx, ev: check_search(ctx, ev, "unsat"),
    "search-sat": lambda ctx, ev: check_search(ctx, ev, "sat"),
    "search-unknown": lambda ctx, ev: check_search(ctx, ev, "unknown"),
    "theorem": check_theorem,
}
KIND_OF_CHECK = {"model": "definition", "lemma": "lemma", "exp-form": "identity", "coprime": "coprimality",
                 "construction": "construction", "newton": "lower-bound", "face-limits": "lower-bound",
                 "search-unsat": "search", "search-sat": "search", "search-unknown": "search", "theorem": "theorem"}
REQUIRED = {"def:F": "model", "exp-form": "exp-form", "coprime": "coprime", "upper": "construction",
            "lower:newton": "newton", "theorem": "theorem"}


@dataclass
class Report:
    """Outcome per claim: (id, kind, ok, message)."""

    results: list[tuple[str, str, bool, str]]

    @property
    def ok(self) -> bool:
        return bool(self.results) and all(ok for _, _, ok, _ in self.results)


def verify_certificate(cert: dict) -> Report:
    """Re-check every claim; structural problems of the DAG are reported as failed claims."""
    results: list[tuple[str, str, bool, str]] = []
    claims = cert["claims"]
    ids = [c["id"] for c in claims]
    by_id = {c["id"]: c for c in claims}
    dag_problems = []
    if len(set(ids)) != len(ids):
        dag_problems.append("duplicate claim ids")
    position = {cid: i for i, cid in enumerate(ids)}
    for c in claims:
        for dep in c["depends_on"]:
            if dep not in by_id:
                dag_problems.append(f"{c['id']} depends on missing claim {dep}")
            elif position[dep] >= position[c["id"]]:  # listed in topological order: no cycle possible
                dag_problems.append(f"{c['id']} depends on a later claim {dep} (order or cycle)")
        if CHECKS.get(c["check"]) is None or KIND_OF_CHECK.get(c["check"]) != c["kind"]:
            dag_problems.append(f"{c['id']} has an unknown check {c['check']!r} for kind {c['kind']!r}")
    for cid, check in REQUIRED.items():
        if cid not in by_id or by_id[cid]["check"] != check:
            dag_problems.append(f"required claim {cid} ({check}) is missing")
    if "theorem" in by_id:
        needed = {"exp-form": ["def:F"], "coprime": ["exp-form"], "upper": ["exp-form"], "lower:newton": ["exp-form", "coprime"]}
        for cid, deps in needed.items():
            if cid in by_id and not set(deps) <= set(by_id[cid]["depends_on"]):
                dag_problems.append(f"{cid} lost a dependency on {deps}")
    if dag_problems:
        results.append(("dag", "dag", False, "; ".join(dag_problems)))
    try:
        model = rebuild_model(cert)
    except Exception as exc:  # a spec that no longer parses fails every claim
        return Report(results + [("def:F", "definition", False, f"spec does not rebuild: {exc}")])
    ctx = Context(cert, model, by_id)
    for c in claims:
        check = CHECKS.get(c["check"])
        if check is None:
            results.append((c["id"], c["kind"], False, f"unknown check {c['check']!r}"))
            continue
        try:
            check(ctx, c["evidence"])
            results.append((c["id"], c["kind"], True, "ok"))
        except CheckFailed as exc:
            results.append((c["id"], c["kind"], False, str(exc)))
        except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError) as exc:
            results.append((c["id"], c["kind"], False, f"malformed evidence ({type(exc).__name__}: {exc})"))
    return Report(results)


def resolve_unsat(cert: dict, timeout: float = 120.0) -> list[tuple[str, str, str]]:
    """Re-solve each UNSAT claim's regenerated query with z3 and cvc5: (claim, solver, verdict).

    Only here does the checker touch a solver (lazily, behind `verify --resolve`).
    """
    from headfusion.algebra.expform import exponential_form
    from headfusion.solving.smtlib import Options, problem_from_form, query_text
    from headfusion.solving.solver import cvc5_available, solve_isolated

    model = rebuild_model(cert)
    out = []
    for c in cert["claims"]:
        if c["check"] == "search-unsat":
            ev = c["evidence"]
            text = query_text(problem_from_form(exponential_form(model), int(ev["atoms"])), Options(**(ev.get("options") or {})))
            for solver in ("z3", "cvc5"):
                if solver == "cvc5" and not cvc5_available():
                    out.append((c["id"], solver, "absent (pip install cvc5)"))
                    continue
                status, _, reason = solve_isolated(text, timeout, solver=solver)
                out.append((c["id"], solver, status + (f" ({reason})" if reason and status == "unknown" else "")))
    return out
