"""SymPy expressions as specs: walked node by node into the expression language.

The API accepts `sympy.Function("sigmoid")(q1) + sympy.tanh(2*q2)`: this module turns the
tree into the text the command line would take, which is then parsed by the same AST
whitelist as any expression.  Nothing is evaluated: no `sympify`, no `str()` of a node; the
walk reads each node's class name and arguments only (so the statement layer needs no SymPy
import), and anything it does not know is refused with its name.
"""

from __future__ import annotations

from headfusion.spec.expressions import VARIABLE, SpecError

MAX_NODES = 100_000
HEADS = ("sigmoid", "tanh")
NAMES = "sigmoid(L), tanh(L), attn(Tuple(L1, ...), Tuple(v1, ...)) (hf.attn takes lists), log(r), rationals and the symbols q1, q2, ..."


def is_sympy(value: object) -> bool:
    """Is this a SymPy object (without importing SymPy)?"""
    return (any((getattr(c, "__module__", None) or "").split(".")[0] == "sympy" for c in type(value).__mro__)
            and hasattr(value, "args") and hasattr(value, "func"))


def sympy_to_text(expr: object) -> str:
    """The expression-language text of a SymPy expression (SpecError for nodes outside the language)."""
    budget = [MAX_NODES]
    return _text(expr, budget)


def _text(node: object, budget: list[int]) -> str:
    budget[0] -= 1
    if budget[0] < 0:
        raise SpecError(f"SymPy expression with more than {MAX_NODES} nodes")
    name = type(node).__name__
    if getattr(node, "is_Float", False):
        raise SpecError("a SymPy Float is not exact: use sympy.Rational (e.g. Rational(1, 10)) or an integer ratio")
    if getattr(node, "is_Integer", False):
        return str(int(node.p))
    if getattr(node, "is_Rational", False):
        return f"({int(node.p)}/{int(node.q)})"
    if getattr(node, "is_Symbol", False):
        symbol = str(getattr(node, "name", ""))
        if not VARIABLE.match(symbol):
            raise SpecError(f"unknown SymPy symbol {symbol[:40]!r} (variables are q1, q2, ...)")
        return symbol
    args = tuple(getattr(node, "args", ()))
    if name == "Add":
        return " + ".join(_text(a, budget) for a in args).replace("+ -", "- ")
    if name == "Mul":
        if args and _is_integer(args[0], -1):
            return "-" + "*".join(_factor(a, budget) for a in args[1:])
        return "*".join(_factor(a, budget) for a in args)
    if name == "Pow" and len(args) == 2:
        exponent = _logistic(args[0]) if _is_integer(args[1], -1) else None
        if exponent is not None:  # 1/(1 + exp(X)) is sigmoid(-X)
            return f"sigmoid({_text(-exponent, budget)})"  # SymPy negates and simplifies: sigmoid(-2*q1), not sigmoid(-(2*q1))
    if name in HEADS + ("log",) and len(args) == 1:
        return f"{name}({_text(args[0], budget)})"
    if name == "attn" and len(args) == 2 and all(type(a).__name__ in ("Tuple", "tuple", "list") for a in args):
        logits, values = ("[" + ", ".join(_text(x, budget) for x in a) + "]" for a in args)
        return f"attn({logits}, {values})"
    if name == "exp":  # as the text parser answers a bare exp(...)
        raise SpecError(f"SymPy exp outside a logit is not in the expression language: write sigmoid(L) for 1/(1 + exp(-L)) ({NAMES})")
    raise SpecError(f"SymPy {name} is not in the expression language ({NAMES})")


def _is_integer(node: object, value: int) -> bool:
    return bool(getattr(node, "is_Integer", False)) and int(node.p) == value


def _factor(node: object, budget: list[int]) -> str:
    text = _text(node, budget)
    return f"({text})" if type(node).__name__ == "Add" else text


def _logistic(base: object) -> object | None:
    """X when base is 1 + exp(X), else None."""
    args = tuple(getattr(base, "args", ()))
    if type(base).__name__ != "Add" or len(args) != 2:
        return None
    one = [a for a in args if _is_integer(a, 1)]
    other = [a for a in args if a is not (one[0] if one else None)]
    if len(one) != 1 or len(other) != 1 or type(other[0]).__name__ != "exp":
        return None
    return other[0].args[0]
