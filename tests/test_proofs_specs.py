"""Every spec in proofs/ certifies (default parameter, no search) and its certificate verifies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from headfusion.proof.certify import certify
from headfusion.proof.statement import verify_certificate
from headfusion.spec.load import load_spec

PROOFS = sorted((Path(__file__).resolve().parent.parent / "proofs").glob("*.toml"))


def test_there_are_specs():
    assert len(PROOFS) >= 10


@pytest.mark.parametrize("path", PROOFS, ids=lambda p: p.stem)
def test_spec_certifies_and_verifies(path):
    spec = load_spec(str(path))
    result = certify(spec, ["headfusion", "certify", str(path), "--no-search"], search=False)
    cert = json.loads(json.dumps(result.certificate))
    summary = cert["summary"]
    assert summary["lower_bound"] <= summary["upper_bound"]
    report = verify_certificate(cert)
    assert report.ok, [r for r in report.rows if r[2] == "failed"]
