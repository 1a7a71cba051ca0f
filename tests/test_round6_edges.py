"""Issue 41 (round 6), items 9, 13–16 at the edges: limits named, commands recommended that can answer, parity."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from headfusion.bounds.engine import function_bounds
from headfusion.kernel.base import SchemaError
from headfusion.proof.replay import certificate_cost
from headfusion.spec.load import load_spec

from .conftest import HANG_GUARD, built, claim, run_cli

ROOT = Path(__file__).resolve().parent.parent


# -- item 9 --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ranges", [("a=1..10000000", "b=1..2"), ("a=1..3", "b=a+12345678..9")])
def test_an_atlas_bound_beyond_the_largest_value_names_the_limit(capsys, ranges) -> None:
    """`atlas … a=1..10000000` said "a bound is an integer …, got '10000000'": the limit is named."""
    code, _, err = run_cli(capsys, "atlas", "sigmoid(a*q1) + sigmoid(b*q1)", *ranges)
    assert code == 2 and "at most 1,000,000" in err and "7 digits" in err and "is an integer" not in err, err


def test_a_range_of_ten_million_values_is_refused_before_its_points_are_made(capsys) -> None:
    code, _, err = run_cli(capsys, "atlas", "sigmoid(a*q1) + sigmoid(b*q1)", "a=1..1000000", "b=1..2")
    assert code == 2 and "more than 10000 points" in err, err


@pytest.fixture(scope="module")
def diamond() -> dict:
    return built("proofs/tournament_diamond.toml", None)


def test_the_three_slice_division_is_in_verifys_cost_model(diamond) -> None:
    """The division of A by its line factor 1 + (λ_1/λ_2)x^ε (Lemma V3) was bounded only by the kernel's box limit:
    a 400 × 400 box and a 1,000-digit λ is refused by the cost model, before any replay, with the limit named."""
    certificate_cost(diamond)  # the real certificate is far below the limit
    forged = copy.deepcopy(diamond)
    entry = claim(forged, "lower:three-slices")["evidence"]["shapes"][0]
    entry["A"] = [[[0, 0, 0, 0], 1], [[400, 0, 400, 0], 1]]
    entry["f"][0][1][1] = 10**1000
    with pytest.raises(SchemaError, match="line-factor divisions of the three-slice claims"):
        certificate_cost(forged)


def test_search_atoms_uses_lemma_r_as_certify_does(capsys) -> None:
    """`search --atoms M` answered from the engine's bound (here LE: 7) and left m = 7 to z3's testimony, while certify
    proves 8 on a line (Lemma R, a one-dimensional refutation tree): search now asks the line too, and the kernel checks."""
    text = "sigmoid(q2) + sigmoid(q1 - 2*q2) + sigmoid(q1 + q2)"
    code, out, err = run_cli(capsys, "search", text, "--atoms", "7", "--json", "-q", "--timeout", str(HANG_GUARD))
    result = json.loads(out)
    assert code == 0 and result["answer_kind"] == "proved" and result["status"] == "unsat", out
    assert result["proof"]["lemma"] == "R" and result["proof"]["lower_bound"] == 8 and result["proof"]["kernel_checked"]
    assert function_bounds(load_spec(text).model).form.upper_bound == 8  # the product head: the bound is the truth


# -- item 14 -------------------------------------------------------------------------------------------------------

def _long_sum(n: int) -> str:
    """n terms with signs, scales, nested brackets and a unary minus: '- 2*sigmoid(q1 - q2) + 1/3*tanh(...)…'."""
    terms = []
    for i in range(n):
        sign = " - " if i % 3 == 1 else " + "
        head = f"sigmoid(q{i % 7 + 1} - 2*q{i % 5 + 1})" if i % 2 else f"attn([0, q{i % 4 + 1}], [1, -{i % 9 + 1}])"
        terms.append(("-" if i == 0 else sign) + (f"{i % 4 + 1}/3*{head}" if i % 4 else head))
    return "".join(terms).strip()


def test_a_3000_term_flat_sum_is_read(capsys) -> None:
    """A 3,000-term flat sum was refused as "too deeply nested or malformed" (Python's parser gives up near 3,000
    nested additions): it is now split at its top-level + and − and read as the same sum."""
    from headfusion.spec.expressions import parse_expression

    text = " + ".join(f"sigmoid(q{i})" for i in range(1, 3001))
    model = parse_expression(text)
    assert len(model.heads) == 3000 and model.dimension == 3000
    code, out, err = run_cli(capsys, "analyze", text, "--json", "--no-atoms-list", "-q")
    assert code == 0, err
    assert json.loads(out)["lower_bound"] == json.loads(out)["upper_bound"] == 2**3000


def test_the_split_reads_the_same_sum_as_the_parser() -> None:
    """Below the parser's limit, the groups of spec/flatsum.py summed give exactly the model of the whole text."""
    from headfusion.spec.expressions import _Evaluator, _add, _as_combination, _parse, parse_expression
    from headfusion.spec.flatsum import sum_groups

    text = _long_sum(1200)
    groups = sum_groups(text)
    assert groups is not None and len(groups) == 3 and groups[1].startswith(("-", "sigmoid", "attn", "2/3", "3/3", "4/3"))
    value = None
    for group in groups:
        part = _Evaluator(group).value(_parse(group).body)
        value = part if value is None else _add(value, part, 1)
    assert _as_combination(value) == _as_combination(_Evaluator(text).value(_parse(text).body))
    assert parse_expression(text) == parse_expression(" + ".join(f"({g})" for g in groups))


