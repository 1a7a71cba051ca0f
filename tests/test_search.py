"""Issue 4: the z3 search (finite box, encodings, SMT-LIB export, minimize, CLI)."""

from __future__ import annotations

import hashlib
import json
import time
from fractions import Fraction
from itertools import combinations, product
from math import lcm

import pytest
import sympy

from headfusion.algebra.expform import combined_polys, exponential_form
from headfusion.spec.model import MultiHead
from headfusion.solving.solver import minimize, search
from headfusion.solving.problem import problem_from_form, slice_bound
from headfusion.solving.smtlib import Options, query_sha256, query_text
from headfusion.spec.load import load_spec

from .conftest import HANG_GUARD, run_cli, run_json

z3 = pytest.importorskip("z3")


# -- independent checks (no search.py / smtlib.py code) ----------------------------------------


def head_represents(model: MultiHead, atoms: list[dict]) -> bool:
    """Exact check with sympy: the head {key, weight, value} equals the multi-head function.

    With L the lcm of all key denominators and z_j = exp(q_j / L), every exponential
    e^<k,q> is the Laurent monomial Π z_j^(L·k_j), so both sides are rational functions
    of z and equality is an identity of rational functions.
    """
    keys = [[Fraction(k) for k in a["key"]] for a in atoms]
    for head in model.heads:
        keys.extend([[c for _, c in atom.key] for atom in head.atoms])
    L = lcm(1, *(c.denominator for key in keys for c in key))
    z = sympy.symbols(f"z1:{model.dimension + 1}")

    def monomial(dense: list[Fraction]) -> sympy.Expr:
        return sympy.Mul(*(zj ** int(c * L) for zj, c in zip(z, dense)))

    def weight_of(w) -> sympy.Rational:
        assert w.exponent == 0, "rational weights only in these tests"
        return sympy.Rational(w.coef.numerator, w.coef.denominator)

    F = sympy.Rational(model.constant.numerator, model.constant.denominator)
    for head, scale in zip(model.heads, model.scales):
        num = den = sympy.Integer(0)
        for atom in head.atoms:
            dense = [Fraction(0)] * model.dimension
            for j, c in atom.key:
                dense[j] = c
            term = weight_of(atom.weight) * monomial(dense)
            den += term
            num += sympy.Rational(atom.value.numerator, atom.value.denominator) * term
        F += sympy.Rational(scale.numerator, scale.denominator) * num / den
    num = den = sympy.Integer(0)
    for a in atoms:
        w = sympy.Rational(str(a["weight"]))
        assert w > 0
        term = w * monomial([Fraction(k) for k in a["key"]])
        den += term
        num += sympy.Rational(str(a["value"])) * term
    return sympy.cancel(sympy.together(num / den - F)) == 0


def brute_force_exists(spec_text: str, m: int, d: int | None = None) -> bool:
    """Is there a head with ≤ m atoms and keys in the L3 box?  Enumerates supports, exact nullspaces.

    Uses the unreduced pair (P, Q) = (Σ..., Π D_h) and its own box (widths of
    supp P ∪ supp Q): independent of the search's reductions.
    """
    form = exponential_form(load_spec(spec_text, d).model)
    P, Q = combined_polys(form, reduced=False)
    P = {e[:-1]: c for e, c in P.terms.items()}
    Q = {e[:-1]: c for e, c in Q.terms.items()}
    r = len(next(iter(Q)))
    support = list(P) + list(Q)
    widths = [max(e[c] for e in support) - min(e[c] for e in support) for c in range(r)]
    box = list(product(*(range((m - 1) * w + 1) for w in widths)))
    for size in range(1, m + 1):
        for S in combinations(box, size):
            # variables: D_k (k in S) then N_k (k in S); N·Q − D·P = 0 coefficientwise
            rows: dict[tuple, list[Fraction]] = {}
            for i, k in enumerate(S):
                for e, c in Q.items():
                    f = tuple(a + b for a, b in zip(k, e))
                    rows.setdefault(f, [Fraction(0)] * (2 * size))[size + i] += c
                for e, c in P.items():
                    f = tuple(a + b for a, b in zip(k, e))
                    rows.setdefault(f, [Fraction(0)] * (2 * size))[i] -= c
            A = sympy.Matrix([[sympy.Rational(v.numerator, v.denominator) for v in row] for _, row in sorted(rows.items())])
            basis = A.nullspace()  # exact rational nullspace of (D_S, N_S) ↦ N·Q − D·P
            B = sympy.Matrix.hstack(*[v[:size, :] for v in basis]) if basis else sympy.zeros(size, 0)
            rank = B.rank()
            if rank == 0:
                continue  # only D = 0
            # a head needs some x with B·x > 0 (every weight positive); with rank 1 the D-parts
            # are multiples of one vector, so it is a sign test.  Larger ranks do not occur in
            # these tiny boxes; fail loudly rather than guess.
            assert rank == 1, f"brute force inconclusive on support {S} (rank {rank})"
            column = next(B[:, i] for i in range(B.cols) if any(B[:, i]))
            if all(v > 0 for v in column) or all(v < 0 for v in column):
                return True
    return False


