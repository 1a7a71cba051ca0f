"""`atlas`: certify every point of a parameter grid, one certificate per point, and tabulate the results.

A spec with parameters is an expression whose numbers may be names (`sigmoid(a*q1) + sigmoid(b*q1)`,
substituted as tokens by `spec.parametric`), a TOML spec (its one `[parameter]`), a built-in family
(parameter `d`), or a graph map `graphs:N` (parameter `graph`, numbering the graphs of `spec.graph_atlas`).  The grid is given as ranges (`a=1..8 b=a+1..8`).  Each point is certified exactly as
`headfusion certify` does (bounds, then the searches a certificate needs; the kernel replays every
claim before the certificate is returned), so a row says only what its certificate proves; a resumed
row is used only after `recheck_row` has the kernel replay its certificate again.

Points are independent: `run_points` computes them one after another, or as one Dask task each
(`scheduler` given), and hands each finished point to a callback — the command line writes it at once,
which makes a run resumable.  Work that Dask cannot interrupt is bounded by the per-question search
timeout and certify's box limit; the whole-point time limit applies to the sequential run only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from headfusion.spec.errors import InputError
from headfusion.spec.expressions import SpecError
from headfusion.spec.graph_atlas import Edges, edges_text, graph_spec_vertices, graphs_up_to, tournament_text
from headfusion.spec.model import Spec
from headfusion.spec.parametric import Range, Value, grid_points, member_text, names_used, parse_grid, point_data

LEMMA_OF = {"lower:newton": "L5 (Newton polytope)", "lower:classes": "LK (residue classes)", "lower:edges": "LE (rigid edges)",
            "lower:unit-roots": "LU (unit roots)", "lower:pairs": "TP (Theorem P)", "lower:graph": "LG (graphs)",
            "lower:hexagon": "LH (hexagon)", "lower:slices": "LS (slices)", "lower:three-slices": "V3 (three slices)", "lower:two-adic": "V2 (2-adic classes)", "lower:faces": "LD (disjoint faces)",
            "lower:theorem-k": "K (four-vertex tournaments)",
            "lower:line": "R (restriction to a line)",
            "lower:pair-biased": "PB (pairs with biases)",
            "lower:two-scales": "P4 (two scales)",
            "lower:grid": "K35 (grid bounds)"}
COLUMNS = ("lower", "upper", "minimum", "status", "lemma")


@dataclass(frozen=True)
class AtlasSpec:
    """The spec text, how its parameters are set (expression tokens, or a TOML/family parameter), and the ranges."""

    text: str
    kind: str  # "expression" | "toml" | "family" | "graphs" (graphs:N, parameter graph: the number in the map)
    ranges: tuple[Range, ...]

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.ranges]

    def points(self) -> list[dict[str, Value]]:
        """Every point of the grid, in lexicographic order."""
        return grid_points(list(self.ranges))


def atlas_spec(text: str, range_items: list[str]) -> AtlasSpec:
    """The spec and its grid, checked before any work (SpecError on a mismatch between names and ranges)."""
    from headfusion.spec.families import FAMILIES

    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty spec")
    ranges = tuple(parse_grid(range_items))
    names = [r.name for r in ranges]
    stripped = text.strip()
    vertices = graph_spec_vertices(stripped)
    listed = next((r.name for r in ranges if r.listed is not None), None)
    if listed is not None and (vertices is not None or stripped in FAMILIES or stripped.endswith(".toml")):
        raise SpecError(f"{listed}: a list of values is for the parameters of an expression; {stripped} takes an integer range")
    if vertices is not None:
        count = len(graphs_up_to(vertices))
        if names != ["graph"] or any(not 1 <= p["graph"] <= count for p in grid_points(list(ranges))):
            raise SpecError(f"{stripped} has one parameter, graph, numbering its {count} graphs: give graph=LOW..HIGH within 1..{count}")
        return AtlasSpec(stripped, "graphs", ranges)
    if stripped in FAMILIES or stripped.endswith(".toml"):
        if stripped in FAMILIES:
            kind, parameter = "family", "d"
        else:
            from headfusion.spec.toml import toml_parameter_range

            found = toml_parameter_range(stripped)
            if found is None:
                raise SpecError(f"{stripped} has no [parameter] to run over: certify it as it is")
            kind, parameter = "toml", found.name
        if names != [parameter]:
            raise SpecError(f"{stripped} has one parameter, {parameter}: give one range {parameter}=LOW..HIGH")
        return AtlasSpec(stripped, kind, ranges)
    used = names_used(stripped)
    if sorted(used) != sorted(names):
        missing = [n for n in used if n not in names] or [n for n in names if n not in used]
        raise SpecError(f"the ranges must name exactly the parameters of the expression ({', '.join(used) or 'none'}); "
                        f"{missing[0]} is {'not given a range' if missing[0] in used else 'not in the expression'}")
    return AtlasSpec(stripped, "expression", ranges)


def member(atlas: AtlasSpec, values: dict[str, Value]) -> Spec:
    """The spec of one point (the expression with the values substituted, or the TOML/family at its parameter)."""
    from headfusion.spec.load import load_spec

    if atlas.kind == "expression":
        return load_spec(member_text(atlas.text, values))
    if atlas.kind == "graphs":
        return load_spec(tournament_text(graph_of(atlas, values)))
    return load_spec(atlas.text, values[atlas.names[0]])


def graph_of(atlas: AtlasSpec, values: dict[str, Value]) -> Edges:
    """The edges of a graph-map point (its number in `graphs_up_to`)."""
    return graphs_up_to(graph_spec_vertices(atlas.text) or 0)[values["graph"] - 1]


def _exp_form(cert: dict) -> dict:
    return next(c for c in cert["claims"] if c["id"] == "exp-form")["evidence"]


def point_key(values: dict[str, Value]) -> str:
    """'a1_b2_c3' (with a listed fraction, 'r1over2'): the file name of a point's row."""
    return "_".join(f"{k}{v}" if isinstance(v, int) else f"{k}{v.numerator}over{v.denominator}" for k, v in values.items())


