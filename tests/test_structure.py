"""Structure before search: residue classes (LK) and rigid edges (LE), proved by the kernel.

The acceptance cases of the issue decide with a lemma and no refutation tree; every forgery of
the new claims is rejected naming the claim; on random sums the lemmas never exceed the
brute-force minimum or the construction.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from headfusion.algebra.expform import exponential_form
from headfusion.bounds.lower import newton_bound
from headfusion.bounds.structural import structural_bounds
from headfusion.kernel.statements import LEMMAS
from headfusion.kernel.verify import KINDS, check_of
from headfusion.proof.statement import verify_certificate
from headfusion.proof.certify import certify, certify_every_d
from headfusion.proof.claims import build_certificate
from headfusion.spec.load import load_spec

from .conftest import run_cli
from .test_refute import _rational_polys, _spec, _spec_2d, brute_force_has_head, heads_1d, heads_2d

TRIANGLE = "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3)"
THREE_ATOM_PAIR = "attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])"
ONE_CONSTANT_EDGE = "attn([0, q1, q2], [0, 1, 1]) + sigmoid(q1)"  # Newt(Q′) a quadrilateral, one edge with a constant face limit


def certified(text: str, d: int | None = None) -> dict:
    """`certify` with its default searches, through JSON and back."""
    return json.loads(json.dumps(certify(load_spec(text, d), ["headfusion", "certify", text], search_timeout=30).certificate))


def claim(cert: dict, cid: str) -> dict:
    return next(c for c in cert["claims"] if c["id"] == cid)


def trees(cert: dict) -> list[str]:
    return [c["id"] for c in cert["claims"] if "tree" in c["evidence"]]


def failures(cert: dict) -> dict[str, str]:
    """Failed claim id ↦ the kernel's message (the certificate must be rejected)."""
    report = verify_certificate(cert)
    assert not report.ok
    return {r[0]: r[3] for r in report.rows if r[2] == "failed"}


# -- acceptance: a lemma decides, no tree --------------------------------------------------------

@pytest.mark.parametrize("text,minimum,claim_id", [
    ("sigmoid(q1) + sigmoid(2*q1)", 4, "lower:classes"),
    (THREE_ATOM_PAIR, 9, "lower:classes"),
    ("sigmoid(q1 + 1/2) + sigmoid(2*q1 + 1)", 4, "lower:classes"),  # e^b weights: the tilt ρ = e^(-1/2)
    ("sigmoid(q1 + log(2)) + sigmoid(2*q1 + log(4))", 4, "lower:classes"),
    (TRIANGLE, 7, "lower:graph"),  # a graph: its zonotope's edges are all rigid (LG), no tree of witnesses
    ("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", 7, "lower:edges"),
    (ONE_CONSTANT_EDGE, 5, "lower:edges"),
])
def test_a_lemma_decides_without_a_tree(text, minimum, claim_id):
    cert = certified(text)
    assert verify_certificate(cert).ok
    summary = cert["summary"]
    assert summary["status"] == "proved" and summary["minimum"] == minimum
    assert summary["lower_bound_claim"] == claim_id and claim_id in claim(cert, "theorem")["depends_on"]
    assert not trees(cert) and not [c for c in cert["claims"] if c["kind"] in ("testimony", "undecided")]


@pytest.mark.parametrize("n", [4, 5])
def test_cycles_are_decided_by_their_graphs(n):
    cert = certified("proofs/tournament_cycle.toml", n)
    assert verify_certificate(cert).ok
    assert cert["summary"]["minimum"] == 2**n - 1 and cert["summary"]["lower_bound_claim"] == "lower:graph"
    assert [s["method"] for s in claim(cert, "lower:newton")["evidence"]["shapes"]] == ["graph"]  # counted, no witness table
    assert not trees(cert)


def test_complete_graph_k4_bounds():
    cert = json.loads(json.dumps(build_certificate(load_spec("proofs/tournament_complete.toml", 4), ["x"])))
    assert verify_certificate(cert).ok
    assert (cert["summary"]["lower_bound"], cert["summary"]["upper_bound"]) == (35, 38)  # Theorem K35 (Theorem K: 32, LD alone: 28)
    assert cert["summary"]["lower_bound_claim"] == "lower:grid"