# -- single m ------------------------------------------------------------------------------------


def test_w2_unsat_at_3_sat_at_4():
    model = load_spec("W", 2).model
    assert search(model, 3, timeout=HANG_GUARD).status == "unsat"
    found = search(model, 4, timeout=HANG_GUARD)
    assert found.status == "sat" and found.checked
    atoms = [a.to_json() for a in found.head_atoms]
    assert len(atoms) == 4 and head_represents(model, atoms)


def test_w3_unsat_at_7_fast_and_sat_at_8():
    model = load_spec("W", 3).model
    result = search(model, 7, timeout=HANG_GUARD)
    assert result.status == "unsat"
    found = search(model, 8, timeout=HANG_GUARD)
    assert found.status == "sat" and head_represents(model, [a.to_json() for a in found.head_atoms])


@pytest.mark.parametrize(
    "spec,m,expected",
    [
        ("sigmoid(q1)+sigmoid(2*q1)", 3, "unsat"),
        ("sigmoid(q1)+sigmoid(2*q1)", 4, "sat"),
        ("tanh(q1)+tanh(q2)", 3, "unsat"),
        ("attn([0, q1, 2*q1], [0, 1, 3])", 2, "unsat"),
        ("attn([0, q1, 2*q1], [0, 1, 3])", 3, "sat"),
        ("sigmoid(q1)+sigmoid(-q1)", 1, "sat"),
    ],
)
def test_encodings_agree(spec, m, expected):
    """Every combination of reductions gives the same verdict (each is sound and complete)."""
    model = load_spec(spec).model
    variants = [Options(e, symmetry=s, faces=f) for e in ("plain", "cofactor") for s in (False, True) for f in (False, True)]
    variants += [Options(e, faces=False, lines=True, neighbours=True) for e in ("plain", "cofactor")]
    for options in variants:
        result = search(model, m, timeout=HANG_GUARD, options=options)
        assert result.status == expected, options.label()
        if expected == "sat":
            assert head_represents(model, [a.to_json() for a in result.head_atoms])


@pytest.mark.parametrize(
    "spec,m",
    [
        ("sigmoid(q1)+sigmoid(2*q1)", 2),
        ("sigmoid(q1)+sigmoid(2*q1)", 3),
        ("attn([0, q1, 2*q1], [0, 1, 3])", 2),
        ("tanh(q1)+tanh(q2)", 3),
        ("sigmoid(q1)+sigmoid(-q1)", 1),
        ("attn([0, q1, 2*q1], [0, 1, 3])", 3),
    ],
)
def test_brute_force_confirms(spec, m):
    """On tiny boxes an exhaustive enumeration of supports (exact linear algebra) gives the same verdict."""
    verdict = search(load_spec(spec).model, m, timeout=HANG_GUARD).status
    assert verdict in ("sat", "unsat")
    assert brute_force_exists(spec, m) == (verdict == "sat")


# -- minimize ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,minimum",
    [
        ("sigmoid(q1)+sigmoid(2*q1)", 4),
        ("tanh(q1)+tanh(q2)", 4),
        ("attn([0, q1, 2*q1], [0, 1, 3])", 3),
        ("sigmoid(q1)+sigmoid(q1+q2)", 4),
    ],
)
def test_minimize_decides(spec, minimum):
    model = load_spec(spec).model
    result = minimize(model, timeout=HANG_GUARD)
    assert result.status == "decided" and result.minimum == minimum
    assert result.head_json is not None and len(result.head_json) == minimum
    assert head_represents(model, result.head_json)
    assert [s["atoms"] for s in result.steps] == list(range(result.lower_bound, minimum + 1))
    for step in result.steps[:-1]:
        assert step["status"] == "unsat"
        if step["box_points"] <= 9:  # tiny boxes: confirm the UNSAT step by brute force
            assert not brute_force_exists(spec, step["atoms"])


