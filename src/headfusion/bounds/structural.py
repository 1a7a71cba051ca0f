"""The structural lower bounds of DESIGN §8 for a whole function: LK mixed with L5 over blocks, and LE.

LK and L5 mix per block (DESIGN §8): summing D over one residue class of the LK blocks leaves a
nonzero multiple of the other blocks' Q′ with nonnegative coefficients, so
m*(F) ≥ Π_B max(V_B, K_B).  LE applies to F as a whole: m*(F) ≥ V + 1 when every block has a
spanning tree of rigid edges and |supp Q′| > V.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from headfusion.algebra.expform import ExpForm
from headfusion.bounds.classes import ClassBound, block_classes
from headfusion.bounds.edges import EdgeBound, edge_bound
from headfusion.bounds.lower import NewtonBound

MAX_CLASS_SUPPORT = 200_000  # class sums of larger Q′_B are not searched (each lattice costs one pass)


@dataclass(frozen=True)
class StructuralBounds:
    """Per block the residue classes found (None: none above V_B), the mixed LK bound, and LE."""

    classes: tuple[ClassBound | None, ...]
    class_bound: int | None  # Π_B max(V_B, K_B) when some K_B > V_B
    edges: EdgeBound | None
    vertices: int

    @property
    def best(self) -> tuple[int, str]:
        """(bound, lemma) of the strongest of L5, LK and LE (on ties L5, then LK, then LE: fewer lines to check)."""
        found = [(self.vertices, "L5"), (self.class_bound or 0, "LK"), (self.edges.bound if self.edges else 0, "LE")]
        return max(found, key=lambda item: item[0])

    @property
    def use_classes(self) -> bool:
        """Whether a certificate carries the LK claim: it is the strongest structural bound."""
        return self.best[1] == "LK"

    @property
    def use_edges(self) -> bool:
        return self.best[1] == "LE"


def structural_bounds(form: ExpForm, newton: NewtonBound, edges: bool = True) -> StructuralBounds:
    """LK for every block (cached per Q′_B) and, unless `edges` is False, LE."""
    found: dict[object, ClassBound | None] = {}
    classes = []
    for block, nb in zip(form.blocks, newton.blocks):
        key = block.Q_reduced
        if key not in found:
            found[key] = block_classes(block) if len(block.Q_reduced) <= MAX_CLASS_SUPPORT else None
        best = found[key]
        classes.append(best if best is not None and best.index > nb.count else None)
    mixed = prod(max(nb.count, c.index if c else 1) for nb, c in zip(newton.blocks, classes))
    class_bound = mixed if any(classes) else None
    rigid = edge_bound(form, newton) if edges else None
    return StructuralBounds(tuple(classes), class_bound, rigid, newton.count)
