"""Vertices and edges of Newt(Q′_B): the method before issue 22 and the new ones, side by side in one run.

    python benchmarks/bench_polytope.py [--cap SECONDS] [--repeat N] [--only NAME]

Methods, per case (all blocks of F, no caches):
  old       the z3 vertex search this issue replaced (random integer directions, then one exact
            z3 LP per remaining support point; parallelepipeds from their sign vectors), copied
            here verbatim as the baseline.  Vertices only.  Run in a child process and stopped
            after --cap seconds ("> cap").
  new V     bounds.polytope.newton_graph(support, generators, with_edges=False): zonotopes from
            their generators' arrangement, other supports by exact double description; small
            witnesses; every witness re-checked exactly.
  new V+E   the same with all edges and their witnesses (with_edges=True).
  hull V+E  newton_graph(support, None): the general exact path even where Q′_B is a product of
            binomials (is the arrangement worth having?).
Times are medians of --repeat runs (the old method: one run when it takes over 5 s); the
ratio is old / new V.  Every case checks that all methods count the same vertices.
Cases: K_4, K_5, K_6 and C_8 from proofs/*.toml, W_12, a 6-vertex 12-edge tournament (K_6
minus a perfect matching, orientations seeded), three random 2-D and three random 3-D sums of
four three-atom heads (seeded).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time
from fractions import Fraction
from itertools import product as signs
from math import gcd, lcm
from typing import Sequence

from headfusion.algebra.expform import exponential_form, x_support
from headfusion.bounds.lower import _solve, binomial_generators  # _solve: unchanged by issue 22
from headfusion.bounds.polytope import (
    MAX_ARRANGEMENT_GENERATORS,
    is_witness,
    newton_graph,
    rank,
    zonotope_directions,
    zonotope_vertex_count,
)
from headfusion.spec.load import load_spec

# -- the baseline: bounds/polytope.py and bounds/lower.py before issue 22 ----------------------------

Point = tuple[int, ...]


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(x * y for x, y in zip(a, b))


def _primitive(c: Sequence[int]) -> tuple[int, ...]:
    g = gcd(*c)
    return tuple(x // g for x in c) if g > 1 else tuple(c)


def _unique_argmax(points: Sequence[Point], c: Sequence[int]) -> Point | None:
    best, best_value, unique = None, None, False
    for p in points:
        value = _dot(c, p)
        if best_value is None or value > best_value:
            best, best_value, unique = p, value, True
        elif value == best_value:
            unique = False
    return best if unique else None


def _lp_witness(vertex: Point, others: Sequence[Point]) -> tuple[int, ...] | None:
    import z3

    r = len(vertex)
    cs = [z3.Real(f"c{i}") for i in range(r)]
    solver = z3.Solver()
    for u in others:
        solver.add(z3.Sum([cs[i] * (vertex[i] - u[i]) for i in range(r) if vertex[i] != u[i]] or [z3.RealVal(0)]) >= 1)
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    values = []
    for c in cs:
        v = model.evaluate(c, model_completion=True)
        values.append(Fraction(v.numerator_as_long(), v.denominator_as_long()))
    scale = lcm(1, *(v.denominator for v in values))
    return tuple(int(v * scale) for v in values)


def old_explicit_vertices(support: Sequence[Point], seed: int = 0, expected: int | None = None) -> dict:
    points = sorted(set(support))
    r = len(points[0])
    if len(points) == 1:
        return {points[0]: (0,) * r}
    found: dict[Point, tuple[int, ...]] = {}
    n = len(points)
    centroid_n = [sum(p[i] for p in points) for i in range(r)]
    for p in points:
        c = _primitive([n * p[i] - centroid_n[i] for i in range(r)]) if any(n * p[i] != centroid_n[i] for i in range(r)) else None
        if c is not None and is_witness(p, c, points):
            found[p] = c
    if len(found) == n:
        return found
    directions: list[tuple[int, ...]] = []
    for i in range(r):
        for s in (1, -1):
            directions.append(tuple(s if j == i else 0 for j in range(r)))
    rng = random.Random(seed)
    directions += [tuple(rng.randint(-3, 3) for _ in range(r)) for _ in range(2 * len(points) + 16)]
    for c in directions:
        if expected is not None and len(found) >= expected:
            break
        if not any(c):
            continue
        v = _unique_argmax(points, c)
        if v is not None and v not in found:
            found[v] = _primitive(c)
    for p in points:
        if p in found:
            continue
        if expected is not None and len(found) >= expected:
            break
        witness = _lp_witness(p, [u for u in points if u != p])
        if witness is not None:
            found[p] = _primitive(witness)
    for v, c in found.items():
        assert is_witness(v, c, points)
    return found


def old_parallelepiped_vertices(support: list[Point], generators: list[Point]) -> dict:
    r = len(generators[0])
    gram = [[Fraction(_dot(g, h)) for h in generators] for g in generators]
    found: dict[Point, tuple[int, ...]] = {}
    for sign in signs((1, -1), repeat=len(generators)):
        y = _solve(gram, [Fraction(x) for x in sign])
        c = [sum((y[i] * generators[i][j] for i in range(len(generators))), Fraction(0)) for j in range(r)]
        scale = lcm(1, *(v.denominator for v in c))
        witness = tuple(int(v * scale) for v in c)
        vertex = max(support, key=lambda p: _dot(witness, p))
        assert is_witness(vertex, witness, support)
        found[vertex] = witness
    return found


def old_block_vertices(support: list[Point], generators: list[Point] | None) -> int:
    """The old block_newton for an explicit support: its vertex count."""
    if generators and rank(generators) == len(generators) <= 16:
        return len(old_parallelepiped_vertices(support, generators))
    expected = None
    if generators:
        directions = zonotope_directions(generators)
        if len(directions) <= MAX_ARRANGEMENT_GENERATORS:
            expected = zonotope_vertex_count(directions)
    return len(old_explicit_vertices(support, expected=expected))


# -- cases ---------------------------------------------------------------------------------------


def random_sum(dimension: int, heads: int, atoms: int, seed: int) -> str:
    """A seeded sum of attn heads with random small integer keys and values."""
    rng = random.Random(seed)
    terms = []
    for _ in range(heads):
        logits = ["0"]
        for _ in range(atoms - 1):
            coeffs = [rng.randint(-2, 2) for _ in range(dimension)]
            if not any(coeffs):
                coeffs[rng.randrange(dimension)] = 1
            logits.append(" + ".join(f"{c}*q{i + 1}" for i, c in enumerate(coeffs) if c))
        values = [str(rng.randint(-3, 3)) for _ in range(atoms)]
        terms.append(f"attn([{', '.join(logits)}], [{', '.join(values)}])")
    return " + ".join(terms)


def twelve_edge_tournament(seed: int = 12) -> str:
    """K_6 minus the perfect matching {12, 34, 56}: 12 edges, each oriented at random (seeded)."""
    rng = random.Random(seed)
    terms = []
    for i in range(1, 7):
        for j in range(i + 1, 7):
            if (i, j) in {(1, 2), (3, 4), (5, 6)}:
                continue
            a, b = (j, i) if rng.random() < 0.5 else (i, j)
            terms.append(f"sigmoid(q{a} - q{b})")
    return " + ".join(terms)


def cases() -> list[tuple[str, str, int | None]]:
    out = [
        ("K_4", "proofs/tournament_complete.toml", 4),
        ("K_5", "proofs/tournament_complete.toml", 5),
        ("K_6", "proofs/tournament_complete.toml", 6),
        ("C_8", "proofs/tournament_cycle.toml", 8),
        ("W_12", "W", 12),
        ("G(6,12)", twelve_edge_tournament(), None),
    ]
    out += [(f"2-D sum #{s}", random_sum(2, 4, 3, s), None) for s in range(3)]
    out += [(f"3-D sum #{s}", random_sum(3, 4, 3, s), None) for s in range(3)]
    return out


# -- measurement ----------------------------------------------------------------------------------


def _old_child(blocks: list, queue) -> None:
    start = time.perf_counter()
    counts = [old_block_vertices(s, g) for s, g in blocks]
    queue.put((time.perf_counter() - start, counts))


def time_old(blocks: list, cap: float) -> tuple[float | None, list[int] | None]:
    """Seconds and per-block vertex counts of the old method in a child process, or (None, None) past the cap."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_old_child, args=(blocks, queue))
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, None
    return queue.get()