def test_minimize_json_cli(capsys):
    data = run_json(capsys, "search", "sigmoid(q1)+sigmoid(2*q1)", "--minimize", "--timeout", str(HANG_GUARD))
    assert data["minimum"] == 4 and data["status"] == "decided"
    assert all(set(step) >= {"atoms", "status", "seconds"} for step in data["steps"])
    assert {"key", "weight", "value"} <= set(data["head"]["atoms_list"][0])


# -- SMT-LIB, hashes, cross-check ---------------------------------------------------------------


def test_query_is_deterministic():
    form = exponential_form(load_spec("W", 3).model)
    a = query_text(problem_from_form(form, 7))
    b = query_text(problem_from_form(exponential_form(load_spec("W", 3).model), 7))
    assert a == b and query_sha256(a) == hashlib.sha256(a.encode()).hexdigest()
    assert query_text(problem_from_form(form, 7), Options("plain")) != a


S3 = "sigmoid(q1) - 3*sigmoid(3*q1)"  # proved bound 3 (LE), m* = 4: z3 answers m = 3 (unsat) and m = 4 (sat)


def test_below_the_proved_bound_search_answers_from_the_kernel_checked_lemma(capsys):
    """C_4 at m = 14: unsat from Lemma LG at once, no solver; at m = 15, its bound, z3 runs (and finds a head)."""
    data = run_json(capsys, "search", "proofs/tournament_cycle.toml", "--d", "4", "--atoms", "14")
    assert data["status"] == "unsat" and data["answer_kind"] == "proved" and "query_sha256" not in data
    assert data["proof"]["lemma"] == "LG" and data["proof"]["lower_bound"] == 15 and data["proof"]["kernel_checked"]
    code, out, _ = run_cli(capsys, "search", "W", "--d", "2", "--atoms", "3")
    assert code == 0 and "UNSAT" in out and "proved by Lemma L5" in out and "kernel-checked" in out
    data = run_json(capsys, "search", "W", "--d", "2", "--atoms", "4")
    assert data["status"] == "sat" and "query_sha256" in data  # at the bound the solver decides


@pytest.mark.parametrize("m,expected", [(3, "unsat"), (4, "sat")])
def test_smt2_round_trip(tmp_path, capsys, m, expected):
    path = tmp_path / "query.smt2"
    data = run_json(capsys, "search", S3, "--atoms", str(m), "--smt2", str(path))  # above the proved bound 2: z3 decides
    assert data["status"] == expected
    text = path.read_text()
    assert hashlib.sha256(text.encode()).hexdigest() == data["query_sha256"]
    solver = z3.Solver()
    solver.from_file(str(path))  # z3 on its own, from the file
    assert str(solver.check()) == expected
    assert not list(tmp_path.glob(".smt2-*"))  # the temporary file was renamed away


def test_cvc5_cross_check(capsys):
    pytest.importorskip("cvc5")
    for m, expected in ((3, "unsat"), (4, "sat")):
        data = run_json(capsys, "search", S3, "--atoms", str(m), "--cross-check")
        assert data["status"] == expected
        assert data["cross_check"]["solver"] == "cvc5" and data["cross_check"]["status"] == expected


# -- limits and bad input -------------------------------------------------------------------------


