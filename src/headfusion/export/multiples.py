"""Coq proofs of the numerator-free bounds on 𝒯(Q′_B): hexagon (LH), slices (LS), three slices (V3), 2-adic levels (V2),
over blocks (LM).

Each entry of a claim lower:hexagon, lower:slices, lower:three-slices or lower:two-adic becomes one Coq lemma `terms_ge r R k`
that applies its lemma axiom (HFAxioms.v) to data Coq checks by computation: the factorisation R = u·A·B (or
u·A·f_1·f_2) term by term, the level of A, orientations, ε's gcd, Γε = 0, Γ_*A recomputed by Coq, the divisions
(each with its quotient, which Coq multiplies back), the point and the roots of the slice polynomial.  The quotients
are found here with the kernel's exact division; Coq only checks them.  Entries of other kinds (Lemma CD's classes,
grids) and instances that fail are not exported: the claim is then left out with the reason, never assumed.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from headfusion.export import coqdata as g
from headfusion.kernel.base import CheckFailed, integer, rational
from headfusion.kernel.poly import Poly, divide, mul, poly_from_json
from headfusion.kernel.threeslices import oriented, projected

CLAIMS = {"lower:hexagon": "LH", "lower:slices": "LS", "lower:three-slices": "V3", "lower:two-adic": "V2"}
AXIOM_OF_METHOD = {"vertices": "L5_terms", "hexagon": "LH_hexagon", "slices": "LS_slices", "three-slices": "V3_three_slices",
                   "two-adic": "V2_two_adic"}
EXTRA_METHODS: dict = {}  # entry methods written elsewhere: export/graphs.py adds "grid" (W14, K4GRID, K35)


class Unsupported(Exception):
    """An entry this exporter does not write (the claim is left out, with the reason)."""


def _with_t(p: Poly) -> Poly:
    return {e + (0,): c for e, c in p.items()}


def _quotient(a: Poly, f: Poly, what: str) -> Poly:
    h = divide(a, f)
    if h is None:
        raise Unsupported(f"{what} does not divide")
    return h


def _unit(R: Poly, S: Poly) -> Poly:
    u = _quotient(R, S, "the stated factors")
    if len(u) != 1:
        raise Unsupported("the polynomial is not a unit times its stated factors")
    return u


class Entries:
    """Writes one Coq lemma per 𝒯 entry (recursively), collecting the axioms they cite."""

    def __init__(self, prefix: str) -> None:
        self.prefix, self.count, self.parts, self.axioms = prefix, 0, [], set()

    def _name(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"

    def entry(self, term: str, R: Poly, rank: int, item: object) -> tuple[str, int]:
        """The lemma `name : terms_ge rank term k` for R (with its t column, t-free) from `item`; returns (name, k)."""
        if isinstance(item, dict) and item.get("method") in EXTRA_METHODS and not any(e[-1] for e in R):
            return EXTRA_METHODS[item["method"]](self, term, R, rank, item)
        if not isinstance(item, dict) or item.get("method") not in AXIOM_OF_METHOD:
            raise Unsupported(f"a {item.get('method') if isinstance(item, dict) else 'malformed'} entry is not exported yet")
        if any(e[-1] for e in R):
            raise Unsupported("a polynomial with powers of t")
        self.axioms.add(AXIOM_OF_METHOD[item["method"]])
        return getattr(self, "_" + item["method"].replace("-", "_"))(term, R, rank, item)

    def _emit(self, name: str, rank: int, term: str, k: int, proof: str, defs: str = "") -> tuple[str, int]:
        self.parts.append(f"{defs}Lemma {name} : terms_ge {rank} {term} {k}.\nProof. {proof} Qed.")
        return name, k

    def _vertices(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        pairs = [(tuple(integer(x) for x in v), [integer(x) for x in w]) for v, w in item["vertices"]]
        listed = "[" + "; ".join(f"({g.zlist(v)}, {g.zlist(w)})" for v, w in pairs) + "]"
        return self._emit(self._name(), rank, term, len(pairs),
                          f"apply (L5_terms {rank} _ {len(pairs)}); [vm_compute; reflexivity|]. exists {listed}. split; [reflexivity | vm_compute; reflexivity].")

    def _hexagon(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        fs = [poly_from_json(f, rank + 1) for f in item["factors"]]
        if len(fs) != 3:
            raise Unsupported("a hexagon needs three binomials")
        h = _quotient(R, mul(mul(fs[0], fs[1]), fs[2]), "the hexagon's product")
        lits = [g.poly(g.strip_t(f)) for f in fs]
        return self._emit(self._name(), rank, term, 7,
                          f"refine (LH_hexagon {rank} {term} {lits[0]} {lits[1]} {lits[2]} _ _\n"
                          f"  (divides_by_ok {rank} _ {term} {g.poly(g.strip_t(h))} _)); vm_compute; reflexivity.")

    def _slices(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        A, B = poly_from_json(item["A"], rank + 1), poly_from_json(item["B"], rank + 1)
        u = _unit(R, mul(A, B))
        omega = [integer(w) for w in item["omega"]]
        point = [rational(x) for x in item["point"]]
        roots = [(rational(rho), integer(k)) for rho, k in item["roots"]]
        if len(point) != rank or any(x <= 0 for x in point) or any(k < 0 for _, k in roots):
            raise Unsupported("a malformed slice entry")
        at: Poly = {}  # B(x′ ⊙ s^ω), as Coq's at_point computes it
        for e, c in B.items():
            k = (sum(w * x for w, x in zip(omega, e[:-1])), 0)
            at[k] = at.get(k, 0) + c * prod((p**x for p, x in zip(point, e[:-1])), start=Fraction(1))
        at = {k: c for k, c in at.items() if c}
        if at and sum(k for _, k in roots) > max(at)[0] - min(at)[0]:  # more roots than its degree (and no huge product built)
            raise Unsupported("the roots' product does not divide B(x′ ⊙ s^ω)")
        divisor: Poly = {(0, 0): Fraction(1)}
        for rho, k in roots:
            for _ in range(k):
                divisor = mul(divisor, {(1, 0): Fraction(1), (0, 0): rho})
        quotient = _quotient(at, divisor, "the roots' product")
        name = self._name()
        self.parts.append(f"Definition {name}_A : poly := {g.poly(g.strip_t(A))}.")  # the nested entry refers to it
        inner, kA = self.entry(f"{name}_A", A, rank, item["mu"])
        roots_text = "[" + "; ".join(f"({g.q(rho)}, {k}%nat)" for rho, k in roots) + "]"
        total = (sum(k for _, k in roots) + 1) * kA
        return self._emit(name, rank, term, total,
                          f"refine (LS_slices {rank} {term} {name}_A {name}_B {g.poly(g.strip_t(u))} {g.zlist(omega)} {g.qlist(point)} {roots_text} {kA}\n"
                          f"  _ _ (divides_by_ok 1 _ _ {g.poly(g.strip_t(quotient))} _) {inner}); vm_compute; reflexivity.",
                          f"Definition {name}_B : poly := {g.poly(g.strip_t(B))}.\n")

    def _two_adic(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        if item.get("class") or rank != 1:
            raise Unsupported("Lemma CD (a 2-adic entry with a class) is not exported yet")
        levels = [(integer(a), rational(c), integer(s)) for a, c, s in item["levels"]]
        if any(s for _, _, s in levels):
            raise Unsupported("a 2-adic level with a power of t")
        valuations = [(a & -a).bit_length() for a, _, _ in levels]
        if any(a < 1 or c <= 0 for a, c, _ in levels) or len(set(valuations)) != len(valuations):  # as Coq's twoadic_ok
            raise Unsupported("2-adic levels need a ≥ 1, w > 0 and pairwise distinct valuations (Lemma V2)")  # (a repeated level wrote 2^j)
        steps = []
        for a, c, _ in levels:
            h = _quotient(R, {(0, 0): Fraction(1), (a, 0): c}, f"1 + {c}·x^{a}")
            steps.append(f"  apply Forall_cons; [apply (divides_by_ok 1 _ _ {g.poly(g.strip_t(h))}); vm_compute; reflexivity|].\n")
        listed = "[" + "; ".join(f"({a}, {g.q(c)})" for a, c, _ in levels) + "]"
        return self._emit(self._name(), rank, term, 2 ** len(levels),
                          f"refine (V2_two_adic {term} {listed} _ _ _); [vm_compute; reflexivity | vm_compute; reflexivity |].\n"
                          f"{''.join(steps)}  apply Forall_nil.")

    def _three_slices(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        A = poly_from_json(item["A"], rank + 1)
        f1, f2 = (poly_from_json(f, rank + 1) for f in item["f"])
        u = _unit(R, mul(A, mul(f1, f2)))
        omega = tuple(integer(w) for w in item["omega"])
        G = [tuple(integer(v) for v in row) for row in item["projection"]]
        (d1, r1, s1), (d2, r2, _) = oriented(f1, omega), oriented(f2, omega)
        eps = tuple(a - b for a, b in zip(d1, d2))
        edge = {(0,) * (rank + 1): Fraction(1), eps + (0,): r1 / r2}
        name = self._name()
        # the defining lines first: nested entries refer to A by name
        self.parts.append(f"Definition {name}_A : poly := {g.poly(g.strip_t(A))}.\n"
                          f"Definition {name}_G : list expo := [{'; '.join(g.zlist(row) for row in G)}].")
        inner, kA = self.entry(f"{name}_A", A, rank, item["mu"])
        lines, kL = self.entry(f"(project {name}_G {name}_A)", projected(A, G), len(G), item["lines"])
        h = divide(A, edge)
        theta = 3 if h is None else 4
        theta_proof = "(theta3_ok _ _ _ _ _)" if h is None else f"(theta4_ok _ _ _ _ _ {g.poly(g.strip_t(h))} _)"
        k = min(4 * kA, 3 * kA + kL, 2 * kA + max(kA, theta * kL))
        return self._emit(name, rank, term, k,
                          f"refine (V3_three_slices {rank} {term} {name}_A {g.poly(g.strip_t(f1))} {g.poly(g.strip_t(f2))} {g.poly(g.strip_t(u))}\n"
                          f"  {g.zlist(omega)} {name}_G {kA} {kL} {theta} _ _ {inner} {lines} {theta_proof}); vm_compute; reflexivity.")


def theorem_name(claim_id: str) -> str:
    """The Coq name of a claim's theorem (lower:three-slices ↦ lower_three_slices)."""
    return claim_id.replace(":", "_").replace("-", "_")


