"""A long flat sum, split at its top-level + and − into groups that Python's parser takes one at a time.

`ast.parse` builds a sum of n terms as n nested BinOp nodes and gives up (RecursionError) near 3,000 of them, so a
3,000-term sum was refused as "too deeply nested".  Python's tokenizer finds the binary + and − outside every bracket
(an operator after an operand: a name, a number or a closing bracket); the terms are cut there into groups of
GROUP_TERMS, each kept with its sign as a unary one ("- t5 + t6"), so the sum of the groups' values is the sum of
the terms (+ and − are left-associative and bind the loosest of the whitelisted operators).  Each group is then parsed
and walked as any expression is; the length of a sum is bounded by MAX_EXPRESSION_CHARS alone.
"""

from __future__ import annotations

import io
import keyword
import tokenize

GROUP_TERMS = 500  # terms per group: far below the parser's depth limit
_OPENERS, _CLOSERS = "([{", ")]}"
_TOP_LEVEL_OPS = {"+", "-", "*", "/", "**", "(", ")", "[", "]", "{", "}", "."}  # bind at least as tightly as + and −


def sum_groups(source: str) -> list[str] | None:
    """The groups of a flat sum's text (each a valid sub-sum, signs kept); None when the text does not tokenize or has
    fewer than two groups (nothing to split: the nesting is elsewhere)."""
    starts = [0]
    row_start = [0]  # the offset of each row's first character
    for line in source.splitlines(keepends=True):
        row_start.append(row_start[-1] + len(line))
    cuts: list[int] = []
    depth, previous = 0, None
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT,
                              tokenize.ENDMARKER):
                continue
            text = token.string
            if depth == 0 and ((token.type == tokenize.OP and text not in _TOP_LEVEL_OPS) or keyword.iskeyword(text)):
                return None  # an operator that binds looser than + (^, a comparison, `if`): not a flat sum, not split
            if token.type == tokenize.OP and text in _OPENERS:
                depth += 1
            elif token.type == tokenize.OP and text in _CLOSERS:
                depth -= 1
            elif (token.type == tokenize.OP and text in "+-" and depth == 0 and previous is not None
                  and (previous.type in (tokenize.NAME, tokenize.NUMBER) or previous.string in _CLOSERS)):
                cuts.append(row_start[token.start[0] - 1] + token.start[1])
            previous = token
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    starts += cuts[GROUP_TERMS - 1::GROUP_TERMS]
    if len(starts) < 2:
        return None
    groups = [source[a:b].strip() for a, b in zip(starts, starts[1:] + [len(source)])]
    return [g[1:].strip() if g.startswith("+") else g for g in groups]
