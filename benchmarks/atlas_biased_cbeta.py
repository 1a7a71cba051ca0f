"""Compare a one-line atlas with biases with Conjecture Cβ (proofs-one-line.md §3, DESIGN §11).

Usage: python benchmarks/atlas_biased_cbeta.py OUT/atlas.json

Cβ: in the normal form F = c + Σ ε_i σ(a_i q + log w_i), if no two factors 1 + w_i x^(a_i) share a root, then m* is the
number of distinct subset sums of the scales a_i (the product head).  Two factors share a root exactly when
w_i^(a_j) = w_j^(a_i) (equal moduli; for symbolic weights c·t^s also s_i a_j = s_j a_i) and v₂(a_i) = v₂(a_j) (a common
ζ with ζ^(a_i) = ζ^(a_j) = −1).  Each point's normal form is recomputed from its function (the atlas's template at the
point), exactly; m* and the bounds come from the atlas's rows, each read off a certificate the kernel replayed.
Prints every point where Cβ's hypothesis fails or m* is not the subset-sum count (or is not decided), and a summary.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from headfusion.algebra.expform import exponential_form
from headfusion.bounds.oneline import normal_form
from headfusion.proof.atlas import atlas_spec, member
from headfusion.spec.parametric import point_data


def two_adic(n: int) -> int:
    """v₂(n) for n ≠ 0."""
    return (n & -n).bit_length() - 1


def shared_roots(terms: tuple) -> list[tuple[int, int]]:
    """The pairs i < j of normal-form terms (a, c, s, ε) whose factors 1 + c·t^s·x^a share a root."""
    out = []
    for i, (a, c, s, _) in enumerate(terms):
        for j, (b, d, u, _) in enumerate(terms[i + 1:], i + 1):
            if c ** b == d ** a and s * b == u * a and two_adic(a) == two_adic(b):
                out.append((i, j))
    return out


def subset_sums(scales: list[int]) -> int:
    """The number of distinct subset sums of the scales (the support of the product Π(1 + w_i x^(a_i)), w_i > 0)."""
    sums = {0}
    for a in scales:
        sums |= {x + a for x in sums}
    return len(sums)


def main(path: str) -> int:
    data = json.load(open(path, encoding="utf-8"))
    atlas = atlas_spec(data["spec"], data["ranges"])
    points = {json.dumps(point_data(p), sort_keys=True): p for p in atlas.points()}
    agree, shared, lemmas = 0, 0, Counter()
    for row in data["rows"]:
        values = points[json.dumps(row["point"], sort_keys=True)]
        terms = normal_form(exponential_form(member(atlas, values).model))
        assert terms is not None, row["point"]  # a one-line atlas: one block of rank 1, two keys per head
        sums = subset_sums([a for a, _, _, _ in terms])
        pairs = shared_roots(terms)
        shared += bool(pairs)
        lemmas[row["lemma"] or row["status"]] += 1
        if not pairs and row["minimum"] == sums:
            agree += 1
            continue
        shown = " + ".join(f"{e}·σ({a}q + log {c}{f'·t^{s}' if s else ''})" for a, c, s, e in terms)
        verdict = "open" if row["minimum"] is None else "shared roots" if pairs else "COUNTEREXAMPLE to Cβ"
        print(f"{verdict}: {row['point']} {shown}: lower {row['lower']} upper {row['upper']} m* {row['minimum']} "
              f"subset sums {sums}" + (f"; shared roots between terms {pairs}" if pairs else ""))
    print(f"{len(data['rows'])} points: Cβ's hypothesis holds and m* = #subset sums on {agree}; {shared} with shared roots; "
          f"{sum(1 for r in data['rows'] if r['minimum'] is None)} open; lower bounds by "
          + "; ".join(f"{k} {v}" for k, v in sorted(lemmas.items(), key=lambda kv: (-kv[1], str(kv[0])))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
