"""Graphical zonotopes (Lemma LG, DESIGN §9): one proof for every graph.

claim / method          lemma  recomputed here
lower:newton "graph"    LG     the block's heads are a_h·σ(±(q_i − q_j)) + const on distinct edges ij of a simple graph
                               G_B (two atoms of equal weight, keys differing by ±(1_i − 1_j), a_h·(v_1 − v_0) ≠ 0), and
                               the factors of Q′_B are exactly the |E| edge binomials, each once, with equal coefficients:
                               Newt(Q′_B) is the graphical zonotope Z_G, its vertices the a(G_B) acyclic orientations,
                               counted here by the source recursion (at most MAX_GRAPH_VERTICES vertices).
lower:graph             LG, LE every shape's vertices counted so, and |supp Q′| > V = Π_B a(G_B): every edge of Z_G is
                               rigid, so m*(F) ≥ V + 1.
family:graphs           LF     the members n_0..8 rebuilt by the statement layer are all cycles, trees or complete graphs,
                               with a(G) and the forests at the closed forms of Lemma LF.
"""

from __future__ import annotations

from math import prod

from headfusion.kernel import statements as say
from headfusion.kernel.base import require, within
from headfusion.kernel.model import Model, relative_keys
from headfusion.kernel.poly import lattice_coordinates, x_groups

MAX_GRAPH_VERTICES = 12  # the source recursion visits 3^n pairs of vertex sets (3^12: about 2 s)


def acyclic_orientations(n: int, edges: list[tuple[int, int]]) -> int:
    """a(G) on vertices 0..n−1: a(S) = Σ over nonempty independent I ⊆ S of (−1)^(|I|+1)·a(S ∖ I) (I: the sources)."""
    within(n, MAX_GRAPH_VERTICES, "vertices of a graph whose orientations are counted")
    adjacent = [0] * n
    for i, j in edges:
        adjacent[i] |= 1 << j
        adjacent[j] |= 1 << i
    a = [1] + [0] * ((1 << n) - 1)
    for S in range(1, 1 << n):
        sub = S
        while sub:  # every nonempty I ⊆ S
            if all(not (adjacent[v] & sub) for v in range(n) if sub >> v & 1):
                a[S] += (-1) ** (bin(sub).count("1") + 1) * a[S & ~sub]
            sub = (sub - 1) & S
    return a[-1]


def edge_of(model: Model, h: int, where: str) -> dict[int, int]:
    """The step ±(1_i − 1_j) of head h = a·σ(±(q_i − q_j)) + const (two atoms of equal weight, a·(v_1 − v_0) ≠ 0)."""
    scale, atoms = model.heads[h]
    step = next((k for k in relative_keys(atoms) if k), {})
    require(len(atoms) == 2 and len({(a.coef, a.bias) for a in atoms}) == 1 and sorted(step.values()) == [-1, 1]
            and scale * (atoms[1].value - atoms[0].value) != 0, f"{where}: head {h} is not a multiple of σ(q_i − q_j)")
    return step  # type: ignore[return-value]


def block_graph(model: Model, exp: dict, factors: list, shape: int) -> tuple[int, list[tuple[int, int]]]:
    """(vertices, edges) of the graph G_B of the first block of this shape, after every check of the method "graph"."""
    b = exp["blocks"].index(shape)
    variables, (den, rows, _, _, _) = exp["variables"][b], exp["shapes"][shape]
    local = {j: k for k, j in enumerate(variables)}
    edges, directions = [], set()
    for h in exp["heads"][b]:
        step = edge_of(model, h, f"shape {shape}")
        edges.append(tuple(sorted(local[j] for j in step)))
        coords = lattice_coordinates({local[j]: v for j, v in step.items()}, den, rows)
        directions |= {coords, tuple(-x for x in coords)}
    require(len(set(edges)) == len(edges), f"shape {shape}: two heads on one edge (not a simple graph)")
    found = set()
    for f, e, _ in factors:
        (u, cu), (w, cw) = sorted(x_groups(f).items()) if len(x_groups(f)) == 2 else ((None, 0), (None, 1))
        require(u is not None and e == 1 and cu == cw, f"shape {shape}: a factor of Q'_B is not a simple edge binomial")
        found.add(tuple(y - x for x, y in zip(u, w)))
    require(len(found) == len(factors) == len(edges) and {d for d in found} | {tuple(-x for x in d) for d in found} == directions,
            f"shape {shape}: the factors of Q'_B are not the edge binomials of the graph")
    return len(variables), edges


