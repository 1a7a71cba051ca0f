"""One check per kind of claim.  Each re-derives its facts from the model and earlier checked
facts, and returns (facts, dependencies it used, the statement its numbers support).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm, prod
from typing import Any

from headfusion.kernel import graphs, statements as say
from headfusion.kernel.base import MAX_POINTS, MAX_TERMS, integer, rational, require, within
from headfusion.kernel.model import Model, group_polys, relative_keys, t_scale
from headfusion.kernel.poly import (Poly, add, divide, lattice_coordinates, mul, poly_from_json, product, same_fraction, t_sign,
                                    x_groups)
from headfusion.kernel.refutation import replay

Facts = dict[str, Any]
Result = tuple[Facts, list[str], str]


def check_definition(model: Model, ev: dict, facts: Facts) -> Result:
    """The model hash and cost (the model itself is compared with the spec by the caller)."""
    require(ev == {"model_sha256": facts["model_sha256"]}, "model hash mismatch")
    terms, c = sum(len({a.key for a in atoms}) for _, atoms in model.heads), model.constant
    return {"terms": terms}, [], say.definition(len(model.heads), (c.numerator, c.denominator), model.dimension, terms)


def _shape(data: dict, variables: int) -> tuple[int, list[list[tuple[int, int]]], int]:
    """(denominator, echelon rows over local columns, rank) of a block lattice basis."""
    den, rows = integer(data["denominator"]), []
    require(den >= 1, "basis denominator must be positive")
    for row in data["rows"]:
        entries = [(integer(j), integer(v)) for j, v in row]
        require(entries and all(v for _, v in entries) and all(0 <= j < variables for j, _ in entries)
                and [j for j, _ in entries] == sorted({j for j, _ in entries}), "malformed basis row")
        require(not rows or entries[0][0] > rows[-1][0][0], "basis rows not in echelon form")
        rows.append(entries)
    return den, rows, len(rows)


def _local_head(model: Model, h: int, local: dict[int, int]) -> tuple:
    """Head h with its relative keys in block-local columns: blocks equal up to renaming share this."""
    atoms = model.heads[h][1]
    return model.heads[h][0], tuple((tuple(sorted((local[j], v) for j, v in rel.items())), a.coef, a.bias, a.value)
                                    for a, rel in zip(atoms, relative_keys(atoms)))


def check_exp_form(model: Model, ev: dict, facts: Facts) -> Result:
    """For every block: its heads' P_B, Q_B recomputed in the block lattice, and P′_B·Q_B = P_B·Q′_B."""
    scale = t_scale(model)
    require(integer(ev.get("t_scale")) == scale, "t scale differs from the model's bias denominators")
    shapes, blocks = ev["shapes"], ev["blocks"]
    within(len(blocks), 10**6, "blocks")
    seen, used, parsed, done = [], set(), {}, set()
    for block in blocks:
        heads = [integer(h) for h in block["heads"]]
        variables = [integer(j) - 1 for j in block["variables"]]
        s = integer(block["shape"])
        require(0 <= s < len(shapes) and heads and variables == sorted(set(variables)) and not used & set(variables),
                "blocks must have a shape, heads, and disjoint sorted variables")
        used |= set(variables)
        seen += heads
        require(all(0 <= h < len(model.heads) for h in heads), "a block names a head that does not exist")
        local = {j: i for i, j in enumerate(variables)}
        for h in heads:
            require(all(j in local for rel in relative_keys(model.heads[h][1]) for j in rel), f"head {h} uses a variable outside its block")
        if s not in parsed:
            den, rows, rank = _shape(shapes[s], len(variables))
            parsed[s] = (den, rows, rank, poly_from_json(shapes[s]["P"], rank + 1), poly_from_json(shapes[s]["Q"], rank + 1))
        den, rows, rank, Pr, Qr = parsed[s]
        signature = (s, tuple(_local_head(model, h, local) for h in heads))
        if signature in done:
            continue
        P, Q = group_polys(model, heads, lambda rel: lattice_coordinates({local[j]: v for j, v in rel.items()}, den, rows), rank + 1, scale)
        span = lambda R: [max(e[c] for e in R) - min(e[c] for e in R) if R else 0 for c in range(rank + 1)]  # noqa: E731
        # P_B = h·P′_B and Q_B = h·Q′_B, so (L5) lowest terms are never wider: refused before any product with them
        within(max(a - b for R, S in ((Pr, P), (Qr, Q)) for a, b in zip(span(R), span(S))), 0,
               f"block of heads {heads[:5]}: width of P'_B or Q'_B beyond that of its heads' P_B or Q_B")
        require(Qr and Q and same_fraction(Pr, Qr, P, Q), f"block of heads {heads}: P'_B/Q'_B is not the sum of its heads")
        done.add(signature)
    require(sorted(seen) == list(range(len(model.heads))), "blocks do not cover every head exactly once")
    used_shapes = sorted({integer(b["shape"]) for b in blocks})
    require(used_shapes == list(range(len(shapes))), "every shape must be used by a block")
    out = {"scale": scale, "shapes": [parsed[s] for s in range(len(shapes))], "blocks": [integer(b["shape"]) for b in blocks],
           "variables": [[integer(j) - 1 for j in b["variables"]] for b in blocks],  # 0-based q indices of each block's columns
           "heads": [[integer(h) for h in b["heads"]] for b in blocks]}
    rank = sum(parsed[s][2] for s in out["blocks"])
    return out, ["def:F", "lemma:L1"], say.exp_form(len(blocks), rank)


