"""The trusted checker: produced certificates verify; tampered ones are rejected."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from typing import Callable

import pytest
from hypothesis import given, settings

from headfusion.proof.claims import build_certificate
from headfusion.spec.load import load_spec
from headfusion.checker import verify_certificate

from .conftest import run_cli
from .test_foundation import random_heads


def certificate(spec: str, d: int | None = None) -> dict:
    """A certificate as it is stored: through JSON and back."""
    return json.loads(json.dumps(build_certificate(load_spec(spec, d), ["headfusion", "certify", spec])))


@pytest.fixture(scope="module")
def w3() -> dict:
    return certificate("W", 3)


def claim(cert: dict, cid: str) -> dict:
    return next(c for c in cert["claims"] if c["id"] == cid)


def ev(cert: dict, cid: str) -> dict:
    return claim(cert, cid)["evidence"]


def swap_witnesses(cert: dict) -> None:
    vertices = ev(cert, "lower:newton")["shapes"][0]["vertices"]
    vertices[0][1], vertices[1][1] = vertices[1][1], vertices[0][1]


def drop_claim(cid: str) -> Callable[[dict], None]:
    def mutate(cert: dict) -> None:
        cert["claims"] = [c for c in cert["claims"] if c["id"] != cid]

    return mutate


TAMPERINGS: dict[str, Callable[[dict], None]] = {
    "atom value": lambda c: ev(c, "upper")["atoms_list"][3].update(value=5),
    "atom key": lambda c: ev(c, "upper")["atoms_list"][3].update(key=[0, 1, 2]),
    "atom weight": lambda c: ev(c, "upper")["atoms_list"][3].update(weight=2),
    "drop atom": lambda c: ev(c, "upper")["atoms_list"].pop(),
    "duplicate atom": lambda c: ev(c, "upper")["atoms_list"].append(ev(c, "upper")["atoms_list"][0]),
    "alter witness": lambda c: ev(c, "lower:newton")["shapes"][0]["vertices"][0].__setitem__(1, [1]),
    "swap witnesses": swap_witnesses,
    "alter q witness": lambda c: ev(c, "lower:newton")["vertex_witnesses"][2].update(witness=[1, 1, 1]),
    "raise lower bound": lambda c: ev(c, "lower:newton").update(count=9),
    "raise theorem lower": lambda c: ev(c, "theorem").update(lower_proved=9),
    "lower upper bound": lambda c: ev(c, "upper").update(atoms=7),
    "change function": lambda c: c["spec"].update(d=4),
    "change stored model": lambda c: c["model"]["heads"][0]["atoms"][0].update(value=2),
    "change summary": lambda c: c["summary"].update(minimum=7),
    "summary vertex count": lambda c: c["summary"].update(newton_vertices=9),
    "summary face-limit bound": lambda c: c["summary"].update(face_limit_bound=9),
    "summary head count": lambda c: c["summary"].update(heads=4),
    "delete DAG edge": lambda c: claim(c, "lower:newton")["depends_on"].remove("coprime"),
    "delete claim": drop_claim("coprime"),
    "delete construction": drop_claim("upper"),
    "face-limit bound": lambda c: ev(c, "lower:face")["nodes"][0].update(bound=9),
    "face-limit child": lambda c: ev(c, "lower:face")["nodes"][0].update(minus=len(ev(c, "lower:face")["nodes"]) - 1),
    "face-limit leaf": lambda c: ev(c, "lower:face")["nodes"][0].update(direction=None),
    "P' coefficient": lambda c: ev(c, "exp-form")["shapes"][0]["P_reduced"]["terms"][0].__setitem__(1, 2),
    "Q' extra term": lambda c: ev(c, "exp-form")["shapes"][0]["Q_reduced"]["terms"].append([[2, 0], 1]),
    "factor multiplicity": lambda c: ev(c, "coprime")["shapes"][0]["factors"][0].update(multiplicity=2),
    "drop factor": lambda c: ev(c, "coprime")["shapes"][0]["factors"].clear(),
    "vertex count per shape": lambda c: ev(c, "lower:newton")["shapes"][0].update(count=3),
    "t scale": lambda c: ev(c, "exp-form").update(t_scale=0),
    "basis denominator": lambda c: ev(c, "exp-form")["shapes"][0]["basis"].update(denominator=2),
    "check name": lambda c: claim(c, "coprime").update(check="lemma"),
    "unknown lemma": lambda c: ev(c, "lemma:L5").update(lemma="L9"),
    "duplicate claim id": lambda c: c["claims"].insert(0, copy.deepcopy(claim(c, "lemma:L1"))),
    "theorem status": lambda c: ev(c, "theorem").update(status="bounds", minimum=None),
    "dependency cycle": lambda c: claim(c, "def:F")["depends_on"].append("theorem"),
}


def test_w3_certificate_verifies(w3):
    report = verify_certificate(copy.deepcopy(w3))
    assert report.ok, [r for r in report.results if not r[2]]


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_tampering_is_rejected(w3, name, tmp_path, capsys):
    tampered = copy.deepcopy(w3)
    TAMPERINGS[name](tampered)
    assert tampered != w3
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    code, out, err = run_cli(capsys, "verify", str(path))
    assert code == 1, (name, out, err)
    assert "FAILED" in out  # names the failing claim


def test_unreadable_inputs_exit_2(w3, tmp_path, capsys):
    text = json.dumps(w3)
    cases = {
        "truncated.json": text[: len(text) // 2],
        "not_json.json": "this is not json\n",
        "wrong_shape.json": json.dumps({"format": "headfusion-certificate/1", "claims": "nope"}),
        "list.json": "[1, 2, 3]",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content)
        code, out, err = run_cli(capsys, "verify", str(path))
        assert code == 2, name
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, _, err = run_cli(capsys, "verify", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err


@pytest.mark.parametrize(
    "spec, d",
    [("W", 1), ("W", 5), ("sigmoid(q1) + sigmoid(2*q1)", None), ("sigmoid(q1 - q2) + sigmoid(q2 - q3) + sigmoid(q1 - q3)", None),
     ("sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2 + 1)", None), ("sigmoid(q1) - sigmoid(q1)", None), ("tanh(q1) + tanh(q2)", None)],
)
def test_produced_certificates_verify(spec, d):
    report = verify_certificate(certificate(spec, d))
    assert report.ok, [r for r in report.results if not r[2]]


@settings(max_examples=15, deadline=None)
@given(random_heads(max_heads=3, dimension=2))
def test_random_certificates_verify(text):
    report = verify_certificate(certificate(text))
    assert report.ok, [r for r in report.results if not r[2]]


def test_w12_and_w1000_verify_quickly():
    for d in (12, 1000):
        cert = certificate("W", d)
        start = time.perf_counter()
        assert verify_certificate(cert).ok
        assert time.perf_counter() - start < 30  # the README figure comes from benchmarks/


def test_checker_module_imports_no_solver():
    code = (
        "import sys, headfusion.checker; "
        "bad = [m for m in ('z3', 'headfusion.solver', 'cvc5') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def w3_searched() -> dict:
    from headfusion.proof.certify import certify

    result = certify(load_spec("W", 3), ["headfusion", "certify", "W", "--d", "3"], search=True, search_timeout=60)
    return json.loads(json.dumps(result.certificate))


SEARCH_TAMPERINGS: dict[str, Callable[[dict], None]] = {
    "query hash": lambda c: ev(c, "search:m7").update(query_sha256="0" * 64),
    "search budget": lambda c: ev(c, "search:m7").update(atoms=6),
    "search options": lambda c: ev(c, "search:m7")["options"].update(faces=False),
    "verdict flipped to sat": lambda c: claim(c, "search:m7").update(check="search-sat"),
    "solver lower bound": lambda c: ev(c, "theorem").update(solver_lower=9),
    "series certified row": lambda c: next(r for r in c["series"] if r["d"] == 3).update(lower_bound=7),
    "series cost": lambda c: c["series"][0].update(head_atom_terms=5),
    "series inverted bounds": lambda c: c["series"][0].update(lower_bound=9),
}


def test_searched_certificate_verifies(w3_searched):
    assert any(c["kind"] == "search" for c in w3_searched["claims"])
    report = verify_certificate(copy.deepcopy(w3_searched))
    assert report.ok, [r for r in report.results if not r[2]]


@pytest.mark.parametrize("name", sorted(SEARCH_TAMPERINGS))
def test_search_tampering_is_rejected(w3_searched, name):
    tampered = copy.deepcopy(w3_searched)
    SEARCH_TAMPERINGS[name](tampered)
    report = verify_certificate(tampered)
    assert not report.ok
    assert any(cid.startswith(("search", "theorem", "dag")) for cid, _, ok, _ in report.results if not ok)
