"""Specs whose d-th member is a sum of one block over its own variable: F_d = c_d + Σ_{j=1}^d f(q_j).

This is the statement layer of the "every d" theorem (DESIGN §6): it decides, from the
spec's definition alone, that every member is d renamed copies of one block f, and
returns f.  The shape is read off the definition (a built-in family's block, or a TOML sum
over j = 1..d whose term uses j only in the variable q{j}), then cross-checked by expanding
the first members.
"""

from __future__ import annotations

from headfusion.spec.expressions import SpecError, parse_expression
from headfusion.spec.families import FAMILIES
from headfusion.spec.model import MultiHead, Spec

FAMILY_BLOCKS = {"W": "sigmoid(q1)", "sigmoid-sum": "sigmoid(q1)", "tanh-sum": "tanh(q1)"}
CROSS_CHECKED_MEMBERS = (1, 2, 3)


def every_d_block(kind: str, text: str | None, source: str | None) -> tuple[Spec, str, str]:
    """(the block f as a spec, the family's title with d, a slug) — SpecError unless F_d = c_d + Σ_j f(q_j).

    `text`: the family's name, or for a TOML spec without `name` the name it took from its file.
    """
    if kind == "family" and source is not None:  # a family is its name: no pasted text may ride along
        raise SpecError("the theorem for every d of a built-in family embeds no spec source")
    if kind == "family" and text in FAMILY_BLOCKS:
        block_text, title, name = FAMILY_BLOCKS[text], FAMILIES[text].title, FAMILIES[text].name
        member = lambda d: FAMILIES[text].build(d)  # noqa: E731
    elif kind == "toml" and source is not None:
        from headfusion.spec.toml import parse_toml_text, toml_spec_at

        doc = parse_toml_text(source, "the embedded TOML spec")
        parameter = doc.parameter.name if doc.parameter else None
        if doc.sum_kind != "range" or doc.range_bounds != ("1", parameter) or doc.per_term:
            raise SpecError("the theorem for every d needs a TOML sum over j = 1..d of one term (no per-term data)")
        if "{" in doc.term.replace("q{j}", "") or "q{j}" not in doc.term:
            raise SpecError("the theorem for every d needs a term that uses j only in the variable q{j}")
        block_text = doc.term.replace("q{j}", "q1")
        title, name = doc.title, doc.name or text
        if title and parameter:  # for every d the parameter stays a letter: "sum_{j=1..{d}}" reads "sum_{j=1..d}"
            title = title.replace("{" + parameter + "}", parameter)
        member = lambda d: toml_spec_at(doc, "the embedded TOML spec", d, text).model  # noqa: E731
    else:
        raise SpecError("the theorem for every d applies to a family name or a TOML spec with a sum over j = 1..d")
    block = parse_expression(block_text, None)
    if block.dimension != 1:
        raise SpecError(f"the block {block_text} must use the single variable q1")
    for d in CROSS_CHECKED_MEMBERS:  # the definition read above must agree with the expansion
        model = member(d)
        heads = [h.to_json() | {"scale": s} for s, h in zip(model.scales, model.heads)]
        copies = [_renamed(h.to_json() | {"scale": s}, j) for j in range(1, d + 1) for s, h in zip(block.scales, block.heads)]
        if model.dimension != d or [_plain(h) for h in heads] != [_plain(h) for h in copies]:
            raise SpecError(f"member d = {d} is not a sum of renamed copies of {block_text}")
    return Spec(block_text, None, "expression", block_text, name, block), title, f"{name}_every_d"


MAX_MEMBER_EDGES = 15  # members rebuilt for the theorem on a family of graphs (the kernel counts 2^|E| forests)
LAST_MEMBER = 8


def graph_family(name: str | None, source: str | None) -> tuple[Spec, str, str, dict[int, MultiHead]]:
    """(the first member, the family's title with n, a slug, members n_0..8) of a TOML sum over the edges of a generated graph.

    The statement layer of the theorem for every n: the generator is the family's definition; the kernel reads each
    rebuilt member's graph from its heads and checks its class and counts (Lemma LF)."""
    from headfusion.spec.toml import parse_toml_text, toml_spec_at
    from headfusion.spec.toml_document import GENERATORS

    if source is None:
        raise SpecError("the theorem for every n applies to a TOML spec")
    doc = parse_toml_text(source, "the embedded TOML spec")
    if doc.sum_kind != "edges" or doc.generator is None or doc.parameter is None or doc.per_term:
        raise SpecError("the theorem for every n needs a TOML sum over the edges of a graph generator with a parameter n (no per-term data)")
    if " ".join(doc.term.split()) not in ("sigmoid(q{i} - q{j})", "sigmoid(q{j} - q{i})") or (doc.constant and "{" in doc.constant):
        raise SpecError("the theorem for every n needs the term sigmoid(q{i} - q{j}) itself (no other placeholder, coefficient or"
                        " parameter-dependent constant: the members beyond those checked must be the graph's tournament)")
    generator = GENERATORS[doc.generator]
    first = max(doc.parameter.min, generator.min_vertices, 3 if doc.generator in ("cycle_graph", "complete_graph") else 2)
    members = {n: toml_spec_at(doc, "the embedded TOML spec", n, name).model for n in range(first, LAST_MEMBER + 1)
               if n <= doc.parameter.max and generator.edges_for(n) <= MAX_MEMBER_EDGES}
    if len(members) < 3:
        raise SpecError("the theorem for every n needs three members with at most 15 edges to check the closed forms on")
    spec = toml_spec_at(doc, "the embedded TOML spec", first, name)
    title = (doc.title or spec.title).replace("{" + doc.parameter.name + "}", doc.parameter.name)
    return spec, title, f"{doc.name or name}_every_n", members


def _renamed(head: dict, j: int) -> dict:
    """A head of the block (variable 1) moved to variable j."""
    atoms = [dict(a, key=[[j, v] for _, v in a["key"]]) for a in head["atoms"]]
    return dict(head, atoms=atoms)


def _plain(head: dict) -> tuple:
    """What defines a head (labels are display only)."""
    return (str(head["scale"]), tuple((tuple(map(tuple, a["key"])), str(a["weight"]), str(a["value"])) for a in head["atoms"]))