def substitute(p: Poly, a: list[int]) -> Poly:
    """p(y^a) in (y, t)."""
    out: Poly = {}
    for e, c in p.items():  # in place: linear in the terms
        k = (sum(x * y for x, y in zip(e[:-1], a)), e[-1])
        out[k] = out.get(k, 0) + c
    return {e: c for e, c in out.items() if c}


def check_coprime(model: Model, ev: dict, facts: Facts) -> Result:
    """Lemma LC per shape: Q′_B = unit·Π f^e, each f coprime to P′_B by the binomial rule or a Bézout identity (LB)."""
    shapes = facts["exp-form"]["shapes"]
    require(len(ev["shapes"]) == len(shapes), "one coprimality entry per shape expected")
    factors_of, counts = [], {"binomial": 0, "bezout": 0}
    for i, (entry, (_, _, rank, Pr, Qr)) in enumerate(zip(ev["shapes"], shapes)):
        rest, factors = Qr, []
        for item in entry["factors"]:
            f, e = poly_from_json(item["poly"], rank + 1), integer(item["multiplicity"])
            groups = x_groups(f)
            require(set(item) == {"poly", "multiplicity", "reason"} | ({"substitution", "A", "B"} if item["reason"] == "bezout" else set()),
                    f"shape {i}: a factor's fields are not those of its reason")
            require(len(groups) >= 2 and e >= 1, f"shape {i}: a factor must involve x and have positive multiplicity")
            require(all(min(x[c] for x in groups) == 0 for c in range(rank)), f"shape {i}: a factor is not normalised (lowest exponents 0)")
            for _ in range(e):
                rest = divide(rest, f)
                require(rest is not None, f"shape {i}: a stated factor does not divide Q'_B")
            if item["reason"] == "binomial":
                (u, cu), (v, cv) = sorted(groups.items()) if len(groups) == 2 else ((None, {}), (None, {}))
                require(u is not None and (len(cu) == 1 or len(cv) == 1), f"shape {i}: not a binomial with a monomial coefficient")
                diff = [x - y for x, y in zip(u, v)]
                require(gcd(*diff) == 1, f"shape {i}: binomial exponent difference not primitive")
                require(Pr and divide(Pr, f) is None, f"shape {i}: a factor of Q'_B divides P'_B")
            else:
                require(item["reason"] == "bezout", f"shape {i}: unknown coprimality reason")
                a = [integer(x) for x in item["substitution"]]
                widths = [max(x[c] for x in groups) - min(x[c] for x in groups) for c in range(rank)]
                require(len(a) == rank and all(a[c] > sum(a[k] * widths[k] for k in range(c)) for c in range(rank)),
                        f"shape {i}: the substitution does not separate the factor's exponent differences")
                A, B = poly_from_json(item["A"], 2), poly_from_json(item["B"], 2)
                combo = add(mul(A, substitute(Pr, a)), mul(B, substitute(f, a)))
                require(len(x_groups(combo)) == 1, f"shape {i}: the Bezout combination is not a nonzero monomial")
            counts[item["reason"]] += 1
            factors.append((f, e, item["reason"]))
        require(rest is not None and len(x_groups(rest)) == 1, f"shape {i}: Q'_B is not a unit times the stated factors")
        factors_of.append(factors)
    return {"factors": factors_of}, ["exp-form", "lemma:LC"] + ["lemma:LB"] * bool(counts["bezout"]), say.coprime(len(shapes), counts["binomial"], counts["bezout"])


