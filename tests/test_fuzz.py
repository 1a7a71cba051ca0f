"""Issue 13: generated expressions, TOML texts, option values and JSON certificates, fed to every
command in-process: the exit code is 0, 1 or 2, stderr never holds a traceback, and a refusal
(exit 2) is one line.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, seed, settings, strategies as st

from headfusion.cli import main

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
QUICK = settings(SETTINGS, max_examples=20)  # the quick suite's share of a fuzz the slow suite runs in full (SETTINGS)
FUZZ_SEED = 13  # a quick fuzz and its slow twin start from one seed: most of the quick one's examples are among the twin's first
WORK = Path(tempfile.mkdtemp(prefix="headfusion-fuzz-"))


def run(*argv: str) -> tuple[int, str, str]:
    """main(argv) in WORK (a relative --out lands there), without LaTeX; (code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(WORK), mock.patch("headfusion.render.files.latex_engine", lambda: None), \
            mock.patch("headfusion.render.write.latex_engine", lambda: None), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def check(code: int, err: str) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and "internal error" not in err, err
    if code == 2:
        assert err.count("\n") == 1, err


# -- expressions -------------------------------------------------------------------------------

variables = st.sampled_from(["q1", "q2", "q3", "q100000", "q100001", "q0", "q1000000000", "x", "e"])
numbers = st.one_of(
    st.integers(-9, 9).map(str),
    st.sampled_from(["0.5", "1/3", "10**50", "10**-3", "2**64", "1e999", "1e-5", "1_000", "0x10", "(-1)**3", "0/0", "3.0e2"]),
)


BINARY = ["{}+{}", "{}-{}", "{}*{}", "{}/{}", "{}**{}", "attn([{}, {}], [1, 0])", "attn([{}], [{}])"]
UNARY = ["({})", "-{}", "sigmoid({})", "tanh({})", "log({})"]


def _combine(children):
    pair = st.tuples(children, children)
    return st.one_of(
        st.tuples(st.sampled_from(BINARY), pair).map(lambda t: t[0].format(*t[1])),
        st.tuples(st.sampled_from(UNARY), children).map(lambda t: t[0].format(t[1])),
    )


expressions = st.recursive(st.one_of(variables, numbers), _combine, max_leaves=8)
coefficients = st.one_of(st.integers(-4, 4).map(str), st.sampled_from(["1/2", "-3/2", "0.25", "2**10", "1/10**3", "10**60"]))
logits = st.lists(st.tuples(coefficients, st.sampled_from(["q1", "q2", "q3", "q100000", "1", "log(2)", "log(1/3)"])),
                  min_size=1, max_size=3).map(lambda terms: "+".join(f"{c}*{v}" for c, v in terms))
heads = st.one_of(
    logits.map(lambda l: f"sigmoid({l})"),
    logits.map(lambda l: f"tanh({l})"),
    st.lists(st.tuples(logits, coefficients), min_size=1, max_size=4).map(
        lambda atoms: f"attn([{', '.join(l for l, _ in atoms)}], [{', '.join(v for _, v in atoms)}])"),
)
well_formed = st.lists(st.tuples(coefficients, heads), min_size=1, max_size=3).map(
    lambda terms: " + ".join(f"{c}*{h}" for c, h in terms))
garbage = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
specs = st.one_of(
    well_formed,
    well_formed,
    expressions,
    expressions.map(lambda e: f"sigmoid({e})"),
    st.tuples(expressions, garbage).map(lambda t: t[0] + t[1]),
    st.tuples(expressions, st.sampled_from(["#", " # c", "\\\n", "\u2212", "\uff51", "\x7f", "\x00", ";", "\n"]))
    .map(lambda t: f"sigmoid(q1){t[1]}{t[0]}"),
    st.sampled_from(["W", "tanh-sum", "sigmoid-sum", "", " ", str(Path(__file__).resolve().parent.parent / "proofs" / "sigmoid_sum.toml"), "missing.toml", "-", "--d"]),
)


@QUICK
@seed(FUZZ_SEED)
@given(spec=specs)
def test_fuzz_analyze_expressions(spec):
    fuzz_analyze(spec)


@pytest.mark.slow
@SETTINGS
@seed(FUZZ_SEED)
@given(spec=specs)
def test_fuzz_analyze_expressions_long(spec):
    fuzz_analyze(spec)


def fuzz_analyze(spec: str) -> None:
    code, _, err = run("analyze", spec, "--no-atoms-list", "--timeout", "3", "--json")
    check(code, err)


# -- option values -------------------------------------------------------------------------------

option_values = st.one_of(
    st.sampled_from(["inf", "-inf", "nan", "0", "-1", "1e999", "3000000", "1", "2", "0.5", "", " ", "1_0", "٣", "1e-400",
                     "99999999999999999999", "2.5", "True", "0x10"]),
    st.integers(-10, 10**7).map(str),
    garbage,
)


@pytest.mark.slow  # about 20 s: the quick suite keeps a share of the verify fuzz
@SETTINGS
@given(command=st.sampled_from(["analyze", "search", "certify", "explore"]),
       option=st.sampled_from(["--d", "--timeout", "--atoms", "--jobs", "--search-timeout", "--range", "--out"]),
       value=option_values, family=st.sampled_from(["W", "tanh-sum", "sigmoid(q1)"]))
def test_fuzz_options(command, option, value, family):
    argv = [command, family]
    if command == "search":
        argv += ["--atoms", "2"] if option != "--atoms" else []
        argv += ["--timeout", "2"] if option != "--timeout" else []
    if command in ("certify", "search", "analyze") and option != "--d" and family != "sigmoid(q1)":
        argv += ["--d", "2"]
    if command == "certify":
        argv += ["--no-search"] + (["--out", str(WORK / "certify")] if option != "--out" else [])
    if command == "explore":
        argv += ["--range", "1..2"] if option != "--range" else []
        argv += ["--out", str(WORK / "explore")] if option != "--out" else []
        argv += ["--timeout", "2"] if option != "--timeout" else []
    argv.append(f"{option}={value}")
    code, _, err = run(*argv)
    check(code, err)


# -- TOML specs ------------------------------------------------------------------------------------

toml_values = st.one_of(
    st.sampled_from(['"j = 1..d"', '"j = 1..3"', '"edges"', '"sigmoid(q{j})"', '"sigmoid(q{j}) # c"', "1e99999999", "1.5",
                     "-3", '"x"', "[1, 2]", "{a = 1}", '"\u03a9"', '"\x7f"', "true", '"j = 0..2"', '"q{j}"', "nan", "inf",
                     '"sigmoid(q{j}*10**60)"', '"tanh(q{j} - q{j+1})"', '"attn([q{j}, 0], [1, 0])"', "1000001", "0"]),
    garbage.map(json.dumps),
)


@st.composite
def toml_texts(draw) -> str:
    name = draw(st.sampled_from(['"t"', '"a b"', "3", '""', '"x/../y"']))
    lines = [f"name = {name}", f"title = {draw(toml_values)}"]
    if draw(st.booleans()):
        lines += ["[parameter]", 'name = "d"', f"min = {draw(toml_values)}", f"max = {draw(toml_values)}",
                  f"default = {draw(toml_values)}"]
    lines += ["[function]", f"sum = {draw(toml_values)}", f"term = {draw(toml_values)}"]
    if draw(st.booleans()):
        lines.append(f"constant = {draw(toml_values)}")
    if draw(st.booleans()):
        lines.append(draw(garbage))
    return "\n".join(lines) + "\n"


@SETTINGS
@given(text=toml_texts(), command=st.sampled_from(["analyze", "search", "certify"]), d=st.sampled_from([None, "2", "0"]))
def test_fuzz_toml(text, command, d):
    path = WORK / "spec.toml"
    path.write_text(text, encoding="utf-8")
    argv = [command, str(path)] + (["--d", d] if d else [])
    argv += {"analyze": ["--no-atoms-list", "--timeout", "3"], "search": ["--atoms", "2", "--timeout", "2"],
             "certify": ["--no-search", "--out", str(WORK / "toml")]}[command]
    code, _, err = run(*argv)
    check(code, err)


# -- JSON certificates -------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.text(max_size=12),
              st.sampled_from(["headfusion-certificate/3", "W", "1/2", "theorem", "def:F", "exp(1)"])),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(["format", "spec", "claims", "id", "kind", "evidence", "text",
                                                                "d", "summary", "depends_on", "statement", "x"]),
                                               children, max_size=5)),
    max_leaves=20,
)


@QUICK
@seed(FUZZ_SEED)
@given(data=json_values, raw=st.one_of(st.none(), garbage))
def test_fuzz_verify(data, raw):
    fuzz_verify(data, raw)


@pytest.mark.slow
@SETTINGS
@seed(FUZZ_SEED)
@given(data=json_values, raw=st.one_of(st.none(), garbage))
def test_fuzz_verify_long(data, raw):
    fuzz_verify(data, raw)


def fuzz_verify(data: object, raw: str | None) -> None:
    path = WORK / "cert.json"
    path.write_text(json.dumps(data) if raw is None else raw, encoding="utf-8")
    code, _, err = run("verify", str(path))
    check(code, err)
    code, _, err = run("verify", str(path), "--json")
    check(code, err)