def row_of(values: dict[str, Value], cert: dict | None, reason: str | None = None, edges: Edges | None = None) -> dict[str, Any]:
    """The table row of a point: its values, the certificate's numbers and the lemma of its lower bound.

    A graph-map point (`edges` given) also carries its edges, n, V (the vertices of Newt(Q′): the acyclic
    orientations) and |supp Q′| (the forests, the product head's atoms)."""
    from headfusion.proof.evidence import support_size

    row: dict[str, Any] = {"point": point_data(values)}  # a fraction as "p/q": JSON has no exact rationals
    if edges is not None:
        row |= {"edges": edges_text(edges), "vertices": len({v for edge in edges for v in edge}),
                "V": None if cert is None else cert["summary"]["newton_vertices"], "support": None if cert is None else support_size(_exp_form(cert))}
    if cert is None:
        return row | {"lower": None, "upper": None, "minimum": None, "status": "refused", "lemma": None, "claim": None,
                      "reason": reason, "certificate": None}
    summary = cert["summary"]
    claim = summary["lower_bound_claim"]
    lemma = "LR (refutation tree)" if claim.startswith("search:") else LEMMA_OF.get(claim, claim)
    return row | {"lower": summary["lower_bound"], "upper": summary["upper_bound"], "minimum": summary["minimum"],
                  "status": summary["status"], "lemma": lemma, "claim": claim, "reason": None,
                  "certificate": point_key(values), "construction": construction_kind(cert)}  # the point's files are named by its values (a1_b2.json), not a hash