def check_construction(model: Model, ev: dict, facts: Facts) -> Result:
    """Each block head N_B/D_B = P′_B/Q′_B with positive weights and supp N ⊆ supp D; the product head (LP)."""
    exp = facts["exp-form"]
    require(len(ev["heads"]) == len(exp["shapes"]), "one block head per shape expected")
    sizes, found = [], set()
    for i, (item, (_, _, rank, Pr, Qr)) in enumerate(zip(ev["heads"], exp["shapes"])):
        N, D = poly_from_json(item["N"], rank + 1), poly_from_json(item["D"], rank + 1)
        require(D and Qr and same_fraction(N, D, Pr, Qr), f"shape {i}: N_B/D_B differs from P'_B/Q'_B")
        groups = x_groups(D)
        require(all(t_sign(c, exp["scale"]) == 1 for c in groups.values()), f"shape {i}: a weight is not positive")
        require(set(x_groups(N)) <= set(groups), f"shape {i}: supp N is not inside supp D")
        how = item.get("found", "product")  # how the head was found (DESIGN §10): stated only when checked (say.FOUND)
        require(how in say.FOUND or how in say.NOTED, f"shape {i}: unknown construction kind")
        if how in ("uniform", "interval"):  # D_B = g·Q′_B on every point of an interval of one lattice line (Lemma IH)
            points = sorted(groups)
            steps = {tuple(b - a for a, b in zip(u, v)) for u, v in zip(points, points[1:])}
            require(len(steps) == 1 and divide(D, Qr) is not None, f"shape {i}: not an {how} head (D_B = g*Q'_B, no gap on a line)")
            require(how == "interval" or len({tuple(sorted(c.items())) for c in groups.values()}) == 1, f"shape {i}: not a uniform head")
        found.add(how)
        sizes.append(len(groups))
    atoms = prod(sizes[s] for s in exp["blocks"])
    return {"atoms": atoms}, ["exp-form", "lemma:L1"] + ["lemma:LP"] * (len(exp["blocks"]) > 1), say.construction(atoms, len(exp["blocks"]), found)


def check_newton(model: Model, ev: dict, facts: Facts) -> Result:
    """Vertices of Newt(Q′_B) per shape (witnesses, or a parallelepiped of binomials); product over blocks (L5, LP)."""
    exp, factors = facts["exp-form"], facts["coprime"]["factors"]
    require(len(ev["shapes"]) == len(exp["shapes"]), "one Newton entry per shape expected")
    counts, methods, listed_sets = [], set(), []
    for i, (item, (_, _, rank, _, Qr)) in enumerate(zip(ev["shapes"], exp["shapes"])):
        support = list(x_groups(Qr))
        if item["method"] == "parallelepiped":
            directions = []
            for f, _, _ in factors[i]:
                g = sorted(x_groups(f))
                require(len(g) == 2, f"shape {i}: a factor is not a binomial")
                directions.append([Fraction(x - y) for x, y in zip(g[0], g[1])])
            require(_rank(directions) == len(directions), f"shape {i}: binomial directions are not independent")
            counts.append(2 ** len(directions))
            listed_sets.append(None)
        elif item["method"] == "graph":  # a tournament block: the vertices of its graphical zonotope, counted (Lemma LG)
            require(set(item) == {"method"}, f"shape {i}: a graph's vertices are counted, not listed")
            counts.append(graphs.graph_vertices(model, facts, i))
            listed_sets.append(None)
        else:
            require(item["method"] == "vertices", f"shape {i}: unknown method")
            vertices = vertices_of(support, item["vertices"], rank, f"shape {i}")
            counts.append(len(vertices))
            listed_sets.append(vertices)
        methods.add(item["method"])
    total = prod(counts[s] for s in exp["blocks"])
    names = {"vertices": "integer witnesses", "parallelepiped": "Lemma LZ", "graph": "Lemma LG"}
    how = " and ".join(sorted({names[m] for m in methods}, key=list(names.values()).index)) or "no variables"
    deps = ["coprime", "exp-form", "lemma:L5"] + ["lemma:LP"] * (len(exp["blocks"]) > 1) + ["lemma:LZ"] * ("parallelepiped" in methods) \
        + ["lemma:LG"] * ("graph" in methods)
    # per shape: V_B and, for listed vertices, the set (lower:classes mixes V_B in, lower:edges spans it)
    return {"count": total, "shapes": list(zip(counts, listed_sets)), "methods": methods}, deps, say.newton(total, how, bool(methods) and "vertices" not in methods)


def vertices_of(support: list, listed: object, rank: int, where: str) -> frozenset:
    """The listed vertices of Newt(R), R with x-support `support`: each a point of it with a witness c
    strictly maximised there (L5 counts them)."""
    require(isinstance(listed, list), f"{where}: the vertices must be a list")
    within(len(listed) * len(support), 50 * MAX_POINTS, "witness comparisons")
    points, vertices = set(support), set()
    for v, c in listed:
        v, c = tuple(integer(x) for x in v), [integer(x) for x in c]
        require(v in points and v not in vertices and len(c) == rank, f"{where}: vertex {list(v)} is not a new point of the support")
        top = sum(x * y for x, y in zip(c, v))
        require(all(sum(x * y for x, y in zip(c, u)) < top for u in support if u != v), f"{where}: witness {c} fails at {list(v)}")
        vertices.add(v)
    return frozenset(vertices)


