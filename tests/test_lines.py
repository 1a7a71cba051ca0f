"""Lemma R (restriction to a line): m*(F) ≥ m*(f_u), f_u(t) = F(t·u), proved by the kernel.

Acceptance: every set of three distinct keys in {−2..2}², re-signed into the half-space "first nonzero coordinate > 0"
(65 classes up to the square's symmetries and signs, 53 of them pairwise non-parallel), has m* = the number of distinct subset sums, the lower bound coming from R — a one-dimensional lemma or a
one-dimensional refutation tree for f_u — and no tree over a 2-D box.  Forgeries of lower:line are rejected by
`verify` (exit 1) naming the claim; on random 2-D sums the R bound never exceeds the construction or the brute force.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, permutations, product

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from headfusion.bounds.engine import function_bounds
from headfusion.bounds.lines import restrict
from headfusion.kernel.base import CheckFailed
from headfusion.kernel.lines import check_line
from headfusion.kernel.model import canonical, model_from_json, restrict as kernel_restrict
from headfusion.kernel.verify import LINE_CHECKS
from headfusion.proof.statement import verify_certificate
from headfusion.proof.certify import certify, line_tree
from headfusion.proof.evidence import line_evidence
from headfusion.spec.load import load_spec

from .conftest import rejected_by_verify, run_cli
from .test_refute import brute_force_has_head, polys

TIMEOUT = 120.0  # seconds per refutation question (never asserted: a stop for a machine far slower than expected)
SYMMETRIES = [lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (-x, -y),
              lambda x, y: (y, x), lambda x, y: (-y, x), lambda x, y: (y, -x), lambda x, y: (-y, -x)]


def signed(k: tuple[int, int]) -> tuple[int, int]:
    """k re-signed into the half-space "first nonzero coordinate > 0" (σ(−ℓ) = 1 − σ(ℓ): the same m*)."""
    return k if next(v for v in k if v) > 0 else (-k[0], -k[1])


def parallel(triple: tuple[tuple[int, int], ...]) -> bool:
    return any(a[0] * b[1] == a[1] * b[0] for a, b in combinations(triple, 2))


def classes() -> list[tuple[tuple[int, int], ...]]:
    """Sets of three distinct re-signed keys in {−2..2}², one per class of the square's symmetries and signs."""
    keys = sorted({signed(k) for k in product(range(-2, 3), repeat=2) if k != (0, 0)})
    found = set()
    for triple in combinations(keys, 3):
        found.add(min(tuple(sorted(signed(s(*k)) for k in triple)) for s in SYMMETRIES))
    return sorted(found)


def text_of(keys: tuple[tuple[int, int], ...]) -> str:
    def logit(k: tuple[int, int]) -> str:
        return " + ".join(f"{c}*q{j}" for j, c in ((1, k[0]), (2, k[1])) if c) or "0"
    return " + ".join(f"sigmoid({logit(k)})" for k in keys)


def subset_sums(keys: tuple[tuple[int, int], ...]) -> int:
    return len({tuple(sum(k[c] for k, b in zip(keys, bits) if b) for c in range(2)) for bits in product((0, 1), repeat=len(keys))})


def line_of(text: str):
    """(F's bounds, the line the proof layer finds with f_u at F's upper bound, its kernel-checked bound)."""
    spec = load_spec(text, None)
    bounds = function_bounds(spec.model)
    line = line_tree(bounds.form, bounds.table, TIMEOUT)
    assert line is not None, text
    ev = line_evidence(replace(bounds, line=line))
    found, deps, _ = check_line(model_from_json(spec.model.to_json()), json.loads(json.dumps(ev)), {}, LINE_CHECKS)
    assert "lemma:R" in deps
    return bounds, line, found["bound"]


def test_the_classes_are_65():
    assert len(classes()) == 65 and sum(not parallel(t) for t in classes()) == 53


def decide(keys: tuple[tuple[int, int], ...]) -> str:
    """The acceptance for one class: R (kernel-checked) gives the product head's size; certify builds no 2-D tree."""
    text = text_of(keys)
    bounds, line, bound = line_of(text)
    assert bound == bounds.form.upper_bound == subset_sums(keys), text
    cert = certify(load_spec(text, None), ["test"], search_timeout=TIMEOUT).certificate
    assert cert["summary"]["status"] == "proved" and cert["summary"]["minimum"] == subset_sums(keys), text
    assert not [c["id"] for c in cert["claims"] if c["id"].startswith(("search:", "testimony:", "unknown:"))], text
    assert verify_certificate(json.loads(json.dumps(cert))).ok
    return "tree" if line.tree is not None else "lemma"