def _shown(value: object) -> str:
    """A saved value as JSON, cut short: a 5,000-digit number shows its first digits and its length."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        return f"{str(value)[:12]}… ({len(str(abs(value)))} digits)"
    try:
        text = json.dumps(value, allow_nan=True)  # a string shows its quotes and escapes: a control character cannot act
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def recheck_row(atlas: AtlasSpec, values: dict[str, Value], saved: object, cert: object) -> tuple[dict | None, str | None]:
    """A resumed point's row, rebuilt from its certificate after the kernel replays it, or (None, why it is redone).

    `saved` is the parsed row file ({"spec", "row"}), `cert` the parsed certificate file (None: missing).  The
    row is used only when the certificate is this point's own (its model is the point's function), the
    kernel's replay accepts every claim (`verify_bounded`: what `verify` runs on a file, the cost model and
    then the kernel in a child with a deadline), and the saved row equals the row read off the replayed
    certificate; so no number reaches a table unless a replayed certificate states it.  A row without a certificate (a
    refusal) is always computed again: there is nothing to replay.
    """
    from headfusion.proof.replay import verify_bounded
    from headfusion.spec.display import printable

    row = saved.get("row") if isinstance(saved, dict) else None
    if not isinstance(row, dict) or row.get("point") != point_data(values):
        return None, "its saved row is malformed"
    if row.get("certificate") is None:
        return None, "its saved row has no certificate to replay"
    if row.get("certificate") != point_key(values):
        return None, f"its saved row names another point's certificate ({str(row.get('certificate'))[:40]!r})"
    if not isinstance(cert, dict):
        return None, "its certificate is missing or unreadable"
    try:
        own = member(atlas, values).model.to_json()
        if cert.get("model") != own:
            return None, "its certificate is of another function"
        spec = cert.get("spec")
        if not isinstance(spec, dict) or spec.get("every_d") is not False or spec.get("every") or spec.get("graphs"):
            return None, "its certificate states a theorem for a family, not for this point"
        report = verify_bounded(cert)  # as `verify` replays a file: the cost model, then the kernel in a child with a deadline
        if not report.ok:
            failed = next((r for r in report.rows if r[2] == "failed"), ("?", "", "", "no theorem"))
            return None, f"its certificate fails the kernel's replay ({printable(str(failed[0]))[:40]}: {printable(str(failed[3]))[:120]})"
        replayed = row_of(values, cert, edges=graph_of(atlas, values) if atlas.kind == "graphs" else None)
    except Exception as exc:  # noqa: BLE001 - a file on disk is data: whatever it makes the replay raise, the point is redone
        return None, f"its certificate cannot be replayed ({type(exc).__name__}: {printable(str(exc))[:120]})"
    if row != replayed:
        differing = [k for k in replayed if row.get(k) != replayed[k]]
        if not differing:
            return None, "its saved row has a field its certificate does not give"
        field = differing[0]  # a key of the replayed row: our own name, not the file's
        return None, f"its saved row disagrees with its replayed certificate ({field}: saved {_shown(row.get(field))}, certificate {_shown(replayed.get(field))})"
    return replayed, None


def construction_kind(cert: dict) -> str:
    """How the certificate's head was found (DESIGN §10): uniform, interval, reduced or product as the kernel checks them;
    blocks or search marked as the producer's unchecked note."""
    from headfusion.bounds.constructions import KINDS
    from headfusion.kernel.statements import NOTED

    claims = {c["id"]: c for c in cert["claims"]}
    heads = claims["upper"]["evidence"]["heads"]
    if any(cid.startswith("search:") and "head" in c["evidence"] for cid, c in claims.items()):
        return "search (z3)"
    found = [h.get("found") for h in heads if h.get("found") in KINDS]  # the labels of how a head was found
    if found:
        kind = max(found, key=KINDS.index)
        return f"{kind} (unchecked note)" if kind in NOTED else kind
    shapes = claims["exp-form"]["evidence"]["shapes"]
    return "reduced" if all(h["N"] == s["P"] and h["D"] == s["Q"] for h, s in zip(heads, shapes)) else "product"