def test_three_atom_sums_for_every_d():
    cert = json.loads(json.dumps(certify_every_d("proofs/three_atom_sum.toml", ["x"]).certificate))
    assert verify_certificate(cert).ok
    assert claim(cert, "theorem")["statement"].endswith(r"satisfies $m^*(F_d)=3^d$.")
    assert "lower:classes" in claim(cert, "theorem")["depends_on"]


def test_lk_mixes_with_newton_across_blocks():
    """σ(q1)+σ(2q1) ⊕ σ(q2)+σ(q3+q2)…: K = 4 on the first block times V on the others."""
    cert = json.loads(json.dumps(build_certificate(load_spec("sigmoid(q1) + sigmoid(2*q1) + sigmoid(q2)"), ["x"])))
    assert verify_certificate(cert).ok
    assert cert["summary"]["residue_class_bound"] == 8 == cert["summary"]["upper_bound"]
    assert claim(cert, "lower:classes")["evidence"]["shapes"].count(None) == 1


# -- forgeries: each rejected, naming the claim --------------------------------------------------

def with_claim(cert: dict, cid: str, evidence: dict, deps: list[str]) -> dict:
    """A certificate with one more claim (placed before the theorem), built by hand."""
    forged = copy.deepcopy(cert)
    wanted = {d[6:] for d in deps if d.startswith("lemma:")}
    while extra := {n for lemma in wanted for n in LEMMAS[lemma][1]} - wanted:  # with the lemmas their proofs cite
        wanted |= extra
    for lemma in [i for i in LEMMAS if i in wanted]:  # in the kernel's order: a lemma after those it cites
        if f"lemma:{lemma}" not in [c["id"] for c in forged["claims"]]:
            name, needs, text = LEMMAS[lemma]
            last = max(i for i, c in enumerate(forged["claims"]) if c["kind"] == "lemma")
            forged["claims"].insert(last + 1, {"id": f"lemma:{lemma}", "kind": "lemma", "title": f"Lemma {lemma} ({name})",
                                               "statement": text, "depends_on": [f"lemma:{d}" for d in needs], "evidence": {}})
    kind, title, _ = KINDS[check_of(cid)]
    forged["claims"].insert(-1, {"id": cid, "kind": kind, "title": title, "statement": "forged", "depends_on": deps,
                                 "evidence": evidence})
    return forged


@pytest.fixture(scope="module")
def lk() -> dict:
    return certified("sigmoid(q1 + 1/2) + sigmoid(2*q1 + 1)")


@pytest.fixture(scope="module")
def le() -> dict:
    return certified(ONE_CONSTANT_EDGE)


def edges_of(cert: dict) -> list:
    return claim(cert, "lower:edges")["evidence"]["shapes"][0]["edges"]


def unequal_sum(c: dict) -> None:
    claim(c, "lower:classes")["evidence"]["shapes"][0]["sums"][0][1] = [[0, 2]]


def wrong_tilt(c: dict) -> None:
    claim(c, "lower:classes")["evidence"]["shapes"][0]["tilt"] = [[1, 0]]


def larger_index(c: dict) -> None:
    item = claim(c, "lower:classes")["evidence"]["shapes"][0]
    item["lattice"] = [[8]]
    item["sums"] = item["sums"] + [[[k], s] for k, (_, s) in zip(range(4, 8), item["sums"])]


def exposes_more(c: dict) -> None:
    edges_of(c)[0][2] = [0, 0]  # the direction 0 exposes all of Newt(Q′)


def non_edge(c: dict) -> None:
    vertices = [v for v, _ in claim(c, "lower:newton")["evidence"]["shapes"][0]["vertices"]]
    edge = edges_of(c)[0]
    others = [v for v in vertices if v not in edge[:2]]
    edge[1] = others[0]  # two vertices the witness does not both maximise


def cycle(c: dict) -> None:
    edges = edges_of(c)
    edges[-1] = copy.deepcopy(edges[0])


def too_few(c: dict) -> None:
    edges_of(c).pop()


def constant_edge(c: dict) -> None:
    edges_of(c)[0] = [[1, 1], [2, 0], [1, 1]]  # the quadrilateral's edge along which F's limit is constant


def dropped_newton(c: dict) -> None:
    claim(c, "lower:edges")["depends_on"].remove("lower:newton")


