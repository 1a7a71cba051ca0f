"""The bound engine: every proved lower bound of a function, composed through blocks and faces.

For F it computes L5 (Newton), LK (residue classes) mixed with L5 over blocks, LU (unit roots, one dimension),
LG (graphs), LE (rigid edges), Theorem K (K_4 tournaments),
LH/LS/V3/V2 (nonnegative multiples per block, mixed over blocks by LM) and LD (disjoint faces), where each
face function is bounded by this same engine, recursively — memoised by canonical form (a function
up to renaming and a constant) and within a budget of functions and depth, both deterministic, so
the same input gives the same certificate.  `analyze`, `certify`, `explore`, `search` and the API
all start from `function_bounds`; the proof layer turns the result into claims the kernel replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from headfusion.algebra.expform import ExpForm, exponential_form
from headfusion.bounds.cyclotomic import UnitRootBound, unit_root_bound
from headfusion.bounds.faces import FaceFamily, face_family
from headfusion.bounds.facelimits import canonical_form, model_from_canonical
from headfusion.bounds.graphs import graph_bound
from headfusion.bounds.lines import LineBound, line_bound
from headfusion.bounds.lower import NewtonBound, newton_bound
from headfusion.bounds.multiples import Multiple, block_multiple
from headfusion.bounds.oneline import OneLineBound, one_line_bound
from headfusion.bounds.structural import StructuralBounds, structural_bounds
from headfusion.bounds.tournament4 import theorem_k_bound
from headfusion.spec.model import MultiHead

ORDER = ("L5", "LK", "LU", "LG", "LE", "LH", "LD", "LS", "V3", "V2", "K",
         "PB",
         "P4",
         "R",
         "K35")  # on ties the first: fewer lines to check, L5 before everything
MAX_FACE_FUNCTIONS = 48  # functions whose own faces are searched (LD), per top-level call
MAX_FACE_DEPTH = 5


@dataclass(frozen=True)
class FunctionBounds:
    """The proved lower bounds of one function and the data its claims carry."""

    form: ExpForm
    newton: NewtonBound
    structure: StructuralBounds  # LK, LE
    multiples: tuple[Multiple | None, ...]  # per block: LH/LS certificates above V_B
    faces: FaceFamily | None
    graph: int | None = None  # LG: V + 1 when every block is a graph's tournament and some graph has a cycle
    unit_roots: UnitRootBound | None = None  # LU: 4 for a one-block rank-1 F whose Q′ divides no positive binomial or trinomial
    line: LineBound | None = None  # R: the best restriction f_u(t) = F(t·u) of a rank ≥ 2 function, bounded by this engine
    table: dict = field(default_factory=dict, compare=False, repr=False)  # canonical form ↦ FunctionBounds of face functions
    theorem_k: int | None = None  # Theorem K: 32 for one block that is the tournament function of K_4
    one_line: OneLineBound | None = None  # Theorem Pβ / Lemma P4: one block of rank 1 in normal form (top level only)

    @property
    def multiple_bound(self) -> int | None:
        """Π_B max(V_B, μ_B) when some block has a certificate (LM)."""
        if not any(self.multiples):
            return None
        return prod(max(nb.count, m.value if m else 1) for nb, m in zip(self.newton.blocks, self.multiples))

    @property
    def multiple_lemma(self) -> str:
        """The claim's lemma from the blocks' top entries: V2 or V3 when one block uses it, else LS, else LH (a hexagon on every block)."""
        methods = {m.method for m in self.multiples if m is not None}
        if "grid" in methods and methods <= {"grid", "hexagon"}:
            return "K35"
        return "V2" if "two-adic" in methods else "V3" if "three-slices" in methods else "LH" if methods == {"hexagon"} else "LS"

    @property
    def found(self) -> dict[str, int]:
        """Lemma ↦ bound for every lemma that gives one."""
        out = {"L5": self.newton.count}
        if self.structure.class_bound is not None:
            out["LK"] = self.structure.class_bound
        if self.unit_roots is not None:
            out["LU"] = self.unit_roots.bound
        if self.graph is not None:
            out["LG"] = self.graph
        if self.structure.edges is not None:
            out["LE"] = self.structure.edges.bound
        if self.multiple_bound is not None:
            out[self.multiple_lemma] = self.multiple_bound
        if self.faces is not None:
            out["LD"] = self.faces.value
        if self.theorem_k is not None:
            out["K"] = self.theorem_k
        if self.line is not None:
            out["R"] = self.line.value
        if self.one_line is not None:
            out[self.one_line.lemma] = self.one_line.bound
        return out

    @property
    def best(self) -> tuple[int, str]:
        """(bound, lemma) of the strongest, the first in ORDER on ties."""
        found = self.found
        lemma = max((k for k in ORDER if k in found), key=lambda k: (found[k], -ORDER.index(k)))
        return found[lemma], lemma


class Engine:
    """One top-level computation: the memo of face functions and the budget."""

    def __init__(self, faces: bool = True, edges: bool = True):
        self.use_faces, self.use_edges = faces, edges
        self.memo: dict[tuple, FunctionBounds | None] = {}  # None: in progress
        self.searched = 0

    def bounds(self, model: MultiHead, depth: int = 0) -> FunctionBounds:
        """Every lower bound of F; LD recursively while the budget lasts."""
        form = exponential_form(model)
        newton = newton_bound(form)
        structure = structural_bounds(form, newton, edges=self.use_edges)
        multiples = tuple(block_multiple(b, nb.count) for b, nb in zip(form.blocks, newton.blocks))
        graph, unit = (graph_bound(form), unit_root_bound(form)) if self.use_edges else (None, None)
        theorem_k = theorem_k_bound(form) if self.use_edges else None  # bounds m* (LN uses the numerator), not multiples
        one_line = one_line_bound(form) if self.use_edges and depth == 0 else None  # numerator lemmas: F itself only
        partial = FunctionBounds(form, newton, structure, multiples, None, graph, unit, table=self.memo, theorem_k=theorem_k, one_line=one_line)
        faces = None
        if (self.use_faces and partial.best[0] < form.upper_bound and depth < MAX_FACE_DEPTH
                and self.searched < MAX_FACE_FUNCTIONS):
            self.searched += 1
            found = partial.found  # LD must beat the lemmas before it in ORDER and tie at least with those after
            floor = max([v for k, v in found.items() if ORDER.index(k) < ORDER.index("LD")] + [v - 1 for k, v in found.items() if ORDER.index(k) > ORDER.index("LD")])
            faces = face_family(model, form, lambda limit: self.face_bound(limit, depth + 1), floor)
        line = None
        if self.use_faces and depth == 0 and sum(b.rank for b in form.blocks) >= 2:  # R: at the top only (each line bounds a function)
            done = FunctionBounds(form, newton, structure, multiples, faces, graph, unit, table=self.memo, theorem_k=theorem_k, one_line=one_line)
            if done.best[0] < form.upper_bound:  # R is last in ORDER: it must beat every other lemma
                line = line_bound(model, form.upper_bound, lambda f: self.face_bound(f, depth + 1), done.best[0])
        return FunctionBounds(form, newton, structure, multiples, faces, graph, unit, line, self.memo, theorem_k, one_line)

    def face_bound(self, limit: tuple, depth: int) -> int:
        """The proved bound of a face function given by its canonical form (1 for a constant)."""
        if not limit:
            return 1
        if limit not in self.memo:
            self.memo[limit] = None
            self.memo[limit] = self.bounds(model_from_canonical(limit), depth)
        found = self.memo[limit]
        return found.best[0] if found is not None else 1  # in progress: only the trivial bound


def function_bounds(model: MultiHead, faces: bool = True, edges: bool = True) -> FunctionBounds:
    """Every proved lower bound of F (`faces=False`: no LD; `edges=False`: no LE, LG, LU — the every-d theorem uses none:
    they bound m*, not the terms of multiples, and do not multiply over copies)."""
    return Engine(faces, edges).bounds(model)


def newton_only(model: MultiHead) -> FunctionBounds:
    """L5 alone (the baseline the lemmas are measured against)."""
    form = exponential_form(model)
    newton = newton_bound(form)
    return FunctionBounds(form, newton, StructuralBounds((None,) * len(form.blocks), None, None, newton.count), (None,) * len(form.blocks), None)


def strongest_lower_bound(form: ExpForm) -> tuple[int, str]:
    """(bound, lemma) of the strongest proved lower bound: where every search for m* starts."""
    return function_bounds(form.model).best


def face_form(model: MultiHead) -> tuple:
    """F's canonical form (the key of the memo)."""
    return canonical_form(model)