def _rank(vectors: list[list[Fraction]]) -> int:
    rows, rank = [list(v) for v in vectors], 0
    for col in range(len(rows[0]) if rows else 0):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(len(rows)):
            if r != rank and rows[r][col]:
                f = rows[r][col] / rows[rank][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[rank])]
        rank += 1
    return rank


def combined(model: Model, exp: Facts) -> tuple[Poly, Poly]:
    """P′, Q′ of F over the direct sum of the block lattices (LP): Q′ = Π Q′_B, P′ = cQ′ + Σ P′_B Π_{B′≠B} Q′_B′."""
    parts = [exp["shapes"][s] for s in exp["blocks"]]
    n = sum(rank for _, _, rank, _, _ in parts) + 1
    within(prod(len(Q) for *_, Q in parts), MAX_TERMS, "terms of the combined denominator")
    embedded, offset = [], 0
    for _, _, rank, P, Q in parts:
        place = lambda e: (0,) * offset + e[:-1] + (0,) * (n - 1 - offset - rank) + e[-1:]  # noqa: E731
        embedded.append(({place(e): c for e, c in P.items()}, {place(e): c for e, c in Q.items()}))
        offset += rank
    Q = product([q for _, q in embedded], n)
    P = {e: c * model.constant for e, c in Q.items() if model.constant}
    for i, (p, _) in enumerate(embedded):
        P = add(P, mul(p, product([q for k, (_, q) in enumerate(embedded) if k != i], n)))
    return P, Q


def check_refutation(model: Model, ev: dict, facts: Facts) -> Result:
    """Lemma LR: the refutation tree of the box generated here from P′, Q′ and m closes."""
    m = integer(ev["atoms"])
    P, Q = combined(model, facts["exp-form"])
    leaves = replay(P, Q, m, ev, facts["lower:newton"]["count"])
    interior = ["lower:newton"] if leaves.get("interior") else []  # interior leaves rest on the checked V (L5)
    # not the construction: the box, rows and tree are P′, Q′ and m alone (the theorem checks lower ≤ upper)
    lp = ["lemma:LP"] * (len(facts["exp-form"]["blocks"]) > 1)  # P′, Q′ combined over the blocks
    return {"lower": m + 1}, ["coprime", "exp-form", "lemma:LR"] + lp + interior, say.refutation(m, leaves)


def check_head(model: Model, ev: dict, facts: Facts) -> Result:
    """An explicit head with rational weights: N·Q = D·P in q coordinates (no solver)."""
    atoms = ev["head"]
    within(len(atoms), MAX_POINTS, "atoms of a head")
    require(atoms and all(a.bias == 0 for _, h in model.heads for a in h), "an explicit head needs rational weights in F")
    keys = [{integer(j) - 1: rational(v) for j, v in a["key"]} for a in atoms]
    weights, values = [rational(a["weight"]) for a in atoms], [rational(a["value"]) for a in atoms]
    require(all(w > 0 for w in weights) and all(0 <= j < model.dimension for k in keys for j in k), "weights must be positive, keys in range")
    den = lcm(1, *(v.denominator for k in keys for v in k.values()), *(v.denominator for _, h in model.heads for a in h for _, v in a.key))
    used = sorted({j for k in keys for j in k} | {j for _, h in model.heads for a in h for j, _ in a.key})
    exponent = lambda key: tuple(int(key.get(j, 0) * den) for j in used)  # noqa: E731
    P, Q = group_polys(model, list(range(len(model.heads))), exponent, len(used) + 1, 1)
    P = add(P, Q, model.constant)
    D: Poly = {}
    N: Poly = {}
    for k, w, v in zip(keys, weights, values):  # in place: linear in the atoms (L1: equal keys add)
        e = exponent(k) + (0,)
        D[e], N[e] = D.get(e, 0) + w, N.get(e, 0) + w * v
    require(not add(mul(N, Q), mul(D, P), Fraction(-1)), "the head does not represent F")
    size = len(D)
    require(size <= integer(ev["atoms"]), "the head has more atoms than the search allowed")
    return {"upper": size}, ["def:F", "lemma:L1"], say.head(size)


def check_testimony(model: Model, ev: dict, facts: Facts) -> Result:
    """Solver testimony is not checked; it may not contradict the checked construction."""
    m = integer(ev["atoms"])
    require(ev.get("verdict") == "unsat", "testimony records an unsat verdict")
    require(1 <= m < facts["upper"]["atoms"], f"an unsat verdict at m = {m} contradicts the checked construction")
    return {"testimony": m + 1}, ["upper"], say.testimony(m)


def check_unknown(model: Model, ev: dict, facts: Facts) -> Result:
    """A search without verdict asserts nothing."""
    m = integer(ev["atoms"])
    return {}, [], say.undecided(m)
