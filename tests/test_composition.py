"""Composition: disjoint faces (LD), the hexagon (LH) and slices (LS), proved by the kernel.

The acceptance cases decide with a lemma and no refutation tree; every forgery of the new claims is
rejected by `verify` (exit 1) naming the claim; on random sums and random graphs the composed bounds
never exceed the brute-force minimum (where it decides) or the construction.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from unittest import mock

import networkx as nx
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from headfusion.bounds.engine import function_bounds
from headfusion.kernel.base import SchemaError
from headfusion.proof.statement import verify_certificate
from headfusion.proof.analysis import analyze
from headfusion.spec.load import load_spec

from .conftest import built, claim, failures, rejected_by_verify, run_cli, without_grid_lemmas
from .test_refute import _rational_polys, _spec, _spec_2d, brute_force_has_head, heads_1d, heads_2d

PAW = "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q3-q4)"
TWO_TRIANGLES = "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q4-q5) + sigmoid(q5-q6) + sigmoid(q4-q6)"
K4 = ("proofs/tournament_complete.toml", 4)
DIAMOND = ("proofs/tournament_diamond.toml", None)





@pytest.fixture(scope="module")
def k4() -> dict:
    """K_4 by Theorem K (the grid lemmas switched off: Theorem K35's 35 supersedes its 32, tests/test_grids.py)."""
    with without_grid_lemmas():
        return built(*K4)


@pytest.fixture(scope="module")
def k4_faces() -> dict:
    """K_4 certified by LD alone (Theorem K and the grid lemmas switched off): the disjoint-face forgeries below need its lower:faces."""
    with mock.patch("headfusion.bounds.engine.theorem_k_bound", lambda form: None), without_grid_lemmas():
        return built(*K4)


@pytest.fixture(scope="module")
def diamond() -> dict:
    return built(*DIAMOND)


@pytest.fixture(scope="module")
def paw() -> dict:
    return built(PAW)


@pytest.fixture(scope="module")
def triangles() -> dict:
    return built(TWO_TRIANGLES)


# -- the acceptance cases -------------------------------------------------------------------------------


def test_the_paw_is_decided_without_a_tree():
    cert = built(PAW)
    assert verify_certificate(cert).ok
    assert cert["summary"]["minimum"] == 14 and cert["summary"]["status"] == "proved"
    assert not [c for c in cert["claims"] if c["id"].startswith(("search:", "testimony:", "unknown:"))]
    assert cert["summary"]["lower_bound_claim"] in ("lower:slices", "lower:faces")


def test_k4_by_disjoint_faces_with_graphs_on_the_faces(k4_faces):
    assert verify_certificate(k4_faces).ok
    assert (k4_faces["summary"]["lower_bound"], k4_faces["summary"]["upper_bound"]) == (28, 38)
    ev = claim(k4_faces, "lower:faces")["evidence"]
    assert len(ev["faces"]) == 4 and {ev["functions"][k]["by"] for _, k in ev["faces"]} <= {"lower:graph", "lower:edges", "lower:hexagon"}
    assert all(ev["functions"][k]["bound"] == 7 for _, k in ev["faces"])
    assert {"lemma:LG", "lemma:LE"} <= set(claim(k4_faces, "lower:faces")["depends_on"])  # the faces' own lemmas are cited, so printed


def test_k4_by_theorem_k(k4):
    """K_4: LD over the four source faces gives 4·7 = 28; Theorem K (issue 31) adds a term per sink face: 32."""
    assert verify_certificate(k4).ok
    assert (k4["summary"]["lower_bound"], k4["summary"]["upper_bound"]) == (32, 38)
    assert k4["summary"]["lower_bound_claim"] == "lower:theorem-k"
    assert {"lemma:K", "lemma:LN", "lemma:LH", "lemma:LD"} <= {c["id"] for c in k4["claims"]}  # its lemmas are printed


def test_the_paw_by_slices_with_the_hexagon(paw):
    assert verify_certificate(paw).ok
    assert paw["summary"]["lower_bound"] == 14 and paw["summary"]["lower_bound_claim"] == "lower:slices"
    entry = claim(paw, "lower:slices")["evidence"]["shapes"][0]
    assert entry["mu"]["method"] == "hexagon" and sum(k for _, k in entry["roots"]) == 1
    assert {"lemma:LS", "lemma:LH", "lemma:LM"} <= set(claim(paw, "lower:slices")["depends_on"])


def test_two_triangles_multiply_by_the_hexagon(triangles):
    """K_3 ⊕ K_3: Newton 36, LE 37, the hexagon on each block 7·7 = 49 = the construction (Lemma LM)."""
    assert verify_certificate(triangles).ok
    assert triangles["summary"]["minimum"] == 49 and triangles["summary"]["lower_bound_claim"] == "lower:hexagon"


def test_complete_graphs_five_and_six():
    k5 = analyze(load_spec("proofs/tournament_complete.toml", 5), list_atoms=False)
    assert k5["lower_bound"] >= 175 and k5["upper_bound"] == 291
    assert k5["lower_bounds"]["LD"] >= 175 and k5["lower_bounds"]["LS"] == 175  # LD over five K_4 faces, and LS: 5·35 by Theorem K35


@pytest.mark.slow
def test_complete_graph_six_needs_at_least_840():
    k6 = analyze(load_spec("proofs/tournament_complete.toml", 6), list_atoms=False)
    assert k6["lower_bound"] >= 1050 and k6["lower_bounds"]["LS"] == 1050 and k6["upper_bound"] == 2932  # 6·5·35


def test_search_below_the_proved_bound_answers_from_the_lemma(capsys):
    for m in (1, 13, 14):
        code, out, err = run_cli(capsys, "search", "proofs/tournament_cycle.toml", "--d", "4", "--atoms", str(m), "--json")
        data = json.loads(out)
        assert code == 0 and data["status"] == "unsat" and data["answer_kind"] == "proved" and data["proof"]["lemma"] == "LG"
    code, out, err = run_cli(capsys, "search", "proofs/tournament_complete.toml", "--d", "4", "--atoms", "27")
    assert code == 0 and "proved by Lemma K" in out and "kernel-checked" in out, out


# -- forgeries -------------------------------------------------------------------------------------------



def test_intersecting_faces_are_rejected(capsys, tmp_path, k4_faces):
    cert = copy.deepcopy(k4_faces)
    faces = claim(cert, "lower:faces")["evidence"]["faces"]
    faces[1] = copy.deepcopy(faces[0])  # the face along u_1 twice: it meets itself
    rejected_by_verify(capsys, tmp_path, cert, "lower:faces", "intersect")


def test_a_face_function_that_is_not_the_limit_is_rejected(capsys, tmp_path, k4_faces):
    cert = copy.deepcopy(k4_faces)
    faces = claim(cert, "lower:faces")["evidence"]["faces"]
    faces[0][0] = [[1, 1], [2, 1]]  # along 1_1 + 1_2 the limit is two edges and a constant, not a triangle
    rejected_by_verify(capsys, tmp_path, cert, "lower:faces", "is not function")


def test_a_sub_claim_for_another_function_is_rejected(capsys, tmp_path, k4_faces, diamond):
    cert = copy.deepcopy(k4_faces)
    functions = claim(cert, "lower:faces")["evidence"]["functions"]
    k = claim(cert, "lower:faces")["evidence"]["faces"][0][1]
    exp = claim(diamond, "exp-form")["evidence"]
    functions[k]["claims"][0][1] = exp  # the diamond's exponential form, for the triangle
    rejected_by_verify(capsys, tmp_path, cert, "lower:faces")


def test_a_sub_bound_raised_by_one_is_rejected(capsys, tmp_path, k4_faces):
    cert = copy.deepcopy(k4_faces)
    ev = claim(cert, "lower:faces")["evidence"]
    ev["functions"][ev["faces"][0][1]]["bound"] += 1
    rejected_by_verify(capsys, tmp_path, cert, "lower:faces", "stored bound")


def test_a_hexagon_that_does_not_divide_is_rejected(capsys, tmp_path, triangles):
    cert = copy.deepcopy(triangles)
    factors = claim(cert, "lower:hexagon")["evidence"]["shapes"][0]["factors"]
    factors[2] = [[[0, 0, 0], 1], [[2, 1, 0], 1]]  # directions no longer ±δ_1 ± δ_2 …
    rejected_by_verify(capsys, tmp_path, cert, "lower:hexagon")
    cert = copy.deepcopy(triangles)
    factors = claim(cert, "lower:hexagon")["evidence"]["shapes"][0]["factors"]
    factors[2][1][1] = 2  # … or the right directions with coefficients that do not divide Q′
    rejected_by_verify(capsys, tmp_path, cert, "lower:hexagon")


def test_a_root_of_the_wrong_sign_or_no_root_is_rejected(capsys, tmp_path, paw):
    for rho, words in (("-1", ("ρ > 0",)), ("2", ("not divisible",))):
        cert = copy.deepcopy(paw)
        claim(cert, "lower:slices")["evidence"]["shapes"][0]["roots"][0][0] = rho
        rejected_by_verify(capsys, tmp_path, cert, "lower:slices", *words)


def test_a_slice_factor_that_is_not_a_factor_is_rejected(capsys, tmp_path, paw):
    cert = copy.deepcopy(paw)
    entry = claim(cert, "lower:slices")["evidence"]["shapes"][0]
    entry["B"][0][1] = 2  # Z changed: Q′_B is no longer a unit times YZ
    rejected_by_verify(capsys, tmp_path, cert, "lower:slices", "unit times")
    cert = copy.deepcopy(paw)
    entry = claim(cert, "lower:slices")["evidence"]["shapes"][0]
    entry["omega"] = [1, 0, 0]  # Y is not on one level of this functional
    rejected_by_verify(capsys, tmp_path, cert, "lower:slices", "one level")


def test_a_raised_multiple_bound_is_rejected(paw):
    """The bound is the kernel's: raising a nested factor's roots without dividing fails, and a stored statement cannot lie."""
    cert = copy.deepcopy(paw)
    claim(cert, "lower:slices")["evidence"]["shapes"][0]["roots"][0][1] += 1  # one more root than Z(x′·y^ω) has
    assert "lower:slices" in failures(cert)
    cert = copy.deepcopy(paw)
    claim(cert, "lower:slices")["statement"] = claim(cert, "lower:slices")["statement"].replace("14", "15")
    assert "lower:slices" in failures(cert)


# -- soundness on random functions ---------------------------------------------------------------------------


def _check_sound(text: str) -> None:
    bounds = function_bounds(load_spec(text).model)
    upper = bounds.form.upper_bound
    assert all(v <= upper for v in bounds.found.values()), (text, bounds.found)
    composed = {k: v for k, v in bounds.found.items() if k in ("LD", "LH", "LS", "V3", "V2")}
    if not composed:
        return
    P, Q = _rational_polys(text)
    best = max(composed.values())
    below = brute_force_has_head(P, Q, best - 1, budget=20_000) if best > 1 else False
    event(f"composed {sorted(composed)}: brute force {'ran' if below is not None else 'skipped'}")
    assert below in (False, None), (text, composed)


# Each soundness property runs a third of its examples in the quick suite and all of them in its slow twin.
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_1d, min_size=1, max_size=3))
def test_composed_bounds_are_at_most_the_minimum_1d(heads):
    _check_sound(" + ".join(_spec(h) for h in heads))


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_1d, min_size=1, max_size=3))
def test_composed_bounds_are_at_most_the_minimum_1d_on_many_sums(heads):
    _check_sound(" + ".join(_spec(h) for h in heads))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_2d, min_size=1, max_size=3))