@pytest.mark.parametrize("text", ["(" * 300 + "sigmoid(q1)" + ")" * 300, "*".join(["2"] * 3000) + "*sigmoid(q1)"])
def test_deep_nesting_names_the_parsers_limit(capsys, text) -> None:
    code, _, err = run_cli(capsys, "analyze", text)
    assert code == 2 and "nested too deeply for Python's parser" in err and "flat sum" in err and "malformed" not in err, err


# -- item 15 -------------------------------------------------------------------------------------------------------

def test_the_k4_refusal_recommends_only_commands_that_can_answer(capsys) -> None:
    """`search K_4 --atoms 32 --refute` recommended `search … --atoms 32`, whose z3 box (830,584 points) is over its limit
    (it answers "unknown: the box has 830,584 points"): only certify is named now."""
    code, _, err = run_cli(capsys, "search", str(ROOT / "proofs" / "tournament_complete.toml"), "--d", "4", "--atoms", "35",
                           "--refute")  # K35 proves 35: the first m left open
    assert code == 2 and "1,000,000 points" in err and "certify" in err, err
    assert "--atoms 35` asks z3" not in err, err


def analyze_names_the_family_theorem(capsys, b: int) -> None:
    """`analyze "sigmoid(q1)+sigmoid(b*q1)"` (P′ of degree b > 2048) proves 4 and names Theorem P, not a certify that refuses."""
    from headfusion.algebra.expform import exponential_form
    from headfusion.proof.evidence import bezout_refusal, coprimality_evidence
    from headfusion.spec.errors import ResourceLimit

    text = f"sigmoid(q1)+sigmoid({b}*q1)"
    code, out, err = run_cli(capsys, "analyze", text, "--json", "--no-atoms-list", "-q")
    result = json.loads(out)
    assert code == 0 and result["minimum"] == 4 and result["answer_kind"] == "proved", err
    assert result["next"] == 'headfusion certify "sigmoid(a*q1) + sigmoid(b*q1)" --every a,b'
    assert f"Bezout identity with P' of degree {b} (limit 2048)" in result["certify_refusal"]
    with pytest.raises(ResourceLimit, match=f"degree {b} \\(limit 2048\\)"):  # certify's own step refuses the same
        coprimality_evidence(exponential_form(load_spec(text).model))
    assert bezout_refusal(exponential_form(load_spec("sigmoid(q1)+sigmoid(2*q1)").model)) is None
    code, out, _ = run_cli(capsys, "analyze", "sigmoid(q1)+sigmoid(2*q1)", "--json", "--no-atoms-list", "-q")
    assert json.loads(out)["next"] == "headfusion certify 'sigmoid(q1)+sigmoid(2*q1)'"


