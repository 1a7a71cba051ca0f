"""SMT-LIB 2 text of the question "is m*(F) ≤ m?" (DESIGN §4), built from exact data.

Pure: no solver is imported here.  The query text is the single source of truth for
a search: `search.py` feeds exactly this text to z3 (and, for a cross-check, to
cvc5), and a verifier regenerates it from the spec and compares `query_sha256`.
Generation depends only on (P′, Q′) of the function, m and the encoding options,
and is deterministic (every set is emitted in sorted order).


Reductions, each a lemma of the certificate:

* Box (L2, L3).  S = supp P′ ∪ supp Q′, w_c = its width in coordinate c.  A head
  splits into components of keys joined by differences in S − S, each component alone
  represents F, and a connected head of ≤ m atoms spans ≤ (m−1)·w_c in coordinate c.
  After translating each coordinate's minimum to 0 (multiplying N and D by one
  monomial keeps N·Q′ = D·P′) the keys lie in B = Π_c {0..(m−1)·w_c}, and some key
  has coordinate 0 in each coordinate.
* Scaling.  (N, D) and (λN, λD) for λ > 0 are the same head, so a selected weight
  may be assumed ≥ 1 after scaling by 1/min weight (weights are positive).
* Cofactor form (L4, L5).  gcd(P′, Q′) = 1 in the UFD Q[x^±] and N·Q′ = D·P′ give
  Q′ | D: D = g·Q′ and then N = g·P′ for one Laurent polynomial g.  By L5,
  Newt(D) = Newt(g) + Newt(Q′), so in each coordinate min_c D = min_c g + min_c Q′ =
  min_c g and max_c D = max_c g + max_c Q′: with D's keys in B, g's support lies in
  G = Π_c {0..(m−1)·w_c − width_c(Q′)}.  The identity N·Q′ = D·P′ then holds by
  construction and the constraints are only positivity and support.  Over R, g could
  have real coefficients; the constraints are linear with rational data, so real and
  rational feasibility agree (a rational point exists in any nonempty rational
  polyhedron cell), and z3 decides linear real arithmetic exactly.
* Symmetry breaking.  A permutation π of the lattice coordinates with
  P′∘π = λ·P′ and Q′∘π = λ·Q′ (one λ ≠ 0) leaves F unchanged and maps B onto itself
  (the widths are permuted), the translation constraint onto itself, and heads of
  size k to heads of size k.  So the set of solutions is closed under π, and each orbit
  has an element whose selection vector s is lexicographically ≤ its image under every
  such π (the lex-least element of the orbit).  Requiring s ≤_lex s∘π on a prefix of
  the box order is implied by that, hence sound.
* Faces (L5/L6 along coordinate directions).  View D = g·Q′ as a polynomial in x_c
  with coefficients in the Laurent ring of the other variables (an integral domain):
  the lowest and highest x_c-slices of a product are the products of the lowest and
  highest slices, so D's bottom slice is divisible by Q′'s bottom slice and D's top
  slice by Q′'s top slice, and both have positive coefficients (they are coefficients
  of D).  Let T(R) be the least number of terms of a polynomial with positive
  coefficients divisible by R.  Then T(monomial) = 1 and, when R has positive width
  in coordinate c, every such D has positive width in c (widths add), so its bottom
  and top slices are disjoint: T(R) ≥ T(R_bottom,c) + T(R_top,c).  `slice_bound`
  computes this recursive lower bound from Q′ alone (for every R it returns a value
  ≤ T(R), by induction on the number of terms).  The query requires at least
  T(Q′_bottom,c) atoms with k_c = 0 (D's bottom slice, after translation) and at least
  T(Q′_top,c) atoms with k_c ≥ 1 (D's top slice lies there, being disjoint from the
  bottom one).  This is the face-limit argument of L6 along coordinate directions,
  stated inside the query; with it z3 refutes W_d at m = 2^d − 1 from its LP relaxation
  of the counts, so it is an option of its own (`faces=False` gives the pure search).
* Lines (L4, redundant).  Q′ | D, and for each binomial irreducible factor
  f = c_a·x^a + c_b·x^b of Q′ of multiplicity k (δ = b − a primitive), f^k | D.  After a
  unimodular change of coordinates with δ ↦ e_1, f is a unit times (c_a + c_b·y_1), so
  f^k | D iff on every line p + Z·δ the polynomial Σ_t D_{p+tδ}·y^t has the root
  r = −c_a/c_b with multiplicity ≥ k, i.e. Σ_t t^j·r^t·D_{p+tδ} = 0 for j < k (D lies
  in B, so each line is finite).  Implied by the cofactor form and by the identity
  N·Q′ = D·P′ (with L4); stated explicitly because each equation involves one line
  only, which lets the solver refute partial supports locally.
* Neighbours.  When Q′ is not a monomial, no head is a single atom (Q′ | D and a
  divisor of a monomial is a monomial), so in a connected head every atom has another
  atom at a difference in (S − S) ∖ {0}.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction

from headfusion.solving.problem import Exp, Problem, binomial_factors, box_points, face_slice, slice_bound

ENCODINGS = ("plain", "cofactor")
SYMMETRY_PREFIX = 64  # box points (in box order) compared by each lex-leader constraint
FORMAT_VERSION = "headfusion-smt/1"


@dataclass(frozen=True)
class Options:
    """Encoding options (all part of the query text and its hash)."""

    encoding: str = "cofactor"
    # Lex-leader symmetry breaking is sound but measured not to pay once the face bounds
    # are in (W_4, m = 15: 18.8 s without, 19.2 s with) and it slows SAT answers (W_3,
    # m = 8 without faces: 0.3 s → 17 s), so it is off by default.
    symmetry: bool = False
    neighbours: bool = False
    faces: bool = True
    lines: bool = False

    def __post_init__(self) -> None:
        if self.encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {self.encoding!r}; choose from {', '.join(ENCODINGS)}")

    @classmethod
    def from_label(cls, label: str) -> "Options":
        """Inverse of `label` (e.g. 'cofactor+sym+faces'), for regenerating a recorded query."""
        encoding, *flags = label.split("+")
        known = {"sym", "nbr", "faces", "lines"}
        if encoding not in ENCODINGS or not set(flags) <= known or len(set(flags)) != len(flags):
            raise ValueError(f"not an encoding label: {label!r}")
        return cls(encoding, "sym" in flags, "nbr" in flags, "faces" in flags, "lines" in flags)

    def label(self) -> str:
        """Short deterministic description, e.g. 'cofactor+sym'."""
        flags = [("sym", self.symmetry), ("nbr", self.neighbours), ("faces", self.faces), ("lines", self.lines)]
        return "+".join([self.encoding] + [name for name, on in flags if on])


# -- text -------------------------------------------------------------------------------


def _num(value: Fraction) -> str:
    """An exact SMT-LIB real literal."""
    value = Fraction(value)
    mag = abs(value)
    text = f"{mag.numerator}.0" if mag.denominator == 1 else f"(/ {mag.numerator}.0 {mag.denominator}.0)"
    return f"(- {text})" if value < 0 else text


def _name(prefix: str, e: Exp) -> str:
    return prefix + "_" + "_".join(str(v) for v in e) if e else prefix


def _sum(terms: list[str]) -> str:
    if not terms:
        return "0.0"
    return terms[0] if len(terms) == 1 else "(+ " + " ".join(terms) + ")"


def _or(lits: list[str]) -> str:
    if not lits:
        return "false"
    return lits[0] if len(lits) == 1 else "(or " + " ".join(lits) + ")"


def _poly_text(poly: dict[Exp, Fraction]) -> str:
    return " + ".join(f"{c}*x^{list(e)}" for e, c in sorted(poly.items())) or "0"


class GenerationTimeout(TimeoutError):
    """The deadline passed while the query text was being written."""


class _Clock:
    """Raises GenerationTimeout once time.monotonic() passes the deadline (checked every 1024 ticks)."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.count = 0

    def tick(self) -> None:
        if self.deadline is None:
            return
        self.count += 1
        if self.count % 1024 == 0:
            import time

            if time.monotonic() > self.deadline:
                raise GenerationTimeout("time limit reached while writing the query")