def certify_point(text: str, range_items: list[str], values: dict[str, Value], search_timeout: float,
                  top_timeout: float | None = None) -> dict[str, Any]:
    """One point: {"row", "certificate", "queries"} (the task a Dask worker runs; plain data in, plain data out).

    `top_timeout`: the seconds of the question at m = upper − 1, whose tree decides the point (default: `search_timeout`).
    Input that certify refuses (a limit, a factorisation it cannot certify) gives a row with status
    "refused" and its reason, and no certificate: the same answer on every run.
    """
    from headfusion.proof.certify import certify

    atlas = atlas_spec(text, range_items)
    edges = graph_of(atlas, values) if atlas.kind == "graphs" else None
    try:
        spec = member(atlas, values)
        command = ["headfusion", "atlas", text, *range_items]
        result = certify(spec, command, search=True, search_timeout=search_timeout, top_timeout=top_timeout)
    except InputError as exc:  # ResourceLimit and SpecError are InputErrors: the point is refused, with the reason
        return {"row": row_of(values, None, str(exc), edges), "certificate": None, "queries": {}}
    return {"row": row_of(values, result.certificate, edges=edges), "certificate": result.certificate, "queries": result.queries}


def top_cost(atlas: AtlasSpec, values: dict[str, int]) -> tuple[int, int]:
    """(m, the key range of Lemma L3) of a point's deciding question, m = upper − 1 of its closed-form head: what
    `--cheapest-first` orders points by (a tree's size grows fastest with m; a point that cannot be formed comes last)."""
    from headfusion.algebra.expform import exponential_form
    from headfusion.proof.certify import box_points

    try:
        form = exponential_form(member(atlas, values).model)
        m = max(form.upper_bound - 1, 1)
        return m, box_points(form, m)
    except Exception:  # noqa: BLE001 - an ordering only: certify_point reports the point's own error
        return 10**13, 0


def point_task(*args: Any) -> dict[str, Any]:
    """`certify_point` as a Dask task.  Dask's worker processes are daemonic, and a daemonic process may not
    start children, but certify's solver questions run in child processes (solving/process.py) that are
    joined or killed before each question returns; so the flag is lifted for the duration of the task."""
    import multiprocessing

    config = multiprocessing.current_process()._config  # noqa: SLF001 - the flag `Process.start` asserts on
    daemonic = config.get("daemon", False)
    config["daemon"] = False
    try:
        return certify_point(*args)
    finally:
        config["daemon"] = daemonic


def run_points(
    todo: list[dict[str, Value]],
    compute: Callable[[dict[str, Value]], dict],
    done: Callable[[dict[str, Value], dict], None],
    scheduler: str | None = None,
    workers: int | None = None,
    submit_args: Callable[[dict[str, Value]], tuple] | None = None,
) -> None:
    """Compute each point and hand it to `done` as soon as it is finished (in order without Dask).

    With `scheduler` ("local" for a LocalCluster of `workers` processes, or tcp://HOST:PORT) each point is one
    Dask task running `certify_point(*submit_args(point))`; results arrive in the order they finish, and a
    task that fails gives the point {"row": None, "reason": …} (not saved: the next run tries it again).  Tasks start
    in the order of `todo` (a Dask priority).
    """
    if scheduler is None:
        for values in todo:
            done(values, compute(values))
        return
    from headfusion.solving.distribute import _client, quiet_dask, require_dask

    require_dask("the atlas on a cluster")
    quiet_dask()
    assert submit_args is not None
    with _client(None if scheduler == "local" else scheduler, workers) as client:
        from distributed import as_completed

        futures = {client.submit(point_task, *submit_args(values), pure=False, priority=-k): values  # started in the order given
                   for k, values in enumerate(todo)}
        for future in as_completed(list(futures)):
            try:
                result = future.result()
            except Exception as exc:  # a lost worker or a failed task: reported for the point, tried again next run
                result = {"row": None, "reason": f"the Dask task failed ({type(exc).__name__}: {str(exc)[:200]})"}
            done(futures[future], result)


def moonshot_subset_sums(rows: Iterable[dict]) -> list[dict]:
    """For Σ σ(a_i q) atlases: each decided point with its number of distinct subset sums of the scales (DESIGN §9's conjecture)."""
    out = []
    for row in rows:
        scales = list(row["point"].values())
        sums = {0}
        for s in scales:
            sums |= {x + s for x in sums}
        out.append({"point": row["point"], "minimum": row["minimum"], "lower": row["lower"], "upper": row["upper"],
                    "subset_sums": len(sums)})
    return out