def test_analyze_names_the_family_theorem_when_certify_would_refuse_the_member(capsys) -> None:
    """`analyze "sigmoid(q1)+sigmoid(30030*q1)"` proved 4 and named a certify that refuses: the refusal is read off the
    factors (the same limit as certify's Bézout step) and the pair's family theorem (Theorem P) is named instead.
    Here just over the limit (b = 2050); b = 2310 (more factors, a longer search for multiples) is the slow twin."""
    analyze_names_the_family_theorem(capsys, 2050)


@pytest.mark.slow
def test_analyze_names_the_family_theorem_for_a_member_with_many_factors(capsys) -> None:
    analyze_names_the_family_theorem(capsys, 2310)


def test_readme_does_not_promise_a_certify_that_refuses() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "answers in about 2 s (2 ≤ m* ≤ 4)" not in readme
    assert '`certify "sigmoid(a*q1) + sigmoid(b*q1)" --every a,b` (Theorem P' in readme


# -- item 16 -------------------------------------------------------------------------------------------------------

def test_verify_resolve_does_not_recommend_itself(capsys, tmp_path) -> None:
    """After `verify --resolve` the next step is the refutation that would turn the testimony into a proof."""
    from headfusion.cli.verify import refute_step, verification_answer

    cert = built("W", 2)
    cert["metadata"]["command"] = ["headfusion", "certify", "sigmoid(q1) + sigmoid(2*q1)", "--search-timeout", "9"]
    rows = [{"id": "theorem", "outcome": "checked"}, {"id": "testimony:m3", "outcome": "testimony"}]
    before = verification_answer(True, "m^*(F)=4", cert["summary"], rows, "c.json")
    assert before["next"] == "headfusion verify c.json --resolve"
    after = verification_answer(True, "m^*(F)=4", cert["summary"], rows, "c.json", None, refute_step(cert, rows))
    assert after["next"] == "headfusion search 'sigmoid(q1) + sigmoid(2*q1)' --atoms 3 --refute"


@pytest.mark.parametrize("argv,words", [
    (("analyze", "W", "--d", "2", "--jsn"), "did you mean '--json'?"),
    (("search", "W", "--d", "2", "--atom", "3"), "did you mean '--atoms'?"),
    (("analyze", "2q1 + sigmoid(q1)"), "(write 2*q1: a product needs *)"),
    (("analyze", "sigmoid(1.5q1)"), "(write 1.5*q1: a product needs *)"),
])
def test_typos_name_what_was_meant(capsys, argv, words) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and words in err, err


def test_title_under_function_says_where_it_belongs(capsys, tmp_path) -> None:
    spec = tmp_path / "t.toml"
    spec.write_text('[function]\nexpression = "sigmoid(q1)"\ntitle = "mine"\n')
    code, _, err = run_cli(capsys, "analyze", str(spec))
    assert code == 2 and "unknown key 'title' in [function]" in err and "belongs at the top level" in err, err


def test_d_with_an_expression_is_said(capsys) -> None:
    code, _, err = run_cli(capsys, "analyze", "sigmoid(q1)", "--d", "3")
    assert code == 0 and "note: --d 3 with an expression only sets the dimension" in err and "q2..q3" in err, err
    code, _, err = run_cli(capsys, "analyze", "sigmoid(q1) + sigmoid(q3)", "--d", "3")
    assert code == 0 and "note" not in err