def test_composed_bounds_are_at_most_the_minimum_2d(heads):
    _check_sound(" + ".join(_spec_2d(h) for h in heads))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_2d, min_size=1, max_size=3))
def test_composed_bounds_are_at_most_the_minimum_2d_on_many_sums(heads):
    _check_sound(" + ".join(_spec_2d(h) for h in heads))


heads_3d = st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(1, 2))  # σ(c·q_i − q_j), q_0 meaning no second term


def _spec_3d(heads: list[tuple[int, int, int]]) -> str:
    return " + ".join(f"sigmoid({c}*q{i} - q{j})" if j and j != i else f"sigmoid({c}*q{i})" for i, j, c in heads)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_3d, min_size=2, max_size=4))
def test_composed_bounds_are_at_most_the_minimum_3d(heads):
    _check_sound(_spec_3d(heads))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(heads_3d, min_size=2, max_size=4))
def test_composed_bounds_are_at_most_the_minimum_3d_on_many_sums(heads):
    _check_sound(_spec_3d(heads))


def _graph_function(edges: list[tuple[int, int]], flips: list[bool]) -> str:
    return " + ".join(f"sigmoid(q{j + 1}-q{i + 1})" if flip else f"sigmoid(q{i + 1}-q{j + 1})" for (i, j), flip in zip(edges, flips))


