"""`export --coq` of refutation trees with image and interior leaves (issue 40's acceptance case).

σ(q1) + σ(q2) + σ(q1 + q2) is decided by Lemma LE without a tree; with `certify --trees-only` (lemmas=False) the
search starts at the Newton bound m = 6 = V, so its tree has interior leaves (Lemma LT) and, q1 ↔ q2 being a symmetry, image leaves.  Coq replays
both kinds with HFTree.replay, whose soundness is a theorem; interior leaves cite the one axiom LT_interior.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from headfusion.algebra.expform import combined_polys, exponential_form
from headfusion.export.coq import export_coq
from headfusion.kernel.refutation import replay
from headfusion.proof.certify import certify
from headfusion.solving.refute import refute
from headfusion.spec.errors import InputError
from headfusion.spec.load import load_spec

from .conftest import HANG_GUARD, run_cli
from .test_export_coq import COQC, REALS, _coqc, _library, assert_tamperings_rejected, assumptions, needs_coq

TRIANGLE = "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)"
SWAP_SYMMETRIC = "sigmoid(q1 + q2) + sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2 + q3) + sigmoid(q3)"  # q1 <-> q2
TREE_AXIOMS = ["LC_binomial", "LC_product", "LR_box", "LT_interior"]


@pytest.fixture(scope="module")
def tight() -> dict:
    """The tree certificate at m = 6 = V (the API with lemmas=False: the CLI's certificate is decided by LE)."""
    return certify(load_spec(TRIANGLE), ["test"], search_timeout=HANG_GUARD, lemmas=False).certificate


def test_certify_trees_only_makes_this_certificate(tight: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's --trees-only is the API's lemmas=False: the same claims, the lower bound by the tree alone."""
    import json

    code, _, err = run_cli(capsys, "certify", TRIANGLE, "--trees-only", "--out", str(tmp_path), "--name", "t", "--no-pdf", "-q")
    assert code == 0, err
    cert = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert cert["claims"] == tight["claims"]
    assert {c["id"] for c in cert["claims"]} >= {"lower:newton", "search:m6"} and "lower:edges" not in {c["id"] for c in cert["claims"]}
    code, _, err = run_cli(capsys, "certify", "W", "--every-d", "--trees-only", "--out", str(tmp_path))
    assert code == 2 and "--trees-only" in err and len(err.strip().splitlines()) == 1


def _tree(cert: dict) -> list:
    return next(c for c in cert["claims"] if c["id"] == "search:m6")["evidence"]["tree"]


def test_the_tree_has_both_leaf_kinds_and_exports_them(tight: dict) -> None:
    kinds = {node[0] for node in _tree(tight)}
    assert {"image", "interior"} <= kinds
    out = export_coq(tight)
    assert (out.lower, out.upper, out.left_out) == (7, 7, [])
    assert out.axioms == TREE_AXIOMS and "search:m6" in out.exported
    assert "(Image 0 0)" in out.text and "(Keep (Interior [1; 1]" in out.text
    assert "Definition search_m6_symmetries : list (list nat * Q) := [([1%nat; 0%nat], 1%Q)]." in out.text
    assert "tree_bound_tight n F c search_m6_B 6 shape0_V" in out.text
    assert export_coq(copy.deepcopy(tight)).text == out.text  # deterministic


def test_interior_leaves_need_the_exported_newton_count(tight: dict) -> None:
    cert = copy.deepcopy(tight)
    newton = next(c for c in cert["claims"] if c["id"] == "lower:newton")
    newton["evidence"]["shapes"][0]["method"] = "unknown"  # the count is not exported: the tree cannot use V
    out = export_coq(cert)
    assert "search:m6" not in out.exported and "LT_interior" not in out.axioms
    assert any(cid == "search:m6" and "lower:newton" in why for cid, why in out.left_out)


def test_a_tree_without_interior_leaves_does_not_cite_LT(tight: dict) -> None:
    cert = copy.deepcopy(tight)
    tree = _tree(cert)
    for node in tree:  # any tree without interior leaves (this one does not close, which Coq would say; the text is what we read)
        if node[0] == "interior":
            node[:] = ["count"]
    out = export_coq(cert)
    assert "LT_interior" not in out.axioms and "LR_box" in out.axioms
    assert "tree_bound n F c search_m6_B 6 search_m6_multipliers" in out.text


def test_a_cyclic_tree_is_refused(tight: dict) -> None:
    cert = copy.deepcopy(tight)
    _tree(cert)[1][2] = 0  # a split whose OUT child is the root
    with pytest.raises(InputError, match="reached twice"):
        export_coq(cert)


# ---------------------------------------------------------------- coqc (slow)

@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if COQC is None:
        pytest.skip("coqc is not installed (Debian package coq; .ci/run installs it)")
    folder = tmp_path_factory.mktemp("coq_leaves")
    _library(folder)
    return folder


TAMPER_LEAVES = [  # (anchor, old, new): each changes one number of the tree's image or interior leaves or their data
    ("Definition search_m6_symmetries", "[1%nat; 0%nat]", "[0%nat; 1%nat]"),  # the identity: a symmetry, but not onto the leaf
    ("Definition search_m6_symmetries", "[1%nat; 0%nat]", "[1%nat; 1%nat]"),  # not a permutation
    ("Definition search_m6_symmetries", "1%Q)]", "2%Q)]"),  # λ: Q'∘π ≠ 2·Q'
    ("Definition search_m6_tree", "(Image 0 0)", "(Image 1 0)"),  # the target: no second fact recorded yet
    ("Definition search_m6_tree", "(Image 0 0)", "(Image 0 1)"),  # the symmetry: there is one
    ("(Split [1; 2] (Split [2; 1] (Farkas 3) (Image 0 0))", "[2; 1]", "[2; 2]"),  # a point of the image leaf's sides
    ("(Split [1; 0] (Farkas 2) (Split [1; 2]", "[1; 2]", "[2; 2]"),  # a point of the target's sides
    ("Definition search_m6_tree", "(1#2)%Q", "(1#3)%Q"),  # a combination coefficient (Σ ≠ 1)
    ("Definition search_m6_tree", "(Interior [1; 1]", "(Interior [0; 1]"),  # the interior point
    ("Definition search_m6_tree", "[([1; 0], (1#2)%Q)", "[([0; 0], (1#2)%Q)"),  # a point of the combination
    ("Lemma search_m6_replays", "6%nat shape0_V", "6%nat 5"),  # V < m: no interior leaf
]


@needs_coq
@pytest.mark.slow
def test_coqc_accepts_image_and_interior_leaves_with_exactly_the_cited_axioms(library: Path, tight: dict) -> None:
    out = export_coq(tight)
    (library / f"{out.name}.v").write_text(out.text, encoding="utf-8")
    run = _coqc(library, f"{out.name}.v")
    assert run.returncode == 0, run.stderr[-2000:]
    assert assumptions(run.stdout) == REALS | set(TREE_AXIOMS)


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_every_tampered_image_or_interior_leaf(library: Path, tight: dict) -> None:
    text = export_coq(tight).text
    assert len(TAMPER_LEAVES) >= 6
    assert_tamperings_rejected(library, "L", text, TAMPER_LEAVES)


@needs_coq
@pytest.mark.slow
def test_the_tree_bounds_cite_LT_only_with_interior_leaves(library: Path) -> None:
    """tree_bound rests on LR_box alone; tree_bound_tight on LR_box and LT_interior; the replay on no lemma axiom."""
    expected = {"HFTreeAxioms.tree_bound": {"LR_box"}, "HFTreeAxioms.tree_bound_tight": {"LR_box", "LT_interior"},
                "HFTree.replay_sound": set(), "HFTree.image_sound": set(), "HFTree.interior_sound": set()}
    for theorem, axioms in expected.items():
        (library / "ChkT.v").write_text(f"From HF Require Import HFTree HFAxioms HFTreeAxioms.\nPrint Assumptions {theorem}.\n", encoding="utf-8")
        run = _coqc(library, "ChkT.v")
        assert run.returncode == 0 and assumptions(run.stdout) - REALS == axioms, (theorem, run.stdout[-500:])


@needs_coq
@pytest.mark.slow
def test_coqc_replays_many_image_leaves_over_three_coordinates(library: Path) -> None:
    """The refuter's tree at m = 3 for a q1 ↔ q2 symmetric sum (14 image leaves), added to its certificate as a claim."""
    spec = load_spec(SWAP_SYMMETRIC)
    cert = certify(spec, ["test"], search_timeout=HANG_GUARD, lemmas=False).certificate
    P, Q = combined_polys(exponential_form(spec.model))
    evidence = refute(P.terms, Q.terms, 3, deadline=None).evidence
    assert replay(P.terms, Q.terms, 3, evidence)["image"] >= 10 and evidence["symmetries"] == [[1, 0, 2]]
    cert["claims"].insert(-1, {"id": "search:m3", "kind": "lower-bound", "title": "a tree", "statement": "m* >= 4",
                               "depends_on": [], "evidence": dict(evidence, atoms=3)})
    out = export_coq(cert)
    assert "search:m3" in out.exported and "Theorem lower_search_m3 : mstar_ge n F 4." in out.text
    (library / "Swap.v").write_text(out.text, encoding="utf-8")
    run = _coqc(library, "Swap.v")
    assert run.returncode == 0, run.stderr[-2000:]