# four classes (one decided by a tree, three by a 1-D lemma); the third takes seconds, so it runs with the slow suite
QUICK = [((0, 1), (1, -1), (1, 0)), ((0, 1), (1, -1), (2, 1)), ((1, -2), (1, 2), (2, -1)), ((0, 1), (0, 2), (1, 0))]


@pytest.mark.parametrize("keys", [pytest.param(k, marks=[pytest.mark.slow] * (k == ((1, -2), (1, 2), (2, -1)))) for k in QUICK])
def test_a_few_classes_are_decided_on_a_line(keys):
    assert keys in classes()
    decide(keys)


@pytest.mark.slow
def test_every_class_is_decided_on_a_line():
    how = [decide(keys) for keys in classes()]
    assert len(how) == 65 and set(how) <= {"tree", "lemma"}


def test_every_claim_of_f_u_is_named_by_its_lemma():
    from headfusion.kernel.lines import LINE_CLAIMS
    from headfusion.kernel.statements import LEMMA_OF, LEMMAS

    assert all(LEMMA_OF[cid] in LEMMAS for cid in ("lower:newton",) + LINE_CLAIMS)


def test_restriction_is_the_same_in_producer_and_kernel():
    spec = load_spec("sigmoid(q1 + 2*q2) + tanh(q1 - q2) + attn([q1, 2*q2, 0], [1, 2, 3])", None)
    u = ((0, Fraction(3)), (1, Fraction(-1)))
    from headfusion.bounds.facelimits import canonical_form
    from headfusion.proof.evidence import canonical_json

    assert canonical_json(canonical_form(restrict(spec.model, u))) == canonical(kernel_restrict(model_from_json(spec.model.to_json()), dict(u)))


# -- forgeries -------------------------------------------------------------------------------------------

FORGED = "sigmoid(q1) + sigmoid(q1 + q2) + sigmoid(2*q1 - q2)"


@pytest.fixture(scope="module")
def genuine() -> dict:
    cert = certify(load_spec(FORGED, None), ["test"], search_timeout=TIMEOUT).certificate
    assert cert["summary"]["lower_bound_claim"] == "lower:line"
    return json.loads(json.dumps(cert))



def line_claim(cert: dict) -> dict:
    return next(c for c in cert["claims"] if c["id"] == "lower:line")


def test_the_genuine_certificate_verifies(capsys, tmp_path, genuine):
    path = tmp_path / "line.json"
    path.write_text(json.dumps(genuine))
    code, out, _ = run_cli(capsys, "verify", str(path))
    assert code == 0 and "Lemma R" in out, out


def test_another_direction_is_rejected(capsys, tmp_path, genuine):
    cert = copy.deepcopy(genuine)
    ev = line_claim(cert)["evidence"]
    ev["direction"] = [[1, 1], [2, 1]]  # f_u for u = (1, 1) is not the function of the entry
    rejected_by_verify(capsys, tmp_path, cert, "lower:line", "not the function")


def test_a_sub_certificate_for_another_function_is_rejected(capsys, tmp_path, genuine):
    cert = copy.deepcopy(genuine)
    other = function_bounds(load_spec("sigmoid(q1) + sigmoid(2*q1) + sigmoid(4*q1)", None).model)  # 8 by LK, a true bound of it
    from headfusion.bounds.facelimits import canonical_form
    from headfusion.bounds.lines import LineBound

    form = canonical_form(other.form.model)
    fake = replace(other, line=LineBound(((0, Fraction(1)),), form, 8), table={form: other})
    line_claim(cert)["evidence"]["function"] = line_evidence(fake)["function"]
    rejected_by_verify(capsys, tmp_path, cert, "lower:line", "not the function")