def _forests(graph: nx.Graph) -> int:
    """T_G(2, 1): the number of forests (edge subsets without a cycle), brute force."""
    edges = list(graph.edges())
    count = 0
    for mask in range(1 << len(edges)):
        sub = nx.Graph([e for k, e in enumerate(edges) if mask >> k & 1])
        count += nx.is_forest(sub) if sub.number_of_edges() else 1
    return count


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.integers(0, 2**10 - 1), st.integers(0, 2**10 - 1))
def test_composed_bounds_on_random_graphs_are_sound(n, mask, orientation):
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = [p for k, p in enumerate(pairs) if mask >> k & 1]
    if not edges:
        return
    graph = nx.Graph(edges)
    bounds = function_bounds(load_spec(_graph_function(edges, [bool(orientation >> k & 1) for k in range(len(edges))])).model)
    assert bounds.form.upper_bound == _forests(graph)  # the construction: one atom per forest
    assert all(v <= bounds.form.upper_bound for v in bounds.found.values()), bounds.found
    if nx.is_forest(graph):  # a forest's terms are independent binomials: m* = 2^|E| exactly (Lemma LZ)
        assert bounds.best[0] == 2 ** len(edges)
    event(f"best {bounds.best[1]}")


def test_evidence_values_are_exact():
    """Roots and levels of LS are exact rationals (no float reaches the evidence)."""
    cert = built(PAW)
    entry = claim(cert, "lower:slices")["evidence"]["shapes"][0]
    assert all(isinstance(r, (int, str)) and Fraction(r) > 0 for r, _ in entry["roots"])
    assert all(isinstance(x, int) for x in entry["omega"] + entry["point"])