FORGERIES = {
    "unequal class sum": ("lk", unequal_sum, "lower:classes", "class sums differ"),
    "wrong tilt": ("lk", wrong_tilt, "lower:classes", "class sums differ"),
    "index larger than the classes": ("lk", larger_index, "lower:classes", "class sums differ"),
    "witness exposes more than the edge": ("le", exposes_more, "lower:edges", "does not expose exactly"),
    "a non-edge": ("le", non_edge, "lower:edges", "does not expose exactly"),
    "edges form a cycle": ("le", cycle, "lower:edges", "cycle"),
    "edges do not span": ("le", too_few, "lower:edges", "spanning tree"),
    "constant face limit claimed rigid": ("le", constant_edge, "lower:edges", "constant"),
    "dropped dependency on lower:newton": ("le", dropped_newton, "lower:edges", "dependencies"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forgeries_are_rejected_at_the_cli(name, lk, le, tmp_path, capsys):
    which, forge, cid, message = FORGERIES[name]
    cert = copy.deepcopy(lk if which == "lk" else le)
    assert verify_certificate(cert).ok
    forge(cert)
    assert message in failures(cert).get(cid, ""), (name, failures(cert))
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(cert))
    code, out, _ = run_cli(capsys, "verify", str(path))
    assert code == 1 and f"FAILED {cid}" in out and "REJECTED" in out


def test_rigid_edges_need_more_support_than_vertices():
    """attn([0,q1,q2],[0,1,2]): |supp Q′| = V = 3, so LE proves nothing and may not be claimed."""
    cert = json.loads(json.dumps(build_certificate(load_spec("attn([0, q1, q2], [0, 1, 2])"), ["x"])))
    assert "lower:edges" not in [c["id"] for c in cert["claims"]]
    from headfusion.bounds.polytope import newton_graph

    support = sorted({tuple(e[:-1]) for e, _ in claim(cert, "exp-form")["evidence"]["shapes"][0]["Q"]})
    edges = [[list(u), list(w), list(c)] for u, w, c in newton_graph(support).edges[:2]]
    forged = with_claim(cert, "lower:edges", {"shapes": [{"edges": edges}]}, ["coprime", "exp-form", "lemma:LE", "lower:newton"])
    assert "equals V" in failures(forged)["lower:edges"]


def test_a_residue_claim_without_any_classes_is_rejected(lk):
    cert = copy.deepcopy(lk)
    claim(cert, "lower:classes")["evidence"]["shapes"] = [None]
    assert "lower:classes" in failures(cert)


# -- property: the lemmas never exceed m* ------------------------------------------------------

def _structural(text: str) -> tuple[int, int, int] | None:
    form = exponential_form(load_spec(text).model)
    structure = structural_bounds(form, newton_bound(form))
    lk, le = structure.class_bound or 0, structure.edges.bound if structure.edges else 0
    return lk, le, form.upper_bound


def _check_below_minimum(text: str) -> None:
    P, Q = _rational_polys(text)
    lk, le, upper = _structural(text)
    assert max(lk, le) <= upper, text
    for bound, name in ((lk, "LK"), (le, "LE")):
        if bound > 1:
            below = brute_force_has_head(P, Q, bound - 1, budget=20_000)
            event(f"{name} {bound}: brute force {'ran' if below is not None else 'skipped'}")
            assert below in (False, None), (text, name, bound)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_1d, min_size=1, max_size=3))
def test_lemmas_are_at_most_the_minimum_1d(heads):
    _check_below_minimum(" + ".join(_spec(h) for h in heads))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_2d, min_size=1, max_size=3))
def test_lemmas_are_at_most_the_minimum_2d(heads):
    _check_below_minimum(" + ".join(_spec_2d(h) for h in heads))


HEARTBEAT = re.compile(r"headfusion: certify: .*; \d+ s elapsed")  # the progress line of a long phase