def query_text(problem: Problem, options: Options = Options(), deadline: float | None = None) -> str:
    """The deterministic SMT-LIB 2 query (standard QF_LRA): satisfiable iff a head of ≤ m atoms exists.

    `deadline` (time.monotonic) only bounds the work: GenerationTimeout when it passes.
    """
    lines: list[str] = []
    clock = _Clock(deadline)

    def emit(line: str) -> None:  # the deadline only stops the work; it never changes the text
        lines.append(line)
        clock.tick()
    m = problem.m
    emit(f"; {FORMAT_VERSION}: is there a softmax head with at most {m} atoms representing F = P'/Q'?")
    emit(f"; encoding: {options.label()}")
    emit(f"; lattice coordinates: {problem.nvars}; x^k = exp(<k, q>) in lattice coordinates")
    emit(f"; Q' = {_poly_text(problem.Q)}")
    emit(f"; P' = {_poly_text(problem.P)}")
    emit(f"; widths of S = supp P' u supp Q': {list(problem.widths)}")
    emit(f"; box B (L3) = prod {{0..(m-1)*w_c}}, shape {list(problem.box_shape)}, {problem.box_points} points")
    emit("; s_k: key k in B is an atom of the head (weight D_k > 0, value N_k/D_k).")
    emit("; sat: a head with at most m atoms exists (its keys in B, translated so each coordinate's min is 0).")
    emit("; unsat: m*(F) > m (by L2/L3 every head of at most m atoms has a component of this form).")
    if options.encoding == "cofactor":
        emit(f"; cofactor form (L4/L5): D = g*Q', N = g*P', g supported in G of shape {list(problem.g_shape)}")
    else:
        emit("; plain form: reals w_k = D_k and u_k = N_k, and N*Q' = D*P' coefficient by coefficient")
    if options.symmetry and problem.symmetries:
        emit(f"; symmetry breaking: lex-leader on the first {SYMMETRY_PREFIX} box points for {len(problem.symmetries)} coordinate permutations")
    if options.lines:
        emit("; lines: for each binomial factor c_a x^a + c_b x^b of Q' (multiplicity k), sum_t t^j r^t D_(p+t(b-a)) = 0 on every line, j < k")
    if options.faces:
        emit("; faces: at least T(Q'_bottom,c) atoms with k_c = 0 and T(Q'_top,c) atoms with k_c >= 1, per coordinate c")
    if options.neighbours and not problem.q_is_monomial:
        emit("; neighbours: every atom has another atom at a difference in (S - S) minus {0}")
    emit("(set-logic QF_LRA)")
    points = list(box_points(problem.box_shape))
    for k in points:
        emit(f"(declare-const {_name('s', k)} Bool)")
    if options.encoding == "cofactor":
        _cofactor_body(problem, points, emit, clock)
    else:
        _plain_body(problem, points, emit, clock)
    # Cardinality through counters c_k ∈ [0, 1] with c_k = 1 iff s_k, stated by implications
    # (z3's equation solver would substitute an equation c_k = ite(s_k, 1, 0) away): sums of
    # c_k are exact atom counts visible to the linear-arithmetic solver, so counting
    # conflicts show in its LP relaxation.  Measured on W_3, m = 7 against z3's native
    # `(_ at-most m)`: as fast or faster with the face constraints, and it keeps the query
    # standard SMT-LIB, so z3 and cvc5 read the same text.
    for k in points:
        s_k, c_k = _name("s", k), _name("c", k)
        emit(f"(declare-const {c_k} Real)")
        emit(f"(assert (and (<= 0.0 {c_k}) (<= {c_k} 1.0) (=> {s_k} (>= {c_k} 1.0)) (=> (not {s_k}) (<= {c_k} 0.0))))")
    emit(f"(assert (<= {_sum([_name('c', k) for k in points])} {m}.0))")
    # translation (L3): in each coordinate some atom has coordinate 0
    for c in range(problem.nvars):
        emit(f"(assert {_or([_name('s', k) for k in points if k[c] == 0])})")
    if options.symmetry:
        _symmetry_body(problem, points, emit)
    if options.neighbours and not problem.q_is_monomial:
        _neighbour_body(problem, points, emit)
    if options.faces:
        _faces_body(problem, points, emit)
    if options.lines:
        _lines_body(problem, points, emit, options.encoding)
    emit("(check-sat)")
    return "\n".join(lines) + "\n"