# -- Lemma LG: graphs read from the model ------------------------------------------------------------------


def test_cycle_graph_certificate_counts_its_vertices_and_needs_no_witness(capsys, tmp_path):
    cert = built("proofs/tournament_cycle.toml", 5)
    assert verify_certificate(cert).ok and cert["summary"]["minimum"] == 31 and cert["summary"]["lower_bound_claim"] == "lower:graph"
    assert claim(cert, "lower:newton")["evidence"] == {"shapes": [{"method": "graph"}]}
    for mutate, words in (
        (lambda c: claim(c, "lower:graph")["evidence"].update(vertices=30), ("unknown fields",)),
        (lambda c: c["summary"].update(newton_vertices=29), ()),
        (lambda c: claim(c, "lower:graph").update(statement=claim(c, "lower:graph")["statement"].replace("V=30", "V=29")), ()),
    ):
        forged = copy.deepcopy(cert)
        mutate(forged)
        found = failures(forged)
        assert found and all(any(w in m for m in found.values()) for w in words), found


@pytest.mark.parametrize("text,words", [
    ("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", "not a multiple of"),  # a non-graph term
    ("sigmoid(q1-q2) + 2*sigmoid(q2-q1) + sigmoid(q2-q3) + sigmoid(q1-q3)", "one edge"),  # a doubled edge
])
def test_a_graph_method_on_a_function_that_is_no_graph_is_rejected(capsys, tmp_path, text, words):
    cert = built(text)
    claim(cert, "lower:newton")["evidence"]["shapes"] = [{"method": "graph"} for _ in claim(cert, "lower:newton")["evidence"]["shapes"]]
    rejected_by_verify(capsys, tmp_path, cert, "lower:newton", words)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2**15 - 1))
def test_the_kernels_orientation_count_is_the_chromatic_polynomial_at_minus_one(n, mask):
    from headfusion.kernel.graphs import acyclic_orientations

    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = [p for k, p in enumerate(pairs) if mask >> k & 1]
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    chi = nx.chromatic_polynomial(graph)
    assert acyclic_orientations(n, edges) == abs(int(chi.subs(chi.free_symbols.pop(), -1))) if chi.free_symbols else 1


# -- theorems for whole families of graphs (Lemma LF) ----------------------------------------------------------


@pytest.fixture(scope="module")
def cycles() -> dict:
    from headfusion.proof.certify import certify_every_d

    return json.loads(json.dumps(certify_every_d("proofs/tournament_cycle.toml", ["headfusion", "certify", "--every-d"]).certificate))