def test_timeout_returns_unknown(capsys):
    code, out, err = run_cli(
        capsys, "search", "sigmoid(q1)+sigmoid(q2)+sigmoid(q1+q2)+sigmoid(q1-q2)", "--atoms", "9", "--timeout", "0.5",  # its bound 9 (LE)
        "--encoding", "plain", "--no-faces", "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["status"] == "unknown" and data["reason"]


def test_parallel_cubes_agree():
    model = load_spec("W", 2).model
    assert search(model, 3, timeout=HANG_GUARD, jobs=2).status == "unsat"
    found = search(model, 4, timeout=HANG_GUARD, jobs=2)
    assert found.status == "sat" and head_represents(model, [a.to_json() for a in found.head_atoms])


def test_transcendental_weights_unknown(capsys):
    code, out, _ = run_cli(capsys, "search", "sigmoid(q1+1)+sigmoid(q2)", "--atoms", "4", "--json")  # at the proved bound 4
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "unknown" and "transcendental" in data["reason"]


@pytest.mark.parametrize(
    "argv",
    [
        ("search", "W", "--d", "2"),
        ("search", "W", "--d", "2", "--atoms", "3", "--minimize"),
        ("search", "W", "--d", "2", "--atoms", "0"),
        ("search", "W", "--d", "2", "--atoms", "3", "--timeout", "0"),
        ("search", "W", "--atoms", "3"),
        ("search", "sigmoid(", "--atoms", "3"),
    ],
)
def test_bad_input_exit_2(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_human_output(capsys):
    code, out, _ = run_cli(capsys, "search", "W", "--d", "2", "--atoms", "4")
    assert code == 0 and "SAT" in out and "(1, 1) | 1 | 2" in out


# -- the face bound T(R) ---------------------------------------------------------------------------


def test_slice_bound():
    for d in range(1, 5):
        assert slice_bound({e: Fraction(1) for e in product((0, 1), repeat=d)}) == 2**d
    assert slice_bound({(0, 0): 1, (1, 0): 1, (0, 1): 1}) == 3  # a triangle: 3 vertices
    assert slice_bound({(0,): 1, (1,): 1, (2,): 1, (3,): 1}) == 2  # a segment: 2 vertices


def test_options_label_round_trip():
    for options in (Options(), Options("plain", symmetry=True, faces=False), Options("cofactor", neighbours=True, lines=True)):
        assert Options.from_label(options.label()) == options
    with pytest.raises(ValueError):
        Options.from_label("cofactor+bogus")


def test_recorded_options_regenerate_the_query(capsys):
    """A verifier rebuilds the query from the spec, m and the recorded options (no solver) and compares hashes."""
    data = run_json(capsys, "search", S3, "--atoms", "3", "--encoding", "plain", "--symmetry")
    text = query_text(problem_from_form(exponential_form(load_spec(S3).model), 3), Options(**data["options"]))
    assert query_sha256(text) == data["query_sha256"]


@pytest.mark.parametrize("question", [["--atoms", "14"], ["--minimize"]])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_search_the_guard_stops_answers_unknown_with_exit_0(capsys, monkeypatch, question, json_flag):
    """Issue 34: on a busy machine the wall-clock guard fired before z3's own timeout and the search exited 2
    ("search did not finish"); a search that runs out of time answers "unknown", exit 0, whichever clock stops it."""
    import headfusion.cli.search as cli_search

    def slow(args, progress):
        time.sleep(60)  # the guard's SIGALRM interrupts this: a machine so busy the search never answers

    monkeypatch.setattr(cli_search, "SEARCH_SLACK", 0.0)
    monkeypatch.setattr(cli_search, "_search", slow)
    code, out, err = run_cli(capsys, "search", "proofs/tournament_complete.toml", *question, "--timeout", "0.2", *json_flag)
    assert code == 0 and "did not finish" not in err, (out, err)
    if json_flag:
        data = json.loads(out)
        assert data["status"] == "unknown" and data["answer_kind"] == "unknown" and "time limit of 0.2 s" in data["reason"]
    else:
        assert "undecided" in out and "unknown: " in out and "time limit of 0.2 s" in out, out


def test_a_box_over_the_size_limit_names_what_can_help(capsys):
    """Issue 34: the diamond at 21 atoms (152,561 points > 120,000) suggested `--timeout 90`, which cannot help.  The diamond is
    decided now (m* = 24, Lemma V3); a triangle beside a pair at 24 atoms (its proved bound, 154,630 points) is the same case."""
    data = run_json(capsys, "search", "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q4) + sigmoid(3*q4)", "--atoms", "24",
                    "--timeout", "45")
    assert data["status"] == "unknown" and data["box"]["points"] == 154630
    assert "--timeout" not in data["next"] and data["next"].endswith("--atoms 24 --refute")
    assert "a size limit, so a larger --timeout cannot help" in data["answer"]