def _cofactor_body(problem: Problem, points: list[Exp], emit, clock: "_Clock") -> None:
    """D_k = Σ_j g_j Q′_{k−j}, N_k = Σ_j g_j P′_{k−j} as definitions; positivity and support."""
    g_points = list(box_points(problem.g_shape)) if problem.g_points else []
    for j in g_points:
        emit(f"(declare-const {_name('g', j)} Real)")
    D = _convolution(g_points, problem.Q, clock)
    N = _convolution(g_points, problem.P, clock)
    in_box = set(points)
    for k in points:
        d_terms = D.get(k, [])
        n_terms = N.get(k, [])
        s, dk, nk = _name("s", k), _name("D", k), _name("N", k)
        emit(f"(define-fun {dk} () Real {_sum(d_terms)})")
        emit(f"(define-fun {nk} () Real {_sum(n_terms)})")
        emit(f"(assert (ite {s} (>= {dk} 1.0) (and (= {dk} 0.0) (= {nk} 0.0))))")
    # N's coefficients outside B (possible when supp P′ sticks out of the box) must vanish: supp N ⊆ supp D ⊆ B.
    for k in sorted(set(N) - in_box):
        emit(f"(assert (= {_sum(N[k])} 0.0))")
    # D = g·Q′ lies in B by the Newton-polytope argument; the identity is structural, so nothing else to state.


