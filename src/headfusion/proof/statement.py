"""The statement check, outside the kernel: the spec text embedded in a certificate gives its list of heads.

The kernel (`kernel.verify`) proves the theorem about F as the certificate's explicit list of heads
(`model`: keys, weights r·e^b, values), which is what a reader compares with the paper.  Here the spec
parser (the statement layer, about 2,500 lines outside the kernel's budget) rebuilds that list, and
the spec fields (title, slug, parameter), from the spec text, and both must equal what the certificate
stores.  For a family of graphs it also builds the members n_0..8 that the kernel checks for Lemma LF.
`verify_certificate` is `verify`: this check, then the kernel.
"""

from __future__ import annotations

from dataclasses import replace

from headfusion.kernel.base import CheckFailed, parse_json, read_certificate_text, require
from headfusion.kernel.verify import Report, check_schema
from headfusion.kernel.verify import verify_certificate as replay_heads


def rebuild(spec: dict) -> tuple[dict, dict, str, dict]:
    """(model JSON, spec fields, canonical text of F, members) rebuilt from the spec text by the spec parser.

    For the theorem for every d, the spec parser also decides that every member is
    F_d = c_d + Σ_{j=1}^d f(q_j) and returns the block f, which is then the model checked.
    """
    from headfusion.spec.display import function_text
    from headfusion.spec.family import every_d_block
    from headfusion.spec.load import load_spec
    from headfusion.spec.toml import load_toml_text

    try:
        if spec.get("graphs") is True:  # a family of graphs: its first member is the model, members n_0..8 for Lemma LF
            from headfusion.spec.family import graph_family

            built, title, slug, members = graph_family(spec["text"], spec["source"])
            fields = {"kind": "toml", "text": spec["text"], "source": spec["source"], "d": None, "title": title, "slug": slug,
                      "every_d": True, "graphs": True}
            return built.model.to_json(), fields, function_text(built.model), {n: m.to_json() for n, m in members.items()}
        if spec.get("every") is not None:  # the family σ(a·q1) + σ(b·q1) of Theorem P, read from the template's syntax
            from headfusion.spec.parametric import pair_family

            if len(spec["every"]) == 4:  # ±σ(a·q1 + β1) ± σ(b·q1 + β2), every bias too (Theorem Pβ)
                from headfusion.spec.parametric import biased_pair_family

                built, title, slug, every = biased_pair_family(spec["text"], spec["every"])
                a, b, b1, b2 = every
                shown = f"F_({a},{b},{b1},{b2})(q1) = G({a}*q1 + {b1}, {b}*q1 + {b2}), G(q1, q2) = {function_text(built.model)}"
            else:
                built, title, slug = pair_family(spec["text"], spec["every"])
                every, shown = spec["every"], f"F_(a,b)(q1) = G(a*q1, b*q1), G(q1, q2) = {function_text(built.model)}"
            fields = {"kind": "expression", "text": spec["text"], "source": None, "d": None, "title": title, "slug": slug,
                      "every_d": False, "every": every}
            return built.model.to_json(), fields, shown, {}
        if spec["every_d"] is True:
            built, title, slug = every_d_block(spec["kind"], spec["text"], spec["source"])
            fields = {"kind": spec["kind"], "text": spec["text"],
                      "source": spec["source"], "d": None, "title": title, "slug": slug, "every_d": True}
            return built.model.to_json(), fields, f"c_d + sum over j = 1..d of f(q_j), f(q1) = {function_text(built.model)}", {}
        if spec["kind"] == "toml":
            built = load_toml_text(spec["source"], "the embedded TOML spec", spec["d"], spec["text"])
        else:
            built = load_spec(spec["text"], spec["d"])
    except Exception as exc:  # the statement layer refuses: the definition fails, with its reason
        raise CheckFailed(f"the spec does not rebuild: {exc}") from None
    fields = {"kind": built.kind, "text": built.name if built.kind == "toml" else built.text, "source": built.source,
              "d": built.d, "title": built.title, "slug": built.slug, "every_d": False}
    return built.model.to_json(), fields, function_text(built.model), {}


def check_statement(cert: dict) -> tuple[str, str, dict]:
    """CheckFailed unless the spec text gives the certificate's spec fields and list of heads; (F's text, title, members)."""
    model_json, spec_fields, shown, members = rebuild(cert["spec"])
    require(cert["spec"] == spec_fields, "the spec fields (title, slug, parameter) differ from the spec text")
    require(cert["model"] == model_json, "the stored model (the list of heads) differs from the model rebuilt from the spec")
    return shown, spec_fields["title"], members


def verify_certificate(cert: object) -> Report:
    """`verify`: the spec text gives the list of heads (here), and the kernel replays every claim about that list."""
    check_schema(cert)
    try:
        shown, title, members = check_statement(cert)  # type: ignore[arg-type]
    except (CheckFailed, KeyError, TypeError) as exc:
        return Report((("def:F", "definition", "failed", str(exc)),))
    report = replay_heads(cert, members)
    return replace(report, shown=(shown, title, report.shown[2]))


def verify_file(path: str) -> Report:
    """Read (bounded, regular files only), parse and verify a certificate file."""
    return verify_certificate(parse_json(read_certificate_text(path)))
