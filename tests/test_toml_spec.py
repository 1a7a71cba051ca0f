"""TOML function specs: every file in proofs/, equality with the built-in families, bad specs."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from headfusion.algebra.expform import exponential_form
from headfusion.proof.analysis import analyze
from headfusion.cli import main
from headfusion.spec.families import sigmoid_sum, tanh_sum
from headfusion.spec.expressions import SpecError, parse_expression
from headfusion.spec.load import load_spec
from headfusion.spec.toml import ParameterRange, toml_expression, toml_parameter_range

from .conftest import run_json

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
SPECS = sorted(PROOFS.glob("*.toml"))

# upper bound (fused head) at the spec's default parameter, as `analyze` finds it
EXPECTED_UPPER = {
    "sigmoid_sum": 8,
    "weighted_sigmoid_sum": 8,
    "shifted_sigmoid_sum": 8,
    "tanh_sum": 8,
    "three_atom_sum": 9,
    "shared_direction_sum": 8,
    "two_keys_one_axis": 16,
    "tournament_complete": 7,
    "tournament_cycle": 15,
    "tournament_path": 8,
    "tournament_star": 8,
    "tournament_diamond": 24,
}


def labels(spec_path: Path | str, d: int | None = None) -> list[str]:
    return [h.label for h in load_spec(str(spec_path), d).model.heads]


def test_proofs_directory_has_the_specs():
    assert {p.stem for p in SPECS} >= set(EXPECTED_UPPER)


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_every_spec_loads_and_analyzes(path):
    spec = load_spec(str(path))
    assert spec.kind == "toml" and spec.text == str(path)
    result = analyze(spec, list_atoms=False, with_bounds=False)
    assert result["upper_bound"] == EXPECTED_UPPER[path.stem]
    assert result["heads"] == len(spec.model.heads) >= 1
    assert "{" not in spec.title.replace("{j=1..", "")  # the parameter placeholder is substituted
    # per-term parsing gives exactly the model of the whole expanded expression
    assert parse_expression(toml_expression(str(path))) == spec.model


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_toml_w_equals_family_w(d):
    spec = load_spec(str(PROOFS / "sigmoid_sum.toml"), d)
    family = sigmoid_sum(d)
    assert spec.model == family and spec.model.heads == family.heads
    assert exponential_form(spec.model).upper_bound == exponential_form(family).upper_bound == 2**d
    assert spec.d == d and spec.slug == f"sigmoid_sum_d{d}"
    assert spec.title == f"sum over j = 1..{d} of sigmoid(q_j)"  # no title field: the sum written out


def test_toml_w_large_d_equals_family():
    # beyond the ~3,000-operand recursion limit of one long sum in Python's AST construction
    spec = load_spec(str(PROOFS / "sigmoid_sum.toml"), 10000)
    assert spec.model == sigmoid_sum(10000)


def test_toml_tanh_equals_family():
    spec = load_spec(str(PROOFS / "tanh_sum.toml"), 4)
    assert spec.model == tanh_sum(4)
    assert exponential_form(spec.model).upper_bound == 16


def test_default_parameter_and_range():
    assert toml_parameter_range(str(PROOFS / "sigmoid_sum.toml")) == ParameterRange("d", 1, 100000, 3)
    assert toml_parameter_range(str(PROOFS / "tournament_cycle.toml")) == ParameterRange("n", 3, 17, 4)
    assert toml_parameter_range(str(PROOFS / "tournament_diamond.toml")) is None
    spec = load_spec(str(PROOFS / "sigmoid_sum.toml"))
    assert spec.d == 3 and spec.model.dimension == 3


@pytest.mark.parametrize(
    "name, n, edges",
    [
        ("path", 4, [(1, 2), (2, 3), (3, 4)]),
        ("cycle", 4, [(1, 2), (1, 4), (2, 3), (3, 4)]),
        ("cycle", 5, [(1, 2), (1, 5), (2, 3), (3, 4), (4, 5)]),
        ("star", 4, [(1, 2), (1, 3), (1, 4)]),
        ("complete", 3, [(1, 2), (1, 3), (2, 3)]),
    ],
)
def test_tournament_edges(name, n, edges):
    spec = load_spec(str(PROOFS / f"tournament_{name}.toml"), n)
    assert [h.label for h in spec.model.heads] == [f"sigmoid(q{i} - q{j})" for i, j in edges]
    assert spec.model.dimension == n and spec.d == n
    assert spec.slug == f"tournament_{name}_n{n}"


def test_tournament_complete_graph_counts():
    spec = load_spec(str(PROOFS / "tournament_complete.toml"), 4)
    assert len(spec.model.heads) == 6
    assert exponential_form(spec.model).upper_bound == 38  # forests of K_4


def test_edge_list_spec_has_no_parameter(capsys):
    spec = load_spec(str(PROOFS / "tournament_diamond.toml"))
    assert spec.d is None and spec.slug == "tournament_diamond"
    assert len(spec.model.heads) == 5 and spec.model.dimension == 4
    code = main(["analyze", str(PROOFS / "tournament_diamond.toml"), "--d", "3"])
    assert code == 2 and "no [parameter]" in capsys.readouterr().err


def test_prefix_placeholder():
    assert labels(PROOFS / "shared_direction_sum.toml", 3) == [
        "sigmoid((q1))",
        "sigmoid((q1 + q2))",
        "sigmoid((q1 + q2 + q3))",
    ]


def test_per_term_arrays_repeat_cyclically_and_are_exact():
    spec = load_spec(str(PROOFS / "shifted_sigmoid_sum.toml"), 5)
    a = [Fraction(1), Fraction(-2), Fraction(1, 2)]
    assert list(spec.model.scales) == [a[0], a[1], a[2], a[0], a[1]]  # TOML float 0.5 read exactly
    assert labels(PROOFS / "shifted_sigmoid_sum.toml", 4)[3] == "sigmoid(q4 + (1/2))"
    weights = [h.atoms[0].weight for h in spec.model.heads]
    assert weights[2].coef == 3 and weights[2].exponent == 0  # log(3): weight exactly 3
    assert weights[0].coef == 1 and weights[0].exponent == Fraction(1, 2)  # bias 1/2: weight e^(1/2)


def test_per_term_expressions_in_j():
    spec = load_spec(str(PROOFS / "weighted_sigmoid_sum.toml"), 4)
    assert list(spec.model.scales) == [Fraction(1, j) for j in range(1, 5)]
    assert [h.atoms[0].weight.coef for h in spec.model.heads] == [1, 2, 3, 4]


def test_cli_analyze_toml(capsys):
    data = run_json(capsys, "analyze", str(PROOFS / "sigmoid_sum.toml"), "--d", "4")
    assert data["upper_bound"] == 16 and data["title"] == "sum over j = 1..4 of sigmoid(q_j)"


def test_a_spec_without_name_is_named_after_its_file(tmp_path):
    """No `name`: the output files follow the file name; a file name that cannot name files is refused."""
    text = '[function]\nsum = "j = 1..3"\nterm = "sigmoid(q{j})"\n'
    (tmp_path / "my_function.toml").write_text(text, encoding="utf-8")
    spec = load_spec(str(tmp_path / "my_function.toml"))
    assert (spec.slug, spec.name, spec.title) == ("my_function", "my_function", "sum over j = 1..3 of sigmoid(q_j)")
    (tmp_path / "two words.toml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match="the file name"):
        load_spec(str(tmp_path / "two words.toml"))
    (tmp_path / "named.toml").write_text('name = "other"\n' + text, encoding="utf-8")
    assert load_spec(str(tmp_path / "named.toml")).slug == "other"  # an explicit name wins


def test_constant_offsets_and_literal_range(tmp_path):
    path = tmp_path / "centred.toml"
    path.write_text(
        'name = "centred"\ntitle = "sum_{j=2..{m}} sigma(q_j) - {m-1}/2"\n'
        '[parameter]\nname = "m"\nmin = 2\nmax = 9\ndefault = 3\n'
        '[function]\nsum = "j = 2..m"\nterm = "sigmoid(q{j} - q{j-1})"\nconstant = "-({m} - 1)/2"\n'
    )
    spec = load_spec(str(path), 4)
    assert [h.label for h in spec.model.heads] == ["sigmoid(q2 - q1)", "sigmoid(q3 - q2)", "sigmoid(q4 - q3)"]
    assert spec.model.constant == Fraction(-3, 2)
    assert spec.title == "sum_{j=2..4} sigma(q_j) - 3/2" and spec.slug == "centred_m4"


def test_edge_sum_per_term_values_and_wheel(tmp_path):
    path = tmp_path / "wheel.toml"
    path.write_text(
        'name = "wheel"\n[parameter]\nname = "n"\nmin = 4\nmax = 9\ndefault = 5\n'
        '[graph]\ngenerator = "wheel_graph"\n'
        '[function]\nsum = "edges"\nterm = "{w_e}*sigmoid(q{i} - q{j} + {b_e})"\nconstant = "-{n}/2"\n'
        '[function.per_term]\nw = [1, 2]\nb = "log({e})"\n'
    )
    spec = load_spec(str(path))
    hub = [(1, j) for j in range(2, 6)]
    rim = [(2, 3), (2, 5), (3, 4), (4, 5)]
    edges = sorted(hub + rim)
    assert [h.label for h in spec.model.heads] == [
        f"sigmoid(q{i} - q{j} + (log({e})))" for e, (i, j) in enumerate(edges, 1)
    ]
    assert list(spec.model.scales) == [1, 2] * 4 and spec.model.constant == Fraction(-5, 2)
    assert spec.slug == "wheel_n5"


# -- bad specs ------------------------------------------------------------------------------

GOOD_HEAD = 'name = "bad"\ntitle = "t"\n'
PARAM = '[parameter]\nname = "d"\nmin = 1\nmax = 1000000\ndefault = 2\n'

BAD_SPECS = {
    "invalid_toml": ('name = "x\n[function', "not valid TOML"),
    "missing_function": (GOOD_HEAD + PARAM, "missing table [function]"),
    "term_not_string": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = 3\n', "must be a string"),
    "unknown_key": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\nterms = 1\n',
                    "unknown key 'terms'"),
    "bad_range_fields": (GOOD_HEAD + '[parameter]\nname = "d"\nmin = 5\nmax = 2\ndefault = 3\n'
                         '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\n', "min <= default <= max"),
    "float_parameter": (GOOD_HEAD + '[parameter]\nname = "d"\nmin = 1\nmax = 2.5\ndefault = 1\n'
                        '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\n', "must be an integer"),
    "unknown_generator": (GOOD_HEAD + PARAM + '[graph]\ngenerator = "petersen"\n'
                          '[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n', "unknown graph generator"),
    "edge_not_pair": (GOOD_HEAD + '[graph]\nedges = [[1, 2], [2, 3, 4]]\n'
                      '[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n', "must be a pair of integers"),
    "edge_loop": (GOOD_HEAD + '[graph]\nedges = [[1, 2], [2, 2]]\n'
                  '[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n', "is a loop"),
    "edge_repeated": (GOOD_HEAD + '[graph]\nedges = [[1, 2], [2, 1]]\n'
                      '[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n', "repeats an edge"),
    "edges_without_graph": (GOOD_HEAD + '[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n', "needs a table [graph]"),
    "unknown_placeholder": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{k})"\n',
                            "unknown placeholder {k}"),
    "attribute_placeholder": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j.__class__})"\n',
                              "unknown placeholder"),
    "format_spec_placeholder": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j:>10})"\n',
                                "unknown placeholder"),
    "unbalanced_brace": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j)"\n', "unbalanced brace"),
    "code_in_term": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "__import__(\'os\').system(\'true\')"\n',
                     "unsupported"),
    "product_of_heads": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})*sigmoid(q{j})"\n',
                         "term at j = 1"),
    "bad_sum": (GOOD_HEAD + PARAM + '[function]\nsum = "k in 1..d"\nterm = "sigmoid(q{k})"\n', "sum must be"),
    "unknown_bound_name": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..n"\nterm = "sigmoid(q{j})"\n', "unknown name 'n'"),
    "empty_range": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 3..d"\nterm = "sigmoid(q{j})"\n', "is empty"),
    "too_many_terms": (GOOD_HEAD + '[parameter]\nname = "d"\nmin = 1\nmax = 1000000\ndefault = 200000\n'
                       '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\n', "more than the limit of 100000"),
    "too_many_edges": (GOOD_HEAD + '[parameter]\nname = "n"\nmin = 2\nmax = 100000\ndefault = 1000\n'
                       '[graph]\ngenerator = "complete"\n[function]\nsum = "edges"\nterm = "sigmoid(q{i} - q{j})"\n',
                       "more than the limit"),
    "prefix_too_long": (GOOD_HEAD + '[parameter]\nname = "d"\nmin = 1\nmax = 100000\ndefault = 3000\n'
                        '[function]\nsum = "j = d..d"\nterm = "sigmoid({prefix_j})"\n', "exceeds the limit of 2000"),
    "expansion_too_long": (GOOD_HEAD + '[parameter]\nname = "d"\nmin = 1\nmax = 100000\ndefault = 1900\n'
                           '[function]\nsum = "j = 1..d"\nterm = "sigmoid({prefix_j})"\n', "characters"),
    "constant_not_rational": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\nconstant = "q1"\n',
                              "constant"),
    "array_entry_malformed": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "{a_j}*sigmoid(q{j})"\n'
                              '[function.per_term]\na = ["1", "2)"]\n', "not a well-formed expression"),
    "array_entry_bool": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "{a_j}*sigmoid(q{j})"\n'
                         '[function.per_term]\na = [true]\n', "boolean"),
    "negative_placeholder": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "{j-2}*sigmoid(q{j})"\n',
                             "is negative"),
    "unused_per_term": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\n'
                        '[function.per_term]\nb = [1]\n', "never used"),
    "array_entry_placeholder": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "{a_j}*sigmoid(q{j})"\n'
                                '[function.per_term]\na = ["{j}"]\n', "no placeholders"),
    "negative_constant_placeholder": (GOOD_HEAD + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\n'
                                      'constant = "{d-5}"\n', "is negative (-3) at d = 2"),
    "bad_name": ('name = "../etc"\n' + PARAM + '[function]\nsum = "j = 1..d"\nterm = "sigmoid(q{j})"\n', "'name' must be"),
}


def _write(tmp_path: Path, key: str) -> Path:
    path = tmp_path / f"{key}.toml"
    path.write_text(BAD_SPECS[key][0], encoding="utf-8")
    return path


@pytest.mark.parametrize("key", sorted(BAD_SPECS))
def test_bad_spec_raises_spec_error(tmp_path, key):
    path = _write(tmp_path, key)
    with pytest.raises(SpecError) as info:
        load_spec(str(path))
    message = str(info.value)
    assert BAD_SPECS[key][1] in message
    assert str(path) in message and "\n" not in message


@pytest.mark.parametrize("key", sorted(BAD_SPECS))
def test_bad_spec_cli_exit_2_one_line(tmp_path, capsys, key):
    path = _write(tmp_path, key)
    code = main(["analyze", str(path)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("headfusion: error:") and str(path) in lines[0]
    assert "Traceback" not in captured.err


def test_missing_file(tmp_path, capsys):
    path = tmp_path / "nope.toml"
    with pytest.raises(SpecError, match="spec file not found"):
        load_spec(str(path))
    assert main(["analyze", str(path)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.parametrize("d, fragment", [(0, "at least 1"), (100001, "outside the range 1..100000")])
def test_parameter_out_of_range(capsys, d, fragment):
    code = main(["analyze", str(PROOFS / "sigmoid_sum.toml"), "--d", str(d)])
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and len(err.splitlines()) == 1


def test_graph_below_generator_minimum(capsys):
    code = main(["analyze", str(PROOFS / "tournament_cycle.toml"), "--d", "2"])
    assert code == 2 and "outside the range 3..17" in capsys.readouterr().err