def _convolution(g_points: list[Exp], poly: dict[Exp, Fraction], clock: "_Clock") -> dict[Exp, list[str]]:
    """k ↦ the terms c·g_j of (g·poly)_k, in a deterministic order."""
    out: dict[Exp, list[str]] = {}
    for j in g_points:
        clock.tick()
        g = _name("g", j)
        for e, c in sorted(poly.items()):
            k = tuple(a + b for a, b in zip(j, e))
            out.setdefault(k, []).append(g if c == 1 else f"(* {_num(c)} {g})")
    return out


def _plain_body(problem: Problem, points: list[Exp], emit, clock: "_Clock") -> None:
    """Reals w_k (= D_k), u_k (= N_k); the identity Σ u_k x^k·Q′ = Σ w_k x^k·P′ per frequency."""
    for k in points:
        emit(f"(declare-const {_name('w', k)} Real)")
        emit(f"(declare-const {_name('u', k)} Real)")
    for k in points:
        s, w, u = _name("s", k), _name("w", k), _name("u", k)
        emit(f"(assert (ite {s} (>= {w} 1.0) (and (= {w} 0.0) (= {u} 0.0))))")
    freq: dict[Exp, list[str]] = {}
    for k in points:
        clock.tick()
        for e, c in sorted(problem.Q.items()):
            f = tuple(a + b for a, b in zip(k, e))
            u = _name("u", k)
            freq.setdefault(f, []).append(u if c == 1 else f"(* {_num(c)} {u})")
        for e, c in sorted(problem.P.items()):
            f = tuple(a + b for a, b in zip(k, e))
            w = _name("w", k)
            freq.setdefault(f, []).append(f"(* {_num(-c)} {w})")
    for f in sorted(freq):
        emit(f"(assert (= {_sum(freq[f])} 0.0))")