def graph_vertices(model: Model, facts: dict, shape: int) -> int:
    """V_B = a(G_B): the vertices of the graphical zonotope Newt(Q′_B) (Lemma LG)."""
    return acyclic_orientations(*block_graph(model, facts["exp-form"], facts["coprime"]["factors"][shape], shape))


def check_graph(model: Model, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Lemma LG: every block a graph whose zonotope's edges are all rigid; with |supp Q′| > V, m*(F) ≥ V + 1."""
    exp, newton = facts["exp-form"], facts["lower:newton"]
    require(ev == {}, "lower:graph carries no evidence: the graphs are read from the model")
    require(newton["methods"] == {"graph"}, "lower:graph needs every shape's vertices counted as a graph's (lower:newton)")
    support = prod(len(x_groups(exp["shapes"][s][4])) for s in exp["blocks"])
    V = newton["count"]
    require(support > V, f"|supp Q'| = {support} equals V = {V}: the graphs are forests, Lemma LG gives nothing beyond L5")
    graphs = [block_graph(model, exp, facts["coprime"]["factors"][s], s) for s in sorted(set(exp["blocks"]))]
    return {"bound": V + 1}, ["coprime", "exp-form", "lemma:LE", "lemma:LG", "lower:newton"], say.graph(graphs, V, support)


def forests(n: int, edges: list[tuple[int, int]]) -> int:
    """T_G(2, 1): the number of edge sets without a cycle (union–find over every subset; at most 24 edges)."""
    within(len(edges), 24, "edges of a graph whose forests are counted")
    count = 0
    for mask in range(1 << len(edges)):
        root = list(range(n))
        for k, (i, j) in enumerate(edges):
            if mask >> k & 1:
                while root[i] != i:
                    i = root[i]
                while root[j] != j:
                    j = root[j]
                if i == j:
                    break
                root[i] = j
        else:
            count += 1
    return count


def check_family(model: Model, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Lemma LF: every member the statement layer rebuilt (n = n_0..8) is the tournament of a simple graph of one class —
    cycle C_n, tree, complete K_n — with a(G) and the forests at their closed forms; the class and n_0 as facts."""
    require(len(facts.get("members") or {}) >= 3, "family:graphs needs three members rebuilt by the statement layer")
    kinds = {"cycle", "tree", "complete"}  # C_3 = K_3, P_2 = K_2: a member may be of several classes
    for n, member in sorted(facts["members"].items()):
        edges = [tuple(sorted(edge_of(member, h, f"member n = {n}"))) for h in range(len(member.heads))]
        require(len(set(edges)) == len(edges) and {j for e in edges for j in e} == set(range(n)), f"member n = {n} is no simple graph on n vertices")
        degrees = [sum(v in e for e in edges) for v in range(n)]
        a, f = acyclic_orientations(n, edges), forests(n, edges)
        closed = {"cycle": (set(degrees) == {2}, 2**n - 2, 2**n - 1), "tree": (len(edges) == n - 1, 2 ** (n - 1), 2 ** (n - 1)),
                  "complete": (len(edges) == n * (n - 1) // 2, prod(range(1, n + 1)), f)}
        kinds &= {k for k, (shape, *counts) in closed.items() if shape and (a, f) == tuple(counts)}
    require(len(kinds) == 1, "the members are not all cycles, all trees or all complete graphs with the counts of Lemma LF")
    kind, first = kinds.pop(), min(facts["members"])
    last = max(facts["members"])
    require(ev == {"class": kind, "from": first, "to": last}, f"family:graphs states the class {kind} of the members n = {first}..{last}")
    return {"class": kind, "from": first}, ["lemma:LF", "lemma:LG"] + ["lemma:LD"] * (kind == "complete"), say.graph_family(kind, first, last)
