"""Coq proofs of the per-shape claims: lowest terms (Lemmas LC, LB) and Newton vertices (L5 witnesses, LZ).

Each proof applies one lemma axiom of HFAxioms.v to data that Coq checks by computation (vm_compute):
the factorisation Q'_B = u·Π f^ν, binomial remainders, Bézout identities, witnesses, independence.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from headfusion.export import coqdata as g
from headfusion.kernel.base import integer
from headfusion.kernel.poly import divide, poly_from_json

Poly = dict[tuple[int, ...], Fraction]
CHECK = "ltac:(vm_compute; reflexivity)"


@dataclass
class Shape:
    """A block shape: its rank and P'_B, Q'_B in lattice coordinates (no power of t)."""

    rank: int
    P: Poly
    Q: Poly


def _factors(shape: Shape, entry: dict) -> tuple[list[tuple[Poly, int, dict]], Poly] | None:
    """The stated factors (poly, multiplicity, evidence) and the unit u = Q'_B / Π f^ν (None: u is not a monomial)."""
    factors, rest = [], dict(shape.Q)
    for item in entry["factors"]:
        f = g.strip_t(poly_from_json(item["poly"], shape.rank + 1))
        e = integer(item["multiplicity"])
        if len(f) < 2 or e < 1:  # as the kernel: a factor involves x and has positive multiplicity (a unit's power never fails to divide)
            return None
        for _ in range(e):
            rest = divide(rest, f)  # type: ignore[assignment]
            if rest is None:
                return None
        factors.append((f, e, item))
    return (factors, rest) if len(rest) == 1 else None


def _eta(delta: list[int]) -> list[int] | None:
    """An integer η with <η, δ> = 1 (None when δ is not primitive)."""
    g_, coeffs = 0, [0] * len(delta)
    for j, d in enumerate(delta):
        a, b = g_, d
        x0, y0, x1, y1 = 1, 0, 0, 1  # extended Euclid on (a, b)
        while b:
            k = a // b
            a, b, x0, x1, y0, y1 = b, a - k * b, x1, x0 - k * x1, y1, y0 - k * y1
        coeffs = [c * x0 for c in coeffs]
        coeffs[j] = y0
        g_ = a
    if g_ == -1:
        return [-c for c in coeffs]
    return coeffs if g_ == 1 else None


def _binomial_eta(f: Poly) -> list[int] | None:
    u, w = sorted(f)
    return _eta([b - a for a, b in zip(u, w)])


def sampled_vertices(Q: Poly, rank: int, patience: int = 400, work: int = 20_000_000) -> list[tuple[tuple[int, ...], list[int]]] | None:
    """Vertices of Newt(Q) with integer witnesses, found by directions from a fixed-seed generator (deterministic);
    stops when `patience` directions in a row find nothing new.  Only *finds*: Coq checks every witness."""
    import random

    support = sorted(Q)
    if len(support) * patience * max(rank, 1) > work:
        return None
    rng, found, idle = random.Random(0), {}, 0
    while idle < patience and len(found) < len(support):
        c = [rng.randint(-997, 997) for _ in range(rank)]
        levels = [sum(a * b for a, b in zip(c, e)) for e in support]
        top = max(levels)
        winners = [e for e, v in zip(support, levels) if v == top]
        if len(winners) == 1 and winners[0] not in found:
            found[winners[0]], idle = c, 0
        else:
            idle += 1
    return sorted(found.items())


def coprime_proof(shapes: list[Shape], ev: dict) -> tuple[str | None, str, set[str]]:
    """Coq lemmas shape{s}_coprime for every shape, or (None, reason)."""
    parts, cited = [], {"LC_product"}
    if len(ev["shapes"]) != len(shapes):
        return None, "one coprimality entry per shape expected", set()
    for s, (shape, entry) in enumerate(zip(shapes, ev["shapes"])):
        found = _factors(shape, entry)
        if found is None:
            return None, f"shape {s}: Q'_B is not a monomial times the stated factors", set()
        factors, unit = found
        r = shape.rank
        lines = [f"Definition shape{s}_u : poly := {g.poly(unit)}."]
        lines += [f"Definition shape{s}_f{i} : poly := {g.poly(f)}." for i, (f, _, _) in enumerate(factors)]
        fs = "[" + "; ".join(f"(shape{s}_f{i}, {e}%nat)" for i, (_, e, _) in enumerate(factors)) + "]"
        steps = []
        for i, (f, _, item) in enumerate(factors):
            if item["reason"] == "binomial":
                eta = _binomial_eta(f) if len(f) == 2 else None
                if eta is None:
                    return None, f"shape {s}: a binomial factor without a primitive exponent difference", set()
                steps.append(f"LC_binomial {r} shape{s}_P shape{s}_f{i} {g.zlist(eta)} {CHECK} {CHECK} {CHECK}")
                cited.add("LC_binomial")
            elif item["reason"] == "bezout":
                A = g.strip_t(poly_from_json(item["A"], 2))
                B = g.strip_t(poly_from_json(item["B"], 2))
                a = [integer(x) for x in item["substitution"]]
                steps.append(f"LB_bezout {r} shape{s}_P shape{s}_f{i} {g.zlist(a)} {g.poly(A)} {g.poly(B)} {CHECK} {CHECK} {CHECK}")
                cited.add("LB_bezout")
            else:
                return None, f"shape {s}: unknown coprimality reason", set()
        proof = "".join(f"  apply Forall_cons; [exact ({step})|].\n" for step in steps)
        lines.append(f"Lemma shape{s}_coprime : coprime {r} shape{s}_P shape{s}_Q.\nProof.\n"
                     f"  apply (LC_product {r} shape{s}_P shape{s}_Q shape{s}_u {fs}); [vm_compute; reflexivity.. |].\n"
                     f"{proof}  apply Forall_nil.\nQed.")
        parts.append("\n".join(lines))
    return ("(* Lowest terms (claim coprime, Lemmas LC and LB): per shape, Q'_B = u·Π f^ν and each factor coprime to P'_B. *)\n"
            + "\n".join(parts)), "", cited


