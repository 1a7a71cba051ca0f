"""Coq proofs of residue classes (LK), class Descartes (CD), one line with biases (Pβ, P4) and unit roots (LU): HFLine.v.

LK and CD are bounds on 𝒯(Q′_B), written as entries of `multiples.Entries` (LineEntries adds them): Coq recomputes
the class sums of Q′_B(ρ⊙x) over every representative of Λ/M, the odd parts, valuations and the pairwise root test,
and multiplies every quotient back.  Pβ and P4 bound m*(F) from F's one-line form c0 + Σ ε_i·σ(a_i·y + log w_i), which
Coq proves from the exponential form (HFLine.line_sound: one polynomial identity).  LU bounds m*(F) from Q′ = u·Π Φ_d,
each Φ_d computed by Coq.  The exporter only finds data (quotients, c0, LU's unit u and G); an instance it cannot
write (a power of t, a failing division) is left out with the reason.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm
from typing import Any

from headfusion.export import coqdata as g
from headfusion.export.multiples import Entries, Unsupported, multiples_proof, theorem_name
from headfusion.kernel.base import MAX_POINTS, CheckFailed, integer, rational, within
from headfusion.kernel.cyclotomic import MAX_ORDER, cyclotomic
from headfusion.kernel.poly import Poly, add, divide, mul, product

LINE_CLAIMS = {"lower:classes": "LK", "lower:pair-biased": "PB", "lower:two-scales": "P4",
               "lower:unit-roots": "LU"}  # claims this module exports
CHECK = "ltac:(vm_compute; reflexivity)"


def _val2(a: int) -> int:
    return (a & -a).bit_length() - 1


def _rational_weight(entry: object, what: str) -> tuple[int, Fraction]:
    """(a, w) of a binomial 1 + w·x^a given as [a, w, power of t]; a power of t (a weight e^b) is not exported."""
    if not isinstance(entry, list) or len(entry) != 3:
        raise Unsupported(f"a malformed {what}")
    if integer(entry[2]):
        raise Unsupported(f"a {what} with a power of t (weights e^b)")
    return integer(entry[0]), rational(entry[1])


def _divisions(R: Poly, binomials: list[tuple[int, Fraction]]) -> str:
    """Coq steps proving Forall (1 + w·x^a divides R) over the binomials, each quotient found here and multiplied back by Coq."""
    steps = []
    for a, w in binomials:
        h = divide(R, {(0, 0): Fraction(1), (a, 0): w})
        if h is None:
            raise Unsupported(f"1 + {w}·x^{a} does not divide")
        steps.append(f"  apply Forall_cons; [apply (divides_by_ok 1 _ _ {g.poly(g.strip_t(h))}); vm_compute; reflexivity|].\n")
    return "".join(steps) + "  apply Forall_nil."


class LineEntries(Entries):
    """multiples.Entries with Lemma LK (`classes` entries) and Lemma CD (`two-adic` entries with a class)."""

    def entry(self, term: str, R: Poly, rank: int, item: object) -> tuple[str, int]:
        """As Entries.entry, with the two lemmas of HFLine.v."""
        method = item.get("method") if isinstance(item, dict) else None
        if method == "classes" or (method == "two-adic" and item.get("class")):  # type: ignore[union-attr]
            if any(e[-1] for e in R):
                raise Unsupported("a polynomial with powers of t")
            return self._classes(term, R, rank, item) if method == "classes" else self._class_descartes(term, R, rank, item)  # type: ignore[arg-type]
        return super().entry(term, R, rank, item)

    def _classes(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        basis = [[integer(v) for v in row] for row in item["lattice"]]
        tilt = [_rational_weight([0, r, s], "tilt") for r, s in item["tilt"]]
        if len(basis) != rank or any(len(row) != rank or row[k] < 1 for k, row in enumerate(basis)):
            raise Unsupported("a malformed residue-class lattice")
        index = 1
        for k, row in enumerate(basis):
            index *= row[k]
        self.axioms.add("LK_classes")
        return self._emit(self._name(), rank, term, index,
                          f"apply (LK_classes {rank} {term} [{'; '.join(g.zlist(row) for row in basis)}] {g.qlist(w for _, w in tilt)}); "
                          "vm_compute; reflexivity.")

    def _class_descartes(self, term: str, R: Poly, rank: int, item: dict) -> tuple[str, int]:
        if rank != 1:
            raise Unsupported("Lemma CD needs a lattice of rank 1")
        levels = [_rational_weight(e, "2-adic level") for e in item["levels"]]
        cls = [_rational_weight(e, "class binomial") for e in item["class"]]
        A = integer(item["modulus"])
        if A < 1 or any(a < 1 for a, _ in levels) or any(_val2(a) >= _val2(A) for a, _ in levels):
            raise Unsupported(f"Lemma CD: every level must lie below v₂({A})")
        listed = lambda bs: "[" + "; ".join(f"({a}, {g.q(w)})" for a, w in bs) + "]"  # noqa: E731
        steps = _divisions(R, levels + cls)
        self.axioms.add("CD_classes")
        return self._emit(self._name(), rank, term, (len(cls) + 1) * 2 ** len(levels),
                          f"refine (CD_classes {term} {A} {listed(levels)} {listed(cls)} _ _ _); [vm_compute; reflexivity | vm_compute; reflexivity |].\n"
                          f"  cbn [app].\n{steps}")


def classes_proof(ev: dict, shapes: list, newton_V: dict[int, int] | None, block_shapes: list[int],
                  newton_cited: set[str]) -> tuple[str | None, int, str, set[str]]:
    """Claim lower:classes (Lemma LK per shape, L5 on the others, LM over the blocks): Coq text, bound, reason, axioms."""
    items = ev.get("shapes")
    if not isinstance(items, list):
        return None, 0, "one residue-class entry per shape expected", set()
    entries = {"shapes": [None if item is None else {"method": "classes", **item} for item in items]}
    return multiples_proof("lower:classes", entries, shapes, newton_V, block_shapes, newton_cited, LineEntries)


def _one_line(ev: dict, constant: Fraction, P: Poly, Q: Poly) -> tuple[list[tuple[int, Fraction, Fraction]], Fraction]:
    """The terms (a, w, ε) and the constant c0 with c + P′/Q′ = c0 + Σ ε·w·x^a/(1 + w·x^a), the identity checked here too."""
    terms = []
    for term in ev["terms"]:
        a, w = _rational_weight(term[:3], "term")
        terms.append((a, w, rational(term[3])))
    if not terms or not Q:
        raise Unsupported("no terms")
    low = min(Q)
    if any(e < low for e in P):
        raise Unsupported("P′/Q′ is unbounded at x → 0")
    c0 = constant + P.get(low, Fraction(0)) / Q[low]  # every σ(a·y + log w) with a >= 1 vanishes as y → −∞
    num: Poly = {}
    den: Poly = {(0,): Fraction(1)}
    for a, w, eps in reversed(terms):  # HFLine.line_num and line_den, built the same way
        binomial = {(0,): Fraction(1), (a,): w}
        num = add(mul({(a,): eps * w}, den), mul(binomial, num))
        den = mul(binomial, den)
    if add(mul(Q, num), mul(add(P, Q, constant - c0), den), Fraction(-1)) != {} or any(w <= 0 for _, w, _ in terms):
        raise Unsupported("the one-line form is not the function's")
    return terms, c0


def _one_block(tag: str, b: Any) -> str:
    """Coq lemmas: the exp-form's one block of rank 1 is LBlk [g] P′ Q′ (g the generator), and F's expform over it."""
    return (f"Definition {tag}_g : list Q := {g.qlist(b.gens[0])}.\n"
            f"Lemma {tag}_blocks : lblocks = [LBlk [{tag}_g] shape{b.shape}_P shape{b.shape}_Q].\nProof. vm_compute. reflexivity. Qed.\n"
            f"Lemma {tag}_expform : expform n F c [LBlk [{tag}_g] shape{b.shape}_P shape{b.shape}_Q].\n"
            f"Proof. rewrite <- {tag}_blocks. exact F_expform. Qed.\n")


def _block_coprime(tag: str, b: Any) -> str:
    """Coq lemma: P′ and Q′ of the one block are coprime (from the claim coprime's blocks_coprime)."""
    return (f"Lemma {tag}_coprime : coprime 1 shape{b.shape}_P shape{b.shape}_Q.\n"
            f"Proof. pose proof blocks_coprime as H. rewrite {tag}_blocks in H. exact (Forall_inv H). Qed.\n")


def line_proof(cid: str, ev: dict, constant: Fraction, blocks: list, shapes: list, coprime_ok: bool) -> tuple[str | None, int, str, set[str]]:
    """Claim lower:pair-biased (Theorem Pβ) or lower:two-scales (Lemma P4): Coq text, bound, reason, the axioms cited."""
    if len(blocks) != 1 or blocks[0].rank != 1 or len(blocks[0].gens) != 1:
        return None, 0, "the one-line form needs one block of rank 1", set()
    b = blocks[0]
    shape = shapes[b.shape]
    tag = theorem_name(cid)
    try:
        P, Q = ({(e[0],): c for e, c in p.items() if c} for p in (shape.P, shape.Q))
        terms, c0 = _one_line(ev, constant, P, Q)
        if cid == "lower:two-scales":
            if not coprime_ok:
                raise Unsupported("lowest terms not exported")
            steps = _divisions({(e[0], 0): c for e, c in Q.items()}, [(a, w) for a, w, _ in terms])
    except (Unsupported, CheckFailed, KeyError, TypeError, ValueError, IndexError) as exc:
        return None, 0, str(exc), set()
    items = "; ".join(f"LTm {a} {g.q(w)} {g.q(eps)}" for a, w, eps in terms)
    text = (f"(* Claim {cid}: F(q) = c0 + Σ ε_i·σ(a_i·<g, q> + log w_i), a theorem (HFLine.line_sound). *)\n"
            f"Definition {tag}_terms : list lterm := [{items}].\n"
            f"Definition {tag}_c0 : Q := {g.q(c0)}.\n" + _one_block(tag, b) +
            f"Lemma {tag}_line : line_form n F {tag}_g {tag}_c0 {tag}_terms.\n"
            f"Proof. exact (line_sound n F c {tag}_g shape{b.shape}_P shape{b.shape}_Q {tag}_c0 {tag}_terms {tag}_expform {CHECK}). Qed.\n")
    if cid == "lower:pair-biased":
        if len(terms) != 2:
            return None, 0, f"Theorem Pβ needs two terms, not {len(terms)}", set()
        bound = 3 if terms[0][0] == terms[1][0] else 4
        return (text + f"(* Theorem Pβ: m*(F) >= {bound}. *)\nTheorem {tag} : mstar_ge n F {bound}.\n"
                f"Proof. exact (P_beta n F {tag}_g {tag}_c0 {tag}_terms {CHECK} {tag}_line). Qed."), bound, "", {"P_beta"}
    return (text + f"(* Lemma P4: F in lowest terms (claim coprime), every 1 + w_i·x^a_i divides Q′: m*(F) >= 4. *)\n"
            f"Lemma {tag}_poles : Forall (fun t => pdivides 1 (lbin t) shape{b.shape}_Q) {tag}_terms.\n"
            f"Proof.\n  unfold {tag}_terms.\n{steps}\nQed.\n"
            + _block_coprime(tag, b) + f"Theorem {tag} : mstar_ge n F 4.\n"
            f"Proof. exact (P4_two_scales n F c {tag}_g shape{b.shape}_P shape{b.shape}_Q {tag}_c0 {tag}_terms {CHECK} {tag}_expform\n"
            f"  {tag}_coprime {CHECK} {tag}_poles {tag}_line). Qed."), 4, "", {"P4_two_scales"}


def unit_roots_proof(ev: dict, blocks: list, shapes: list, coprime_ok: bool) -> tuple[str | None, int, str, set[str]]:
    """Claim lower:unit-roots (Lemma LU): Coq text, bound 4, reason, the axioms cited.

    Coq recomputes every Φ_d (HFLine.cyclo, checked by multiplying back), Q′ = u·Π Φ_d and the collapses 𝒟/g for
    g = 1..L; the exporter only finds the unit u and, when 𝒟/g = {2} for some g, G = (1 + x^(L/2))·P′/Q′."""
    if len(blocks) != 1 or blocks[0].rank != 1 or len(blocks[0].gens) != 1:
        return None, 0, "Lemma LU needs one block of rank 1", set()
    if not coprime_ok:
        return None, 0, "lowest terms not exported", set()
    b = blocks[0]
    tag = theorem_name("lower:unit-roots")
    try:
        orders = [integer(d) for d in ev["orders"]]
        if not orders or orders != sorted(set(orders)) or orders[0] < 1:
            raise Unsupported("the orders d must be distinct positive integers, increasing")
        within(orders[-1], MAX_ORDER, "order of a cyclotomic factor")  # as the kernel: Coq recomputes each Φ_d
        L = lcm(*orders)
        within(L * len(orders), MAX_POINTS, "residues g times orders of the unit-root check")
        P, Q = ({(e[0], 0): c for e, c in p.items() if c} for p in (shapes[b.shape].P, shapes[b.shape].Q))
        u = divide(Q, product([cyclotomic(d) for d in orders], 2))
        if u is None or len(u) != 1:
            raise Unsupported("Q′ is not a unit times the product of the listed cyclotomic polynomials")
        G: Poly = {}
        if any({d // gcd(d, k) for d in orders} == {2} for k in range(1, L + 1)):
            G = divide(mul({(0, 0): Fraction(1), (L // 2, 0): Fraction(1)}, P), Q) or {}
    except (Unsupported, CheckFailed, KeyError, TypeError, ValueError) as exc:
        return None, 0, str(exc), set()
    return (f"(* Claim lower:unit-roots (Lemma LU): Q′ = u·Π_(d∈𝒟) Φ_d, each Φ_d recomputed by Coq (HFLine.cyclo); m*(F) >= 4. *)\n"
            + _one_block(tag, b) + _block_coprime(tag, b)
            + f"Definition {tag}_orders : list Z := {g.zlist(orders)}.\n"
            f"Definition {tag}_u : poly := {g.poly(g.strip_t(u))}.\n"
            f"Definition {tag}_G : poly := {g.poly(g.strip_t(G))}.\n"
            f"Theorem {tag} : mstar_ge n F 4.\n"
            f"Proof. exact (LU_unit_roots n F c {tag}_g shape{b.shape}_P shape{b.shape}_Q {tag}_u {tag}_G {tag}_orders {CHECK}\n"
            f"  {tag}_expform {tag}_coprime {CHECK}). Qed."), 4, "", {"LU_unit_roots"}