def _symmetry_body(problem: Problem, points: list[Exp], emit) -> None:
    """Lex-leader s ≤_lex s∘π on the first SYMMETRY_PREFIX box points, for each symmetry π."""
    prefix = points[:SYMMETRY_PREFIX]
    for perm in problem.symmetries:
        pairs = []
        for k in prefix:
            image = tuple(k[p] for p in perm)
            if image != k:
                pairs.append((_name("s", k), _name("s", image)))
        if not pairs:
            continue
        # lex order with true < false is not what we want: compare as bits with false < true,
        # s ≤_lex s∘π  ⇔  for each i: (all earlier equal) ⇒ (s_i ⇒ s∘π_i)
        conds: list[str] = []
        for a, b in pairs:
            body = f"(=> {a} {b})"
            guarded = body if not conds else "(=> (and " + " ".join(conds) + ") " + body + ")"
            emit(f"(assert {guarded})")
            conds.append(f"(= {a} {b})")


def _neighbour_body(problem: Problem, points: list[Exp], emit) -> None:
    """s_k ⇒ ∨ s_{k+δ} over δ ∈ (S − S) ∖ {0} with k+δ in B."""
    support = sorted(set(problem.P) | set(problem.Q))
    deltas = sorted({tuple(a - b for a, b in zip(x, y)) for x in support for y in support} - {(0,) * problem.nvars})
    shape = problem.box_shape
    for k in points:
        near = []
        for dlt in deltas:
            n = tuple(a + b for a, b in zip(k, dlt))
            if all(0 <= v < w for v, w in zip(n, shape)):
                near.append(_name("s", n))
        emit(f"(assert (=> {_name('s', k)} {_or(near)}))")


def query_sha256(text: str) -> str:
    """SHA-256 hex digest of the query text (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _at_least(keys: list[Exp], bound: int) -> str:
    """At least `bound` atoms among `keys` (a sum of the 0/1 counters)."""
    return f"(>= {_sum([_name('c', k) for k in keys])} {bound}.0)"


def _faces_body(problem: Problem, points: list[Exp], emit) -> None:
    """≥ T(Q′_bottom,c) atoms with k_c = 0 and ≥ T(Q′_top,c) atoms with k_c ≥ 1, per coordinate c.

    The top slice of D is disjoint from the bottom one (positive width) and so lies in
    k_c ≥ 1; stating the bound on that whole region keeps the constraint unconditional.
    """
    for c in range(problem.nvars):
        if problem.q_widths[c] == 0:
            continue
        bottom = slice_bound(face_slice(problem.Q, c, top=False))
        top = slice_bound(face_slice(problem.Q, c, top=True))
        low = [k for k in points if k[c] == 0]
        high = [k for k in points if k[c] > 0]
        if bottom > 1:
            emit(f"(assert {_at_least(low, bottom)})")
        if top > 1:
            emit(f"(assert {_at_least(high, top)})")


def _lines_body(problem: Problem, points: list[Exp], emit, encoding: str) -> None:
    """Σ_t t^j r^t D_{p+tδ} = 0 on every line of B in direction δ, for each binomial factor."""
    in_box = set(points)
    prefix = "D" if encoding == "cofactor" else "w"
    for delta, r, k in binomial_factors(problem):
        for start in points:
            if tuple(a - b for a, b in zip(start, delta)) in in_box:
                continue  # not the first point of its line
            line, point = [], start
            while point in in_box:
                line.append(point)
                point = tuple(a + b for a, b in zip(point, delta))
            for j in range(k):
                terms = []
                for t, point in enumerate(line):
                    coef = Fraction(t) ** j * r**t if j else r**t
                    if coef:
                        name = _name(prefix, point)
                        terms.append(name if coef == 1 else f"(* {_num(coef)} {name})")
                emit(f"(assert (= {_sum(terms)} 0.0))")
