"""Four-vertex tournaments (Theorem K with Lemma LN, DESIGN §9 "K_4 beyond 28"): 32 ≤ m*(F).

claim            lemma      recomputed here
lower:theorem-k  K (LN, LH, F has one block, read from the model (graphs.block_graph) as c + Σ_{ij∈E} a_ij·σ(±(q_i − q_j))
                 LD)        over the six edges of K_4, every a_ij·(v_1 − v_0) ≠ 0, equal weights in each head, and the
                            factors of Q′_B exactly the six edge binomials x_i + x_j, each once (lowest terms: claim coprime).
                            The instance the proof names, compared with the evidence: per direction c = +e_v (sources,
                            v in the block's order), then −e_v (sinks), the three edges of the face limit F_c that stay
                            non-constant (the K_3 on the other vertices); for the 6 pairs of sources and the 6 pairs of
                            sinks the margin max⟨c, ·⟩ + max⟨c′, ·⟩ − max⟨c + c′, ·⟩ over supp Q′_B, positive (disjoint faces).
                            Bound 32.  The proof (LD + LH on the sources: 28; LN on each sink: 4 more) is the fixed
                            theorem's, printed in the certificate; scaled or shifted edges are refused (block_graph).
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.kernel import statements as say
from headfusion.kernel.base import require
from headfusion.kernel.faces import levels
from headfusion.kernel.graphs import block_graph, edge_of
from headfusion.kernel.model import Model, face_limit

BOUND = 32


def instance(model: Model, exp: dict, factors: list) -> dict:
    """The directions ±e_v with their face graphs and the 12 pair margins, after the K_4 checks."""
    require(len(exp["blocks"]) == 1, "Theorem K needs F to be one block (the tournament function of K_4 and a constant)")
    n, edges = block_graph(model, exp, factors, exp["blocks"][0])
    require(n == 4 and sorted(edges) == [(a, b) for a in range(4) for b in range(a + 1, 4)], "the block's graph is not K_4")
    variables, faces, values = exp["variables"][0], [], []
    for sign in (1, -1):
        for v in variables:
            c = {v: Fraction(sign)}
            limit = face_limit(model, c)
            kept = sorted(sorted(j + 1 for j in edge_of(limit, h, f"face {sign * (v + 1)}"))
                          for h, (_, atoms) in enumerate(limit.heads) if len({a.key for a in atoms}) > 1)
            require(kept == [[a + 1, b + 1] for a in variables for b in variables if v not in (a, b) and a < b],
                    f"the face limit along {'+' if sign > 0 else '-'}e_{v + 1} is not the K_3 function of the other vertices")
            values.append(levels(exp, c)[0])
            faces.append([[[v + 1, sign]], kept])
    pairs = []
    for group in (range(4), range(4, 8)):
        for k in group:
            for l in group:
                if k < l:  # the margin max c_k + max c_l − max(c_k + c_l): positive iff the faces are disjoint (any translation)
                    margin = max(values[k].values()) + max(values[l].values()) - max(x + values[l][e] for e, x in values[k].items())
                    require(margin > 0 and margin.denominator == 1, f"faces {k} and {l} intersect")
                    pairs.append([k, l, int(margin)])
    return {"faces": faces, "pairs": pairs}


def check_theorem_k(model: Model, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Theorem K: F is a K_4 tournament function (from the model), its eight faces as the proof names them; m*(F) ≥ 32."""
    found = instance(model, facts["exp-form"], facts["coprime"]["factors"][facts["exp-form"]["blocks"][0]])
    require(ev == found, "the faces or pair maxima of lower:theorem-k differ from those recomputed from the model")
    return {"bound": BOUND}, ["coprime", "exp-form", "lemma:K"], say.theorem_k(BOUND, "_table" in facts)