@pytest.mark.slow
def test_a_certificate_past_the_kernels_limits_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    """K_6 with the edge 12 counted twice: its block is not in lowest terms (1 + x^(e1−e2) is common to P and Q), so the
    kernel cross-multiplies, 11 M term pairs, over verify's 2 M; certify says so (exit 2), no traceback."""
    monkeypatch.chdir(tmp_path)
    k6 = " + ".join(f"sigmoid(q{i} - q{j})" for i in range(1, 7) for j in range(i + 1, 7))
    code, out, err = run_cli(capsys, "certify", k6 + " + sigmoid(q1 - q2)", "--no-search", "--no-pdf")
    lines = err.strip().splitlines()  # a progress heartbeat may come first on a slow machine: the error is one line, the last
    assert code == 2 and out == "" and lines[-1].startswith("headfusion: error: ") and "verification limit" in lines[-1]
    assert all(HEARTBEAT.fullmatch(line) for line in lines[:-1]), lines
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@pytest.mark.slow
def test_k6_certifies_and_its_certificate_replays(tmp_path, monkeypatch, capsys):
    """K_6's block is in lowest terms: the kernel sees its stated P′, Q′ are its heads' P, Q (same_fraction), 980 ≤ m* ≤ 2932."""
    monkeypatch.chdir(tmp_path)
    spec = str(Path(__file__).resolve().parent.parent / "proofs" / "tournament_complete.toml")
    code, out, err = run_cli(capsys, "certify", spec, "--d", "6", "--no-search", "--no-pdf", "--json")
    assert code == 0, err
    data = json.loads(out)
    cert = json.loads(Path(data["files"]["json"]).read_text())
    assert verify_certificate(cert).ok and (cert["summary"]["lower_bound"], cert["summary"]["upper_bound"]) == (1050, 2932)  # LD over twenty faces, each K35 via the grid lemmas (980 before them)


def residue_classes_answer_without_a_traceback(capsys, exponent: int) -> None:
    """σ(q1) + σ(2q1) + σ(exponent·q1): LK proves m* = 8 (analyze answers, no traceback)."""
    code, out, err = run_cli(capsys, "analyze", f"sigmoid(q1)+sigmoid(2*q1)+sigmoid({exponent}*q1)", "--json", "--no-atoms-list")
    assert code == 0, err
    data = json.loads(out)
    assert data["lower_bound"] == data["upper_bound"] == 8 and data["lower_bound_method"] == "residue-classes (LK)"


def test_residue_classes_with_large_exponents_answer_without_a_traceback(capsys):
    """The adversary's finding below at a tenth of its exponent (the LK producer's work grows with it)."""
    residue_classes_answer_without_a_traceback(capsys, 6004)


@pytest.mark.slow  # the LK producer tries every modulus up to the exponent: seconds
def test_residue_classes_with_huge_exponents_answer_without_a_traceback(capsys):
    """Adversary finding: exponents near 60,000 once reached a kernel limit inside the LK producer (a traceback)."""
    residue_classes_answer_without_a_traceback(capsys, 60004)


def test_the_theorem_rests_only_on_the_claims_that_give_its_numbers(lk):
    """σ(q1+1/2)+σ(2q1+1): LK gives 4 with every block an LK block, so the Newton bound (2) is not used."""
    assert claim(lk, "theorem")["depends_on"] == ["lower:classes", "upper"]
    assert "lower:newton" not in claim(lk, "lower:classes")["depends_on"]  # no block counts its vertices
    assert "lower:newton" in {c["id"] for c in lk["claims"]} and verify_certificate(lk).ok
    forged = copy.deepcopy(lk)
    claim(forged, "lower:classes")["depends_on"].append("lower:newton")
    assert "lower:classes" in failures(forged)
    single = [c["id"] for c in lk["claims"] if c["kind"] == "lemma"]  # one block: Lemma LP only through LK's proof
    assert "lemma:LP" not in claim(lk, "upper")["depends_on"] + claim(lk, "lower:newton")["depends_on"] and "lemma:LP" in single


def test_lemmas_are_those_the_claims_use():
    """Lemma LB (Bézout) only with a Bézout factor; a Newton bound of one block does not cite Lemma LP."""
    w = certified("W", 2)
    assert "lemma:LB" not in [c["id"] for c in w["claims"]] and "lemma:LP" in claim(w, "lower:newton")["depends_on"]
    s = certified("sigmoid(q1) + sigmoid(2*q1)")  # 1 + x^2 needs a Bézout identity
    assert "lemma:LB" in claim(s, "coprime")["depends_on"] and "lemma:LP" not in claim(s, "lower:newton")["depends_on"]
    assert verify_certificate(w).ok and verify_certificate(s).ok