def median_time(function, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="seconds allowed to the old method per case")
    parser.add_argument("--repeat", type=int, default=5, help="runs of the new methods (median)")
    parser.add_argument("--only", help="one case by name")
    args = parser.parse_args()
    print("| case | rank | supp Q′ | vertices | edges | old V (s) | new V (s) | old/new | new V+E (s) | hull V+E (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    notes = []
    for name, text, d in cases():
        if args.only and name != args.only:
            continue
        form = exponential_form(load_spec(text, d).model)
        blocks = [(sorted(x_support(b.Q_reduced)), binomial_generators(b)) for b in form.blocks]
        new_v, graphs_v = median_time(lambda: [newton_graph(s, g, with_edges=False) for s, g in blocks], args.repeat)
        new_e, graphs = median_time(lambda: [newton_graph(s, g) for s, g in blocks], args.repeat)
        hull_e, hulls = median_time(lambda: [newton_graph(s, None) for s, _ in blocks], args.repeat)
        counts = [len(g.vertices) for g in graphs]
        assert counts == [len(g.vertices) for g in graphs_v] == [len(h.vertices) for h in hulls], name
        assert [[e[:2] for e in g.edges] for g in graphs] == [[e[:2] for e in h.edges] for h in hulls], f"{name}: edges differ"
        old, old_counts = time_old(blocks, args.cap)
        if old is not None and old < 5:
            runs = [old] + [time_old(blocks, args.cap)[0] for _ in range(2)]
            old = statistics.median(runs)
        if old_counts is not None:
            assert old_counts == counts, f"{name}: old {old_counts} vs new {counts} vertices"
        vertices = 1
        for c in counts:
            vertices *= c
        ranks = "+".join(str(b.rank) for b in form.blocks) if len(form.blocks) <= 3 else f"{len(form.blocks)}×{form.blocks[0].rank}"
        supports = "·".join(str(len(s)) for s, _ in blocks) if len(blocks) <= 3 else f"{len(blocks[0][0])}^{len(blocks)}"
        edges = "+".join(str(len(g.edges)) for g in graphs) if len(graphs) <= 3 else f"{len(graphs)}×{len(graphs[0].edges)}"
        old_cell = f"> {args.cap:.0f}" if old is None else f"{old:.3f}"
        ratio = f"> {args.cap / new_v:,.0f}×" if old is None else f"{old / new_v:,.0f}×" if old >= 10 * new_v else f"{old / new_v:.1f}×"
        print(f"| {name} | {ranks} | {supports} | {vertices} | {edges} | {old_cell} | {new_v:.3f} | {ratio} | {new_e:.3f} | {hull_e:.3f} |",
              flush=True)
        if d is None:
            notes.append(f"{name}: {text}")
    for note in notes:
        print(f"- {note}")


if __name__ == "__main__":
    main()