def multiples_proof(claim_id: str, ev: dict, shapes: list, newton_V: dict[int, int] | None, block_shapes: list[int],
                    newton_cited: set[str], entries_type: type[Entries] = Entries) -> tuple[str | None, int, str, set[str]]:
    """Coq text proving `lower_<claim>` : mstar_ge n F (Π_B k_B) by LM_terms, or (None, 0, reason, ∅)."""
    tag = theorem_name(claim_id)
    entries = entries_type(f"{tag}_e")  # export.oneline.LineEntries adds Lemmas LK and CD
    ks: dict[int, tuple[str, int]] = {}
    items = ev.get("shapes")
    if not isinstance(items, list) or len(items) != len(shapes):
        return None, 0, "one entry per shape expected", set()
    try:
        for s, (shape, item) in enumerate(zip(shapes, items)):
            if item is not None:
                ks[s] = entries.entry(f"shape{s}_Q", _with_t(shape.Q), shape.rank, item)
    except (Unsupported, CheckFailed) as exc:  # an instance that fails (a root factor off ω's ±1, …): left out, never assumed
        return None, 0, str(exc), set()
    cited = set(entries.axioms) | {"LM_terms"}
    steps, bound_ks = [], []
    for s in block_shapes:
        V = newton_V.get(s) if newton_V else None
        if s in ks and (V is None or ks[s][1] >= V):
            steps.append(f"  apply Forall2_cons; [exact {ks[s][0]}|].\n")
            bound_ks.append(ks[s][1])
        elif V is not None:  # L5 on this block (LM mixes it with the others)
            steps.append(f"  apply Forall2_cons; [exact (L5_terms {shapes[s].rank} shape{s}_Q _ ltac:(vm_compute; reflexivity) shape{s}_newton)|].\n")
            bound_ks.append(V)
            cited |= {"L5_terms"} | newton_cited
        else:
            return None, 0, f"shape {s}: no entry and no exported Newton bound", set()
    bound = prod(bound_ks)
    text = "\n".join(entries.parts)
    text += (f"\nLemma {tag}_blocks : Forall2 (fun B k => terms_ge (length (lgens B)) (lQ B) k) lblocks {g.nlist(bound_ks)}.\n"
             f"Proof.\n  unfold lblocks, blocks; simpl.\n{''.join(steps)}  apply Forall2_nil.\nQed.\n"
             f"(* Lemma LM with L1, L2, L4 (claim {claim_id}): m*(F) >= Π_B 𝒯_B = {bound}. *)\n"
             f"Theorem {tag} : mstar_ge n F {bound}.\n"
             f"Proof. exact (LM_terms n F c lblocks _ lattice_check F_expform blocks_coprime {tag}_blocks). Qed.")
    return f"(* Claim {claim_id}: bounds on the terms of nonnegative multiples of Q'_B (HFAxioms, HFLine: LM, LH, LS, V3, V2, LK, CD). *)\n" + text, bound, "", cited