def test_next_repeats_a_long_spec_instead_of_a_placeholder(capsys) -> None:
    text = " + ".join(f"sigmoid(q{i})" for i in range(1, 41))  # 40 heads: more than 200 characters
    code, out, _ = run_cli(capsys, "analyze", text, "--json", "--no-atoms-list", "-q")
    data = json.loads(out)
    assert code == 0 and data["next"] == f"headfusion certify '{text}'" and "SPEC" not in data["next"]


def test_certify_name_says_when_it_replaces_another_functions_certificate(capsys, tmp_path) -> None:
    base = ("--name", "mine", "--out", str(tmp_path), "--no-pdf", "-q")
    assert run_cli(capsys, "certify", "W", "--d", "2", *base)[0] == 0
    code, _, err = run_cli(capsys, "certify", "sigmoid(q1)+sigmoid(2*q1)", *base)
    assert code == 0 and "note: replacing" in err and "another function" in err and "W_2" in err, err
    code, _, err = run_cli(capsys, "certify", "sigmoid(q1)+sigmoid(2*q1)", *base)  # the same function again: no note
    assert code == 0 and "replacing" not in err


def test_explore_of_a_graph_family_names_its_parameter_n_and_sets_its_title_as_mathematics(capsys, tmp_path) -> None:
    code, _, err = run_cli(capsys, "explore", str(ROOT / "proofs" / "tournament_cycle.toml"), "--range", "3..4", "--out",
                           str(tmp_path), "--no-pdf", "-q")
    assert code == 0, err
    assert (tmp_path / "tournament_cycle.explore.csv").read_text().startswith("n,heads,")
    figure = (tmp_path / "tournament_cycle.explore.pgf.tex").read_text()
    assert "xlabel={$n$}" in figure and r"$C_{n}$" in figure and r"$\sigma(q_{i}-q_{j})$" in figure
    assert r"sigmoid" not in figure and r"C\_n" not in figure


def test_the_cluster_docs_give_the_loopback_flags_of_a_local_cluster() -> None:
    text = (ROOT / "docs" / "measurements.md").read_text(encoding="utf-8")  # the cluster section ("On a cluster: …")
    assert "dask scheduler --host 127.0.0.1 --port 8786 --dashboard-address 127.0.0.1:0" in text
    assert "dask worker tcp://127.0.0.1:8786 --host 127.0.0.1 --nthreads 1 --no-dashboard" in text


def test_the_python_api_has_the_clis_answer_kinds_refute_every_refutation_and_atlas(tmp_path) -> None:
    import headfusion as hf

    assert hf.analyze("W", 2).answer_kind == "proved"
    assert hf.search("sigmoid(q1) + sigmoid(2*q1)", atoms=4, timeout=HANG_GUARD).answer_kind == "found"
    assert hf.search("sigmoid(q1) + sigmoid(2*q1)", atoms=3, timeout=HANG_GUARD).answer_kind == "testimony"
    refuted = hf.search("sigmoid(q1) + sigmoid(2*q1)", atoms=3, refute=True, timeout=HANG_GUARD)
    assert refuted.status == "unsat" and refuted.answer_kind == "proved" and refuted.data["refutation"]["tree"]
    pair = hf.certify("sigmoid(a*q1) + sigmoid(b*q1)", every="a,b", out=tmp_path / "pair")
    assert pair.answer_kind == "proved" and pair.summary["lower_bound"] == 4 and hf.verify(pair.files["json"]).ok
    supplied = tmp_path / "r.json"
    supplied.write_text(json.dumps({"refutation": refuted.data["refutation"], "atoms": 3, "status": "unsat"}))
    with pytest.raises(hf.InputError, match="a refutation was supplied for m = 3"):  # read and placed as the CLI's:
        hf.certify("sigmoid(q1) + sigmoid(2*q1)", out=tmp_path / "tree", refutation=supplied)  # LK leaves no m open
    grid = hf.atlas("sigmoid(a*q1) + sigmoid(b*q1)", ["a=1..1", "b=2..3"])
    assert [r["minimum"] for r in grid.rows] == [4, 4] and all(c is not None for c in grid.certificates)