@pytest.mark.parametrize("spec,kind,first,statement", [
    ("proofs/tournament_cycle.toml", "cycle", 3, r"satisfies $m^*(F_n)=2^n-1$."),
    ("proofs/tournament_path.toml", "tree", 2, r"satisfies $m^*(F_n)=2^{n-1}$."),
    ("proofs/tournament_star.toml", "tree", 2, r"satisfies $m^*(F_n)=2^{n-1}$."),
    ("proofs/tournament_complete.toml", "complete", 3, r"satisfies $7\cdot n!/6\le m^*(F_n)\le|\operatorname{supp}Q'_n|$."),
])
def test_every_n_for_graph_families(spec, kind, first, statement):
    from headfusion.proof.certify import certify_every_d

    cert = json.loads(json.dumps(certify_every_d(spec, ["headfusion", "certify", spec, "--every-d"]).certificate))
    assert verify_certificate(cert).ok
    assert claim(cert, "family:graphs")["evidence"] == {"class": kind, "from": first, "to": max(6 if kind == "complete" else 8, first)}
    assert claim(cert, "theorem")["statement"].startswith(rf"For every $n\ge{first}$, the tournament function") and claim(cert, "theorem")["statement"].endswith(statement)
    assert "family:graphs" in claim(cert, "theorem")["depends_on"] and "lemma:LF" in claim(cert, "family:graphs")["depends_on"]


def test_a_family_claim_of_another_class_is_rejected(cycles, capsys, tmp_path):
    forged = copy.deepcopy(cycles)
    claim(forged, "family:graphs")["evidence"]["class"] = "tree"
    rejected_by_verify(capsys, tmp_path, forged, "family:graphs", "states the class cycle")
    forged = copy.deepcopy(cycles)
    claim(forged, "family:graphs")["evidence"]["to"] = 17  # more members than were checked
    assert "family:graphs" in failures(forged)


def test_a_closed_form_that_differs_from_the_kernels_count_is_rejected(cycles, monkeypatch):
    """The kernel's closed form for cycles raised by one at every n: the rebuilt members no longer match it."""
    from headfusion.kernel import graphs

    real = graphs.acyclic_orientations
    monkeypatch.setattr(graphs, "acyclic_orientations", lambda n, edges: real(n, edges) + (n == 6))  # a count off at n = 6
    assert "family:graphs" in failures(copy.deepcopy(cycles))


def test_a_family_outside_lemma_lf_is_refused(capsys, tmp_path):
    spec = tmp_path / "wheel.toml"
    spec.write_text('name = "wheel"\n[parameter]\nname = "n"\nmin = 4\nmax = 8\ndefault = 5\n[graph]\ngenerator = "wheel"\n'
                    '[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n')
    code, out, err = run_cli(capsys, "certify", str(spec), "--every-d", "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "no theorem for every n" in err and "Traceback" not in err
    assert not list(tmp_path.glob("*.json"))


# -- the adversary's findings on the new claims ---------------------------------------------------------------


STEALTH = ('title = "tournament on the cycle C_{n}"\n[parameter]\nname = "n"\nmin = 3\nmax = 17\ndefault = 4\n[graph]\ngenerator = "cycle"\n'
           '[function]\nsum = "edges"\nterm = "(1 - ({n}-3)*({n}-4)*({n}-5)*({n}-6)*({n}-7)*({n}-8)/720)*sigmoid(q{i} - q{j})"\n')


def test_a_family_whose_term_changes_beyond_the_checked_members_is_refused(capsys, tmp_path, cycles):
    """The coefficient is 1 at n = 3..8 and 0 at n = 9: F_9 = 0 is no tournament of C_9, so no theorem for every n."""
    spec = tmp_path / "stealth.toml"
    spec.write_text(STEALTH)
    code, out, err = run_cli(capsys, "certify", str(spec), "--every-d", "--no-pdf", "--out", str(tmp_path))
    assert code == 2 and "needs the term sigmoid(q{i} - q{j}) itself" in err and not list(tmp_path.glob("*.json"))
    forged = copy.deepcopy(cycles)
    forged["spec"]["source"] = STEALTH  # the genuine certificate with the stealth spec embedded: the statement layer refuses it
    assert "def:F" in failures(forged)


def test_a_slice_substitution_of_huge_degree_is_refused_in_the_kernel(paw):
    cert = copy.deepcopy(paw)
    entry = claim(cert, "lower:slices")["evidence"]["shapes"][0]
    entry["omega"] = [x * 200001 for x in entry["omega"]]  # Y stays on one level; Z(x′·y^ω) would have degree ~4·10^5
    with pytest.raises(SchemaError, match="degree of Z"):
        verify_certificate(cert)
