"""`headfusion export --coq`: the exported file, its determinism, bad input, and coqc on a corpus.

The coqc tests (marked slow) check that Coq accepts every exported certificate with exactly the cited lemma
axioms and Coq's axioms of the reals, and that it rejects single-number tamperings and a forged false bound.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from headfusion.api import certify
from headfusion.cli import main
from headfusion.export.coq import LIBRARY, export_coq

COQC = shutil.which("coqc")
needs_coq = pytest.mark.skipif(COQC is None, reason="coqc is not installed (Debian package coq; .ci/run installs it)")
REALS = {"ClassicalDedekindReals.sig_not_dec", "ClassicalDedekindReals.sig_forall_dec",
         "FunctionalExtensionality.functional_extensionality_dep"}  # Coq's own axioms of the real numbers


def _certificate(folder: Path, spec: str, d: int | None = None, name: str = "c") -> dict:
    certify(spec, d=d, out=folder, pdf=False, name=name)
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def w3(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _certificate(tmp_path_factory.mktemp("w3"), "W", 3)


def test_w3_exports_the_theorem_with_its_axioms(w3: dict) -> None:
    out = export_coq(w3)
    assert (out.name, out.lower, out.upper) == ("W_d3", 8, 8)
    assert out.axioms == ["L5_LP", "LC_binomial", "LC_product", "LZ"]
    assert "Theorem main : mstar_eq n F 8." in out.text
    assert out.text.endswith("Print Assumptions main.\n")
    assert export_coq(copy.deepcopy(w3)).text == out.text  # deterministic


@pytest.fixture(scope="module")
def diamond(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _certificate(tmp_path_factory.mktemp("diamond"), DIAMOND)


@pytest.fixture(scope="module")
def paw(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _certificate(tmp_path_factory.mktemp("paw"), PAW)


def test_the_diamond_and_the_paw_export_their_exact_value_with_their_cited_axioms(diamond: dict, paw: dict) -> None:
    out = export_coq(diamond)
    assert (out.lower, out.upper) == (24, 24) and "lower:three-slices" in out.exported
    assert out.axioms == ["L5_terms", "LC_binomial", "LC_product", "LH_hexagon", "LM_terms", "LS_slices", "V3_three_slices"]
    assert "Theorem main : mstar_eq n F 24." in out.text and "Lemma lower_three_slices_e1 : terms_ge 3 shape0_Q 24." in out.text
    out = export_coq(paw)
    assert (out.lower, out.upper) == (14, 14) and "lower:slices" in out.exported
    assert out.axioms == ["LC_binomial", "LC_product", "LH_hexagon", "LM_terms", "LS_slices"]
    assert export_coq(copy.deepcopy(paw)).text == out.text  # deterministic


def test_a_failing_three_slice_instance_is_left_out(diamond: dict) -> None:
    cert = copy.deepcopy(diamond)
    entry = next(c for c in cert["claims"] if c["id"] == "lower:three-slices")["evidence"]["shapes"][0]
    entry["omega"] = [0, 2, 0]  # the root factors now move ω by ±2: V3 does not apply
    out = export_coq(cert)
    assert out.lower == 19 and any(cid == "lower:three-slices" and "ω" in why for cid, why in out.left_out)  # LG: 18 + 1


def test_two_adic_levels_export_and_a_class_is_left_out(tmp_path: Path) -> None:
    cert = _certificate(tmp_path, V2_SUM)
    out = export_coq(cert)
    assert (out.lower, out.upper, out.axioms) == (8, 8, ["LB_bezout", "LC_binomial", "LC_product", "LM_terms", "V2_two_adic"])
    entry = next(c for c in cert["claims"] if c["id"] == "lower:two-adic")["evidence"]["shapes"][0]
    entry.update({"modulus": 8, "class": [[8, 1, 0]]})  # Lemma CD: not exported, so the claim is left out with the reason
    out = export_coq(cert)
    assert out.lower < 8 and any(cid == "lower:two-adic" and "CD" in why for cid, why in out.left_out)


def test_an_entry_whose_division_fails_is_left_out_not_assumed(paw: dict) -> None:
    cert = copy.deepcopy(paw)
    entry = next(c for c in cert["claims"] if c["id"] == "lower:slices")["evidence"]["shapes"][0]
    entry["roots"] = [[1, 2]]  # B(x′·s^ω) = 1 + s^-1 has the root −1 once, not twice: 21 would be false
    out = export_coq(cert)
    assert out.lower == 13 and "lower:slices" not in out.exported  # LG: 12 + 1
    assert any(cid == "lower:slices" and "does not divide" in why for cid, why in out.left_out)
    entry["roots"], entry["mu"] = [[1, 1]], {"method": "two-adic"}  # a kind of entry not exported: left out with the reason
    assert any(cid == "lower:slices" and "not exported yet" in why for cid, why in export_coq(cert).left_out)


def test_unknown_claim_kinds_are_listed_and_left_out(w3: dict) -> None:
    cert = copy.deepcopy(w3)
    cert["claims"].insert(-1, {"id": "lower:w14", "kind": "lower-bound", "title": "W14", "statement": "$m^*(F)\\ge 99$",
                               "depends_on": [], "evidence": {"anything": 99}})
    out = export_coq(cert)
    assert ("lower:w14", "not exported yet") in out.left_out
    assert "     - lower:w14: not exported yet" in out.text and out.lower == 8  # listed in the header, never assumed


@pytest.mark.parametrize("text", ['x *) Axiom bad : False. (*', 'x " *) Axiom bad : False. (* "', "x (*) Axiom bad : False.",
                                  "x *\u0000) Axiom bad : False."])
def test_certificate_text_never_becomes_coq_commands(w3: dict, text: str) -> None:
    """A claim id or a title that tries to close the header comment (or to open a string inside it) stays inside it."""
    cert = copy.deepcopy(w3)
    cert["claims"].insert(-1, {"id": text, "kind": "lower-bound", "title": "x", "statement": "", "depends_on": [], "evidence": {}})
    cert["spec"]["title"] = text
    out = export_coq(cert)
    header, _, rest = out.text.partition("*)\n")
    assert header.count("Axiom bad") == 2 and "Axiom bad" not in rest  # the title and the left-out id, both in the comment
    assert '"' not in header and header.count("(*") == 1 and "*)" not in header


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, w3: dict, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    weighted = copy.deepcopy(w3)
    weighted["model"]["heads"][0]["atoms"][0]["weight"] = "exp(1/2)"
    (tmp_path / "weighted.json").write_text(json.dumps(weighted), encoding="utf-8")
    for argv in (["export", "--coq", str(bad)], ["export", "--coq", str(tmp_path / "missing.json")],
                 ["export", str(bad)], ["export", "--coq", str(tmp_path / "weighted.json"), "--out", str(tmp_path / "o")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("headfusion: error:") and "Traceback" not in err


def test_cli_writes_the_library_and_prints_the_command(tmp_path: Path, w3: dict, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "W_d3.json"
    path.write_text(json.dumps(w3), encoding="utf-8")
    assert main(["export", "--coq", str(path), "--out", str(tmp_path / "coq")]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == " && ".join(f"coqc -Q . HF {f}" for f in (*LIBRARY, "W_d3.v"))
    assert sorted(p.name for p in (tmp_path / "coq").iterdir()) == sorted((*LIBRARY, "W_d3.v"))
    assert main(["export", "--coq", str(path), "--out", str(tmp_path / "coq"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["file"], data["lower"], data["upper"], data["left_out"]) == ("W_d3.v", 8, 8, [])
    every = dict(w3, spec={**w3["spec"], "every_d": True})
    path.write_text(json.dumps(every), encoding="utf-8")
    assert main(["export", "--coq", str(path), "--out", str(tmp_path / "coq")]) == 2  # the theorem for every d: refused
    assert "every d" in capsys.readouterr().err


# ---------------------------------------------------------------- coqc (slow)

def _coqc(folder: Path, name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COQC, "-Q", ".", "HF", name], cwd=folder, capture_output=True, text=True, timeout=900)  # type: ignore[list-item]


def _library(folder: Path) -> None:
    source = Path(__file__).resolve().parent.parent / "src" / "headfusion" / "export" / "coq"
    folder.mkdir(parents=True, exist_ok=True)
    for name in LIBRARY:
        shutil.copy(source / name, folder / name)
        assert _coqc(folder, name).returncode == 0, name


def assumptions(output: str) -> set[str]:
    """The names `Print Assumptions` lists (one per unindented line after "Axioms:")."""
    _, _, listed = output.partition("Axioms:")
    return {m.group(1) for m in re.finditer(r"^([A-Za-z_][\w.']*)(?:\s*:|$)", listed, re.M)}


PAW = "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q3-q4)"
V2_SUM = "sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)"
DIAMOND = str(Path(__file__).resolve().parent.parent / "proofs" / "tournament_diamond.toml")
CORPUS = [  # (spec, d, the lower bound Coq proves, the upper bound)
    ("W", 3, 8, 8),
    ("W", 8, 256, 256),
    ("sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1)", None, 7, 7),  # a tree at m = 6 (its leaves use the OUT rule)
    ("sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1) + sigmoid(6*q1)", None, 12, 12),  # the uniform head, a tree at m = 11
    ("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None, 7, 7),  # Lemma LE
    ("proofs/tournament_diamond.toml", None, 24, 24),  # Lemma V3 (with LS, LH, L5 inside) and LM
    (PAW, None, 14, 14),  # Lemma LS (with LH inside) and LM
    (V2_SUM, None, 8, 8),  # Lemma V2 and LM
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if COQC is None:
        pytest.skip("coqc is not installed (Debian package coq; .ci/run installs it)")
    folder = tmp_path_factory.mktemp("coq")
    _library(folder)
    return folder


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("spec", "d", "lower", "upper"), CORPUS)
def test_coqc_accepts_the_corpus_with_exactly_the_cited_axioms(library: Path, tmp_path: Path, spec: str, d: int | None,
                                                               lower: int | None, upper: int) -> None:
    root = Path(__file__).resolve().parent.parent
    out = export_coq(_certificate(tmp_path, str(root / spec) if spec.endswith(".toml") else spec, d))
    assert (out.lower, out.upper) == (lower, upper)
    (library / f"{out.name}.v").write_text(out.text, encoding="utf-8")
    run = _coqc(library, f"{out.name}.v")
    assert run.returncode == 0, run.stderr[-2000:]
    assert assumptions(run.stdout) == REALS | set(out.axioms)


def _tamper(text: str, anchor: str, old: str, new: str) -> str:
    """Change the first `old` after `anchor` into `new` (one number)."""
    at = text.index(anchor)
    hit = text.index(old, at)
    return text[:hit] + new + text[hit + len(old):]


def assert_coqc_rejects(library: Path, stem: str, text: str) -> None:
    """coqc fails on the file `stem`.v with this text (written into the library's folder)."""
    (library / f"{stem}.v").write_text(text, encoding="utf-8")
    assert _coqc(library, f"{stem}.v").returncode != 0, stem


def assert_tamperings_rejected(library: Path, stem: str, text: str, tamperings: list[tuple[str, str, str]]) -> None:
    """The untouched file passes coqc, and each single-number change (anchor, old, new) makes it fail."""
    (library / f"{stem}.v").write_text(text, encoding="utf-8")
    assert _coqc(library, f"{stem}.v").returncode == 0  # the untouched file passes
    for i, (anchor, old, new) in enumerate(tamperings):
        changed = _tamper(text, anchor, old, new)
        assert changed != text, (anchor, old, new)
        assert_coqc_rejects(library, f"{stem}_{i}", changed)


TAMPER_W3 = [  # (anchor, old, new): each changes one number of W_3's file
    ("Definition shape0_P", "1%Q", "2%Q"),  # a coefficient of P'_B
    ("Definition shape0_Q", "([1], 1%Q)", "([1], 3%Q)"),  # a coefficient of Q'_B
    ("shape0_P shape0_Q [([0]", "1%Q", "2%Q"),  # a cofactor H_B
    ("[BH 0", "[[1]; [0]]", "[[2]; [0]]"),  # a lattice exponent of an atom
    ("Blk [[", "1%Q", "2%Q"),  # a lattice generator
    ("Definition shape0_u", "1%Q", "2%Q"),  # the unit of the factorisation
    ("LC_binomial 1 shape0_P shape0_f0", "[1]", "[2]"),  # η of the binomial remainder
    ("Definition shape0_V", ":= 2.", ":= 3."),  # a Newton count
    ("Theorem lower_newton", "F 8", "F 9"),  # the bound
    ("Definition block_heads", "] 1%Q 0%Q", "] 2%Q 0%Q"),  # a weight of the construction
    ("Definition block_heads", "] 1%Q 1%Q", "] 1%Q 2%Q"),  # a value of the construction
    ("Theorem upper", "F 8", "F 7"),  # the construction's size
    ("Definition heads", "QA [1%Q", "QA [2%Q"),  # a key of the model
    ("Definition heads", "] 1%Q 1%Q;", "] 1%Q 3%Q;"),  # a value of the model
    ("Definition n ", ":= 3.", ":= 4."),  # the dimension
]
TAMPER_DIAMOND = [  # Lemma V3 with LS, LH and L5 entries: each changes one number of the diamond's file
    ("Definition lower_three_slices_e1_A", "2%Q", "3%Q"),  # a coefficient of Y
    ("Definition lower_three_slices_e1_G", "[[1; 0; 1]", "[[1; 0; 2]"),  # a row of Γ (Γε ≠ 0)
    ("Proof. refine (V3_three_slices", "[0; 1; 0] lower_three_slices_e1_G", "[0; 2; 0] lower_three_slices_e1_G"),  # ω
    ("Proof. refine (V3_three_slices", " 7 3 4 ", " 7 3 5 "),  # ϑ
    ("Proof. refine (V3_three_slices", " 7 3 4 ", " 7 4 4 "),  # 𝒯_Γ
    ("Proof. refine (V3_three_slices", "([1; 0; 0], 1%Q)]", "([1; 0; 0], 2%Q)]"),  # a coefficient of f_2
    ("theta4_ok _ _ _ _ _", "1%Q", "2%Q"),  # the quotient by the line factor 1 + z
    ("Lemma lower_three_slices_e1 ", "24.", "25."),  # the V3 bound
    ("Proof. refine (LS_slices", "[(1%Q, 2%nat)]", "[(2%Q, 2%nat)]"),  # a root ρ
    ("Proof. refine (LS_slices", "[1%Q; 1%Q] [(1%Q", "[3%Q; 1%Q] [(1%Q"),  # the point x′ (B(x′·s) = (1 + 3s)²: root −1/3)
    ("Definition lower_three_slices_e3_B", "2%Q", "3%Q"),  # a coefficient of the slices' B
    ("Proof. refine (LH_hexagon", "([0; 0; 1], 1%Q)]", "([0; 0; 1], 2%Q)]"),  # a hexagon binomial's ratio
    ("Lemma lower_three_slices_e4 ", " 1.", " 2."),  # a vertex count
    ("Theorem lower_three_slices", "F 24", "F 25"),  # LM's product
]
TAMPER_PAW = [  # Lemma LS with LH
    ("Definition lower_slices_e1_B", "([0; 0; 1], 1%Q)", "([0; 0; 1], 2%Q)"),  # a coefficient of B
    ("Proof. refine (LS_slices", "[-1; -1; -1]", "[-1; -1; 0]"),  # ω (A is not on one level)
    ("Proof. refine (LS_slices", "[(1%Q, 1%nat)]", "[(1%Q, 2%nat)]"),  # a root's multiplicity
    ("Proof. refine (LS_slices", "[([0; 0; 0], 1%Q)]", "[([0; 0; 0], 2%Q)]"),  # the unit u
]
TAMPER_V2 = [  # Lemma V2: σ(q) + σ(2q) + σ(8q)
    ("Proof. refine (V2_two_adic", "(8, 1%Q)", "(4, 1%Q)"),  # a level's exponent (1 + x^4 does not divide)
    ("Proof. refine (V2_two_adic", "(2, 1%Q)", "(2, 2%Q)"),  # a level's weight
    ("apply (divides_by_ok 1 _ _ [([0], 1%Q); ([2]", "([2], 1%Q)", "([2], 2%Q)"),  # a quotient's coefficient
]
TAMPER_TREE = [  # σ(q1) + σ(2q1) + σ(3q1): the tree at m = 6 and its evidence
    ("Definition search_m6_multipliers", "Dz [0] 2", "Dz [0] 3"),  # a Farkas multiplier
    ("Definition search_m6_multipliers", "Nz [3] (-1)", "Nz [3] (-2)"),  # another multiplier
    ("Definition search_m6_tree", "(S1 0 ", "(S1 9 "),  # a split point
    ("Definition search_m6_tree", "(Farkas 5)", "(Farkas 4)"),  # a leaf's vector
    ("Definition search_m6_tree", "(Layer 0)", "(Layer 1)"),  # a leaf's coordinate
    ("Lemma search_m6_replays", "6%nat", "7%nat"),  # the m of the box
    ("Theorem lower_search_m6", "F 7", "F 8"),  # the bound
    ("LB_bezout 1 shape0_P shape0_f0 [1]", "[([-1], (-1)%Q)]", "[([-1], (-2)%Q)]"),  # a Bézout coefficient
]


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_every_single_number_tampering(library: Path, tmp_path: Path) -> None:
    cases = [(export_coq(_certificate(tmp_path / "a", "W", 3)).text, TAMPER_W3),
             (export_coq(_certificate(tmp_path / "b", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1)")).text, TAMPER_TREE),
             (export_coq(_certificate(tmp_path / "c", DIAMOND)).text, TAMPER_DIAMOND),
             (export_coq(_certificate(tmp_path / "d", PAW)).text, TAMPER_PAW),
             (export_coq(_certificate(tmp_path / "e", V2_SUM)).text, TAMPER_V2)]
    assert sum(len(t) for _, t in cases) >= 44
    for k, (text, tamperings) in enumerate(cases):
        assert_tamperings_rejected(library, f"T{k}", text, tamperings)


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_a_forged_false_bound(library: Path, tmp_path: Path) -> None:
    cert = _certificate(tmp_path, "W", 3)
    claims = {c["id"]: c for c in cert["claims"]}
    # m*(W_3) >= 27 (> 8, false), the evidence edited to match: three "vertices" of Newt(1 + x), one of them x^2
    claims["lower:newton"]["evidence"] = {"shapes": [{"method": "vertices", "vertices": [[[0], [-1]], [[1], [1]], [[2], [1]]]}]}
    claims["theorem"]["evidence"].update({"lower": 27, "minimum": None, "status": "bounds"})
    out = export_coq(cert)
    assert out.lower == 27
    assert_coqc_rejects(library, "Forged", out.text)
    tree = _certificate(tmp_path / "t", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1)")
    for claim in tree["claims"]:
        if claim["id"] == "search:m6":
            claim["id"], claim["evidence"]["atoms"] = "search:m7", 7  # m* >= 8, false: the same tree over a larger box
    out = export_coq(tree)
    assert out.lower == 8
    assert_coqc_rejects(library, "ForgedTree", out.text)
    # the diamond: m* >= 27 (> 24 = the construction, false), Y's hexagon entry replaced by eight "vertices" of Y
    diamond = _certificate(tmp_path / "dia", DIAMOND)
    entry = next(c for c in diamond["claims"] if c["id"] == "lower:three-slices")["evidence"]["shapes"][0]
    support = sorted(e[:3] for e, _ in entry["A"])
    entry["mu"] = {"method": "vertices", "vertices": [[e, [1, 0, 0]] for e in support] + [[[3, 0, 0], [1, 0, 0]]]}
    out = export_coq(diamond)
    assert out.lower == 27  # min(4·8, 3·8 + 3, 2·8 + max(8, 4·3))
    assert_coqc_rejects(library, "ForgedDiamond", out.text)


@needs_coq
@pytest.mark.slow
def test_the_library_theorems_rest_on_no_lemma_axiom(library: Path) -> None:
    """The construction, the exp-form identity and the tree replay are proved: only Coq's axioms of the reals."""
    for theorem in ("HFUpper.upper_sound", "HFSem.expform_sound", "HFTree.replay_sound", "HFTree.refutation_sound"):
        (library / "Chk.v").write_text(f"From HF Require Import HFSem HFUpper HFTree.\nPrint Assumptions {theorem}.\n", encoding="utf-8")
        run = _coqc(library, "Chk.v")
        assert run.returncode == 0 and assumptions(run.stdout) <= REALS, (theorem, run.stdout[-500:])