def newton_proof(shapes: list[Shape], ev: dict, coprime_ev: dict | None) -> tuple[str | None, list[int], str, set[str]]:
    """Coq lemmas shape{s}_newton : newton_ge Q'_B V_B, or (None, reason)."""
    parts, counts, cited = [], [], set()
    for s, (shape, item) in enumerate(zip(shapes, ev["shapes"])):
        method = item.get("method")
        if method == "vertices":
            pairs = [(tuple(integer(x) for x in v), [integer(x) for x in w]) for v, w in item["vertices"]]
            listed = "[" + "; ".join(f"({g.zlist(v)}, {g.zlist(w)})" for v, w in pairs) + "]"
            counts.append(len(pairs))
            parts.append(f"Definition shape{s}_V : nat := {len(pairs)}.\n"
                         f"Lemma shape{s}_newton : newton_ge shape{s}_Q shape{s}_V.\n"
                         f"Proof. exists {listed}. split; [reflexivity | vm_compute; reflexivity]. Qed.")
        elif method == "graph":  # Lemma LG counts the vertices; Coq gets witnessed vertices instead (L5 alone)
            pairs = sampled_vertices(shape.Q, shape.rank)
            if pairs is None:
                return None, [], f"shape {s}: too large to find witnessed vertices for Lemma LG's count", set()
            listed = "[" + "; ".join(f"({g.zlist(v)}, {g.zlist(w)})" for v, w in pairs) + "]"
            counts.append(len(pairs))
            parts.append(f"(* Lemma LG counts Newt(Q'_{s})'s vertices; here {len(pairs)} of them with integer witnesses (L5). *)\n"
                         f"Definition shape{s}_V : nat := {len(pairs)}.\n"
                         f"Lemma shape{s}_newton : newton_ge shape{s}_Q shape{s}_V.\n"
                         f"Proof. exists {listed}. split; [reflexivity | vm_compute; reflexivity]. Qed.")
        elif method == "parallelepiped" and coprime_ev is not None:
            found = _factors(shape, coprime_ev["shapes"][s])
            if found is None:
                return None, [], f"shape {s}: no factorisation for Lemma LZ", set()
            factors, _ = found
            fs = "[" + "; ".join(f"(shape{s}_f{i}, {e}%nat)" for i, (_, e, _) in enumerate(factors)) + "]"
            counts.append(2 ** len(factors))
            parts.append(f"Definition shape{s}_V : nat := {2 ** len(factors)}.\n"
                         f"Lemma shape{s}_newton : newton_ge shape{s}_Q shape{s}_V.\n"
                         f"Proof. exact (LZ {shape.rank} shape{s}_Q shape{s}_u {fs} {CHECK} {CHECK}). Qed.")
            cited.add("LZ")
        else:
            return None, [], f"shape {s}: Newton method {method!r} is not exported yet", set()
    return ("(* Newton vertices (claim lower:newton): integer witnesses (L5) or a parallelepiped (Lemma LZ). *)\n"
            + "\n".join(parts)), counts, "", cited


def edges_proof(shapes: list[Shape], newton_ev: dict, edges_ev: dict, block_shapes: list[int]) -> tuple[str | None, int, str]:
    """Coq theorem lower_edges (Lemma LE): per shape the listed vertices and a spanning tree of rigid edges."""
    if len(edges_ev["shapes"]) != len(shapes) or any(item.get("method") != "vertices" for item in newton_ev["shapes"]):
        return None, 0, "rigid edges need the vertices listed by lower:newton"
    parts, counts = [], []
    for s, (item, edges) in enumerate(zip(newton_ev["shapes"], edges_ev["shapes"])):
        pairs = [(tuple(integer(x) for x in v), [integer(x) for x in w]) for v, w in item["vertices"]]
        counts.append(len(pairs))
        listed = "[" + "; ".join(f"({g.zlist(v)}, {g.zlist(w)})" for v, w in pairs) + "]"
        es = "[" + "; ".join(f"({g.zlist(u)}, {g.zlist(w)}, {g.zlist(c)})" for u, w, c in edges["edges"]) + "]"
        parts.append(f"Definition shape{s}_rigid : list (expo * expo) * list (expo * expo * expo) := ({listed}, {es}).")
    bound = 1
    for b in block_shapes:
        bound *= counts[b]
    data = "[" + "; ".join(f"shape{b}_rigid" for b in block_shapes) + "]"
    steps = "  apply Forall2_cons; [split; vm_compute; reflexivity|].\n" * len(block_shapes)
    return ("(* Claim lower:edges (Lemma LE): per shape, the witnessed vertices of Newt(Q'_B) and a spanning tree of rigid edges. *)\n"
            + "\n".join(parts) + "\n"
            f"Lemma edges_check : Forall2 (fun B d => witnesses_ok (lQ B) (fst d) = true /\\ rigid_ok (lP B) (lQ B) (map fst (fst d)) (snd d) = true)\n"
            f"  lblocks {data}.\nProof.\n  unfold lblocks, blocks; simpl.\n{steps}  apply Forall2_nil.\nQed.\n"
            f"Theorem lower_edges : mstar_ge n F {bound + 1}.\n"
            f"Proof.\n  exact (LE_LP n F c lblocks {data} lattice_check F_expform blocks_coprime edges_check\n"
            "    ltac:(apply Nat.ltb_lt; vm_compute; reflexivity)).\nQed."), bound + 1, ""