def test_a_changed_bound_is_rejected(capsys, tmp_path, genuine):
    cert = copy.deepcopy(genuine)
    line_claim(cert)["evidence"]["function"]["bound"] = 9
    rejected_by_verify(capsys, tmp_path, cert, "lower:line", "stored bound")
    cert = copy.deepcopy(genuine)
    tree = dict(line_claim(cert)["evidence"]["function"]["claims"])["refutation"]
    tree["atoms"] = 8  # a tree for m = 7 does not exclude 8 atoms
    assert "lower:line" in {r[0] for r in verify_certificate(cert).rows if r[2] == "failed"}


def test_a_malformed_direction_is_rejected(genuine):
    ev = copy.deepcopy(line_claim(genuine)["evidence"])
    model = model_from_json(genuine["model"])
    for direction in ([], [[1, 2], [1, -1]], [[3, 1]], [[1, 10**7]], [[1, "1/2"]]):
        with pytest.raises((CheckFailed, ValueError, TypeError)):
            check_line(model, {**ev, "direction": direction}, {}, LINE_CHECKS)


# -- the bound never exceeds the truth -------------------------------------------------------------------

keys_2d = st.tuples(st.integers(-2, 2), st.integers(-2, 2)).filter(lambda k: k != (0, 0))


sums_2d = st.lists(keys_2d, min_size=2, max_size=3)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sums_2d)
def test_the_line_bound_is_below_the_truth(keys):
    """A few random 2-D sums (the quick suite); the full run is the slow test below."""
    line_bound_is_below_the_truth(keys)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sums_2d)
def test_the_line_bound_is_below_the_truth_on_many_sums(keys):
    line_bound_is_below_the_truth(keys)


def line_bound_is_below_the_truth(keys: list[tuple[int, int]]) -> None:
    """R's bound (the engine's and the one a tree on the best line gives) ≤ the construction, and no head is smaller."""
    text = text_of(tuple(keys))
    bounds = function_bounds(load_spec(text, None).model)
    upper = bounds.form.upper_bound
    line = line_tree(bounds.form, bounds.table, TIMEOUT) if sum(b.rank for b in bounds.form.blocks) >= 2 else None
    for found in [bounds.line, line]:
        if found is None:
            continue
        assert found.value <= upper
        if found.value <= 5:  # the brute force is cheap: no head with fewer atoms than R says, one with m* atoms
            P, Q = polys(text)
            assert brute_force_has_head(P, Q, found.value - 1, budget=200_000) in (False, None)


def test_the_documents_say_lemma_r(genuine):
    from headfusion.render.context import build_context
    from headfusion.render.gap import STOPS

    assert r"Lemma~\ref{lem:R} stops at $8$" in STOPS["lower:line"](genuine, line_claim(genuine))
    ctx = build_context(genuine)
    assert ctx["line"]["bound"] == "8" and ctx["line"]["direction"] == "(2,-1)"
    assert any(r"\ref{lem:R}" in p for p in ctx["sketch"]["paragraphs"])


def cube_classes() -> list[tuple[tuple[int, ...], ...]]:
    """Sets of three distinct re-signed keys in {−1,0,1}³, one per class of the cube's 48 symmetries and signs."""
    def sign3(k: tuple[int, ...]) -> tuple[int, ...]:
        return k if next(v for v in k if v) > 0 else tuple(-v for v in k)
    maps = [(p, s) for p in permutations(range(3)) for s in product((1, -1), repeat=3)]
    keys = sorted({sign3(k) for k in product((-1, 0, 1), repeat=3) if any(k)})
    return sorted({min(tuple(sorted(sign3(tuple(s[i] * k[p[i]] for i in range(3))) for k in t)) for p, s in maps)
                   for t in combinations(keys, 3)})


@pytest.mark.slow
def test_every_class_of_the_cube_is_decided_on_a_line():
    """The 25 classes of three keys in {−1,0,1}³: R (kernel-checked) gives the number of subset sums for each."""
    found = cube_classes()
    assert len(found) == 25
    for keys in found:
        text = " + ".join("sigmoid(" + " + ".join(f"{c}*q{j + 1}" for j, c in enumerate(k) if c) + ")" for k in keys)
        sums = len({tuple(sum(k[c] for k, b in zip(keys, bits) if b) for c in range(3)) for bits in product((0, 1), repeat=3)})
        bounds, _, bound = line_of(text)
        assert bound == bounds.form.upper_bound == sums, text
