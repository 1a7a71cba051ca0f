"""What every command shares: exit codes, the usage error, one-line output helpers."""

from __future__ import annotations

import argparse
import json
import re
from functools import lru_cache
import sys
from typing import Any, NoReturn

from headfusion.spec.errors import InputError

EXIT_OK, EXIT_CHECK_FAILED, EXIT_BAD_INPUT = 0, 1, 2


class UsageError(InputError):
    """Bad usage: one line on stderr, exit 2."""


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)  # `--ou DIR` would slip past the --out filter below
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one clear line, exit 2; main() adds "headfusion: error: "
        command = self.prog.removeprefix("headfusion").strip()
        # "argument --d: --d must be ..." says --d twice: the option checks name their option
        message = re.sub(r"^argument [\w/-]+: (?=--?\w)", "", message)
        typo = re.match(r"argument COMMAND: invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if typo:  # `analyse`: name the command meant
            from headfusion.spec.expressions import did_you_mean

            choices = re.findall(r"'([^']*)'", typo.group(2))
            message = (f"invalid choice: unknown command '{typo.group(1)}'{did_you_mean(typo.group(1), choices)} "
                       f"(commands: {', '.join(choices)})")
        unknown = re.match(r"unrecognized arguments: (--?[\w-]+)", message)
        if unknown:  # `--jsn`: name the option meant, from this command's own options
            from headfusion.spec.expressions import did_you_mean

            parsers = [self] + [choice for action in self._actions if isinstance(action, argparse._SubParsersAction)
                                for choice in action.choices.values()]  # the top parser reports a subcommand's extras
            options = sorted({o for parser in parsers for action in parser._actions for o in action.option_strings if o.startswith("--")})
            message += did_you_mean(unknown.group(1), options)
        raise UsageError(f"{command}: {message}" if command else message)


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help states its default (flags are off by default)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or not action.option_strings or action.default in (None, False, argparse.SUPPRESS):
            return text
        return f"{text} (default: %(default)s)"


def without_out(argv: list[str]) -> list[str]:
    """The command line without `--out DIR`, `--name NAME` and `--quiet`: the same certificate is byte-identical
    wherever it is written and whatever its files are called."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--out", "--name"):
            skip = True
        elif not arg.startswith(("--out=", "--name=")) and arg not in ("-q", "--quiet"):
            kept.append(arg)
    return kept


def missing_folders(path: object) -> list[str]:
    """The folders of `path` that do not exist yet, outermost first (made by the write; `say_made` names them)."""
    import os
    from pathlib import Path

    folder = Path(os.path.abspath(str(path)))
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return [str(f) for f in reversed(missing)]


def say_made(folders: list[str]) -> None:
    """One line on stderr naming the folders a command made (`--out no/such/dir` is not made silently)."""
    if folders:
        which = f"folder {one_line(folders[0])}" if len(folders) == 1 else f"folders {', '.join(map(one_line, folders))}"
        sys.stderr.write(f"headfusion: made the {which} (not there before)\n")


def given_options(argv: list[str]) -> frozenset[str]:
    """The long options typed on a command line (`--scheduler`, `--scheduler=ADDR`), up to a bare `--`."""
    typed = []
    for arg in argv:
        if arg == "--":
            break
        if arg.startswith("--"):
            typed.append(arg.split("=", 1)[0])
    return frozenset(typed)


def refuse_idle(args: argparse.Namespace, command: str, options: tuple[str, ...], reason: str) -> None:
    """UsageError when one of `options` was typed although it would do nothing here (`reason` says why)."""
    typed = [o for o in options if o in getattr(args, "given", ())]
    if typed:
        raise UsageError(f"{command}: {typed[0]} {reason}")


def print_json(data: Any) -> None:
    note_huge_integers(data)
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False) + "\n")


PYTHON_JSON_DIGITS = 4300  # Python's default limit on the digits of an integer it reads (sys.get_int_max_str_digits)


def note_huge_integers(data: Any, depth: int = 4) -> None:
    """One line on stderr when --json output holds an integer Python's default json reader refuses (> 4,300 digits).

    Numbers stay JSON integers (exact, of any size: 2^100000 has 30,103 digits); the note says how
    to read them.  Lists are not walked (an atom list's entries are small).
    """
    def largest(node: Any, level: int) -> int:
        if isinstance(node, bool):
            return 0
        if isinstance(node, int):
            return node.bit_length()
        if isinstance(node, dict) and level:
            return max((largest(v, level - 1) for v in node.values()), default=0)
        return 0

    digits = int(largest(data, depth) * 0.30103) + 1
    if digits > PYTHON_JSON_DIGITS:
        sys.stderr.write(f"headfusion: note: this JSON holds integers of about {digits:,} digits; Python's json module reads "
                         f"at most {PYTHON_JSON_DIGITS:,} unless sys.set_int_max_str_digits(0) is called first\n")


def big(value: int) -> str:
    text = str(value)
    if len(text) <= 24:
        return text
    if value > 0 and value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{text[:6]}...{text[-6:]} ({len(text)} digits)"


_TEX = ((r"\sum_{j=1}^d", "\0"), (r"\sum_{ij}", "Σ_ij "), (r"\sigma", "σ"), (r"\pm", "±"), (r"\cdot ", "·"), (r"\cdot", "·"),
        (r"\le", " ≤ "), (r"\ge", " ≥ "), (r"\ne ", " ≠ "), (r"\dots\ ", "... "), (r"\dots", "..."),
        (r"\text{ digits}", " digits"), ("m^*", "m*"), ("$", ""))


def plain_maths(tex: str) -> str:
    """A kernel statement for a terminal: m*(F) = 8, not $m^*(F)=8$ (the certificate keeps the LaTeX)."""
    for old, new in _TEX:
        tex = tex.replace(old, new)
    tex = re.sub(r"\^\{([0-9]+)\}", r"^\1", tex)
    tex = re.sub(r"\^\{([^{}]*)\}", r"^(\1)", tex)  # 2^{n-1} -> 2^(n-1)
    tex = re.sub(r"\\(?:operatorname|mathrm|text)\{([^}]*)\}|\\([A-Za-z]+)\b ?", lambda m: m.group(1) or m.group(2), tex)  # no TeX left
    tex = re.sub(r"\s*([=+])\s*", r" \1 ", tex)
    return " ".join(tex.replace("\0", " Σ_{j=1..d} ").split())


def one_line(text: str) -> str:
    """One line, with no escape sequence or control character from any input."""
    from headfusion.spec.display import printable

    return printable(text)


# -- every answer names its kind ---------------------------------------------------------------------

ANSWER_KINDS = ("proved", "found", "testimony", "unknown")
@lru_cache(maxsize=1)
def lemma_tables() -> tuple[dict, dict, dict]:
    """Lemma id → "Lemma LK (Residue classes)", from the kernel's own table; analyze's method names and claim ids → the same."""
    from headfusion.kernel.statements import LEMMAS as STATED
    from headfusion.proof.analysis import METHOD_NAMES
    from headfusion.proof.evidence import CLAIM_OF

    lemmas = {k: f"Lemma {k} ({name})" for k, (name, _, _) in STATED.items()}
    methods = {text: lemmas[k] for k, text in METHOD_NAMES.items() if k in lemmas}
    claims = {"lower:newton": lemmas["L5"], "lower:pairs": lemmas["TP"]} | {cid: lemmas[k] for k, cid in CLAIM_OF.items()}
    claims["lower:every-bias"] = lemmas["PF"]  # Theorem Pβ for every pair and bias (its family certificate)
    return lemmas, methods, claims


def answer(kind: str, statement: str, by: str, next_step: str | None = None) -> dict:
    """An answer with its kind, in the words every command prints and the fields of its --json.

    kind: "proved" (exact mathematics: a lemma instance or a refutation tree, `by` says whether the
    kernel replayed it), "found" (a head exhibited and checked exactly), "testimony" (a solver's
    unsat: NOT checked by the kernel) or "unknown" (undecided; `by` says why).  `statement` is what
    is answered ("no head with at most 24 atoms", "m*(F) = 8"); `next_step` a command to run next.
    Returns {"answer_kind", "answer", "next"}; `answer_lines` prints it.
    """
    if kind not in ANSWER_KINDS:
        raise ValueError(f"unknown answer kind {kind!r}")
    phrase = {"proved": f"proved by {by}", "found": f"found by {by}",
              "testimony": f"solver testimony ({by}), not checked by the kernel", "unknown": f"unknown: {by}"}[kind]
    return {"answer_kind": kind, "answer": f"{statement} — {phrase}", "next": next_step}


def answer_lines(data: dict) -> str:
    """The answer's two lines for a terminal: `answer: … — proved by …` and `next: …`."""
    text = f"answer: {one_line(data['answer'])}\n"
    return text + (f"next: {one_line(data['next'])}\n" if data.get("next") else "")


def with_answer(data: dict, answered: dict, after: str | None = None) -> dict:
    """`data` with the answer's fields (answer_kind, answer, next), placed after the key `after` (else at the end)."""
    if after not in data:
        return {**data, **answered}
    out: dict = {}
    for key, value in data.items():
        out[key] = value
        if key == after:
            out.update(answered)
    return out


def certificate_answer(summary: dict, theorem: str, next_step: str | None, graph_family: bool = False,
                       first: tuple[int, str] | None = None) -> dict:
    """The answer of a certificate the kernel replayed: its theorem, proved when the bounds meet, else the minimum unknown.

    `graph_family`: the certificate has a family:graphs claim (Lemma LF over the graphs of a class, parameter n), not
    d disjoint copies of one block (Lemma LP).  `first`: for every d, (bound, claim) of a checked block claim that
    does not multiply over blocks but decides d = 1 (`render.everyd.first_member`)."""
    claim = summary.get("lower_bound_claim") or ""
    lemma = lemma_tables()[2].get(claim) or (f"a refutation tree at m = {claim.removeprefix('search:m')}"
                                          if claim.startswith("search:m") else claim)
    testimony = (f"; z3 says m* >= {big(summary['testimony_lower'])}, solver testimony: not checked, not used"
                 if summary.get("testimony_lower") else "")
    if summary.get("every_d") and graph_family:
        lemma += " on the first member, Lemma LF for every n (the graph class)"
    elif summary.get("every_d"):
        lemma += " on the block, Lemma LP over d disjoint copies"
    if summary["status"] == "proved":
        return answer("proved", theorem.rstrip("."), f"{lemma} and the construction (kernel-checked: every claim replayed)",
                      next_step)
    if summary.get("every_d") and not graph_family:  # F is the block: what is open is m*(F_d), and d = 1 may be decided
        upper = summary["upper_bound"]
        one = ("" if first is None else f"; d = 1 is decided by the block alone: m*(F_1) "
               + (f"= {big(upper)}" if first[0] >= upper else f">= {big(first[0])}")
               + f" by {lemma_tables()[2].get(first[1], first[1])} (claim {first[1]}, kernel-checked), "
               "a lemma that does not multiply over blocks")
        return answer("unknown", theorem.rstrip("."), f"m*(F_d) for d >= {1 if first is None else 2} (the kernel-checked bounds, "
                      f"by {lemma} and the construction, do not meet{testimony}){one}", next_step)
    return answer("unknown", theorem.rstrip("."), f"m*(F) itself (the kernel-checked bounds, by {lemma} and the construction, "
                  f"do not meet{testimony})", next_step)


def spec_words(args: argparse.Namespace) -> str:
    """The spec and its --d as a user would type them again (quoted for a shell)."""
    import shlex

    spec = str(getattr(args, "spec", "")).translate({9: 32, 10: 32, 13: 32})  # tabs and line breaks read as spaces
    # the whole spec, however long (a command to run, never a placeholder); text that is still not printable cannot
    # have been read as a spec, and no control text from input is echoed
    words = shlex.quote(spec) if spec.isprintable() and spec else "'(the spec given)'"
    return words + (f" --d {args.d}" if getattr(args, "d", None) is not None else "")
