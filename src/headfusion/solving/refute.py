"""Untrusted producer of refutations (DESIGN §5): "no head with at most m atoms", as a tree.

The question (box, unknowns g_a, D rows and N rows) is the kernel's own, taken from
`headfusion.kernel.refutation`; only `replay` there is trusted.  Floating-point LPs
(HiGHS) FIND multiplier vectors; every vector is repaired to exact rationals and checked
exactly before it enters the evidence, and a head is checked exactly before "sat".

The search is conflict-driven.  At a node (sets OUT and IN of points of E) it asks for a
Farkas vector of the *virtual* system in which every free point is OUT (IN rows D_e ≥ 1,
every other row an equality).  Such a vector names the free points whose equality it
uses, R = {r_1..r_k} (D rows with λ < 0 and N rows with λ ≠ 0 at free points).  The node
becomes a chain of splits on r_1..r_k: the IN child of r_i is searched recursively (with
r_1..r_{i−1} OUT), and after the last split the vector closes the leaf by `farkas`.  The
dual LP chooses the vector minimising an L1 proxy of k; k = 0 is an ordinary Farkas leaf.
A `layer c` chain (the free points of Q′'s lowest c-layer, closed by `layer`) is the
alternative when no IN point lies on that layer; at the root it is the only one.  When the
virtual system is feasible, the head is extracted exactly (status "sat").  The IN child of
any split below |IN| = m is a `count` leaf.  Once m points are IN, every free point is OUT
(a head has no room for another; the kernel reads OUT so at such a leaf): the node closes
by a vector or a layer with no chain.  When none of these applies (the fresh vector
fails its exact repair), the node is a plain split on a free point, both children searched.

Symmetries (orbital branching).  A coordinate permutation π with P′∘π = λP′, Q′∘π = λQ′
(`symmetries_of`) maps heads to heads.  In a chain started at (OUT_A, IN_A) with π(OUT_A)
= OUT_A and π(IN_A) = IN_A, the IN child of r_l (OUT_A ∪ {r_1..r_{l−1}}, IN_A ∪ {r_l}) is
the image of the already closed IN child of an earlier r_j when π(r_j) = r_l and
π({r_1..r_{j−1}}) ⊆ {r_1..r_{l−1}}: it becomes an `image` leaf, checked by the kernel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from headfusion.kernel.refutation import rows, search_box
from headfusion.solving.convexity import interior_leaf
from headfusion.solving.problem import coordinate_symmetries
from headfusion.solving.farkas import FREE, IN, OUT, Farkas


@dataclass(frozen=True)
class RefuteResult:
    """status "unsat" (evidence replays), "sat" (head checks exactly) or "unknown"."""

    status: str
    evidence: dict | None = None
    head: dict | None = None
    stats: dict = field(default_factory=dict)


class _Timeout(Exception):
    pass


class _Sat(Exception):
    def __init__(self, head: dict):
        super().__init__("head found")
        self.head = head


class _Stuck(Exception):
    """Floats found nothing that repairs exactly at a fully assigned node."""


def symmetries_of(P: dict, Q: dict) -> list[list[int]]:
    """The coordinate permutations π ≠ id with P′∘π = λP′, Q′∘π = λQ′, λ > 0 (kernel's form).

    They keep the box of every m: its sizes come from the widths of supp P′ ∪ supp Q′, which π permutes.
    """
    rank = len(next(iter(Q))) - 1
    found = coordinate_symmetries({e[:-1]: c for e, c in P.items()}, {e[:-1]: c for e, c in Q.items()}, rank)
    some = next(iter(Q))
    return [list(p) for p in found if Q[tuple(some[i] for i in p) + some[-1:]] / Q[some] > 0]


class _Refuter:
    def __init__(self, P: dict, Q: dict, m: int, sizes: tuple[int, ...], deadline, progress, order: str, lp_above: int,
                 stop=None, symmetric: bool = True, vertices: int = 0):
        self.m, self.deadline, self.progress, self.order = m, deadline, progress, order
        self.stop = stop
        self.lp_above = lp_above
        self.t0 = time.monotonic()
        D, N = rows(P, Q, sizes)
        self.stats = {"nodes": 0, "leaves": {"count": 0, "layer": 0, "farkas": 0, "image": 0, "interior": 0}, "lp_solves": 0,
                      "repairs_failed": 0, "reused": 0, "max_in": 0}
        self.lp = Farkas(D, N, sizes, m, self.stats, deadline)  # the rows over indices, the LPs, exact repair
        self.points, self.npts, self.nin = self.lp.points, self.lp.npts, self.lp.nin
        self.status = self.lp.status  # the assignment of the points of E, shared with self.lp
        rank = len(sizes)
        q_low = [min(e[c] for e in Q) for c in range(rank)]
        self.layers = [[i for i, e in enumerate(self.points) if e[c] == q_low[c]] for c in range(rank)]
        self.layer_of = [[c for c in range(rank) if e[c] == q_low[c]] for e in self.points]
        self.layer_out = [0] * rank
        self.layer_in = [0] * rank
        self.n_in = 0
        self.tree: list[list] = []
        self.vectors: list[list] = []  # JSON multiplier vectors
        self.vec_eq: list[frozenset[int]] = []  # points that must be OUT
        self.vec_pos: list[frozenset[int]] = []  # D points with λ > 0
        self.by_pos: dict[int, list[int]] = {}
        self.vec_keys: dict[tuple, int] = {}
        # the symmetries as permutations of the point indices (π(e) = (e_π(0), …))
        self.symmetries = symmetries_of(P, Q) if symmetric else []  # the list glue uses too: same indices
        pidx = self.lp.pidx
        self.point_maps = [[pidx[tuple(e[i] for i in p)] for e in self.points] for p in self.symmetries]
        self.interior = m <= vertices  # L5 + LT: every IN point must be a vertex of conv(IN)

    def reset(self, deadline, progress, stop) -> None:
        """Ready for another search of the same question (a cube); stored vectors are kept,
        so what one cube learned closes leaves of the next (they hold for the question)."""
        self.deadline, self.progress, self.stop = deadline, progress, stop
        self.lp.deadline = deadline
        self.t0 = time.monotonic()
        for i in range(len(self.status)):
            self.status[i] = FREE
        self.layer_out = [0] * len(self.layers)
        self.layer_in = [0] * len(self.layers)
        self.n_in = 0
        self.tree = []
        self.stats = {"nodes": 0, "leaves": {"count": 0, "layer": 0, "farkas": 0, "image": 0, "interior": 0}, "lp_solves": 0,
                      "repairs_failed": 0, "reused": 0, "max_in": 0}
        self.lp.stats = self.stats

    def seed(self, vectors: list) -> int:
        """Store exact multiplier vectors (JSON, found for this question elsewhere); how many
        were new.  They are used like vectors found here; the kernel checks each use."""
        if not hasattr(self, "npidx"):
            self.npidx = {e: j for j, e in enumerate(self.npts)}
        before = len(self.vectors)
        for vector in vectors:
            lD, lN = {}, {}
            for side, e, lam in vector:
                index = (self.lp.pidx if side == "D" else self.npidx).get(tuple(e))
                if index is None or not isinstance(lam, int):
                    break
                (lD if side == "D" else lN)[index] = lam
            else:
                self._store(lD, lN)
        return len(self.vectors) - before

    def evidence(self) -> dict:
        """The tree with the vectors it uses (re-indexed: a kept producer holds more)."""
        used = sorted({n[1] for n in self.tree if n[0] == "farkas"})
        symmetric = {"symmetries": self.symmetries} if any(n[0] == "image" for n in self.tree) else {}
        if len(used) == len(self.vectors):
            return {"tree": self.tree, "multipliers": self.vectors, **symmetric}
        new = {k: j for j, k in enumerate(used)}
        tree = [["farkas", new[n[1]]] if n[0] == "farkas" else n for n in self.tree]
        return {"tree": tree, "multipliers": [self.vectors[k] for k in used], **symmetric}

    # ------------------------------------------------------------------ the evidence
    def _store(self, lD: dict, lN: dict) -> int:
        """Keep an integer multiplier vector once; its index."""
        entries = [("D", self.points[i], int(lam)) for i, lam in lD.items()]
        entries += [("N", self.npts[j], int(lam)) for j, lam in lN.items()]
        entries.sort()
        key = tuple((s, e, lam) for s, e, lam in entries)
        if key in self.vec_keys:
            return self.vec_keys[key]
        k = len(self.vectors)
        self.vectors.append([[s, list(e), lam] for s, e, lam in entries])
        eq = {i for i, lam in lD.items() if lam < 0} | {self.nin[j] for j in lN if self.nin[j] >= 0}
        pos = frozenset(i for i, lam in lD.items() if lam > 0)
        self.vec_eq.append(frozenset(eq))
        self.vec_pos.append(pos)
        for i in pos:
            self.by_pos.setdefault(i, []).append(k)
        self.vec_keys[key] = k
        return k

    # ------------------------------------------------------------------ the tree
    def _emit(self, node: list) -> int:
        self.tree.append(node)
        self.stats["nodes"] += 1
        if node[0] != "split":
            self.stats["leaves"][node[0]] += 1
        return len(self.tree) - 1

    def _set(self, i: int, s: int) -> None:
        old = self.status[i]
        for c in self.layer_of[i]:
            self.layer_out[c] += (s == OUT) - (old == OUT)
            self.layer_in[c] += (s == IN) - (old == IN)
        self.n_in += (s == IN) - (old == IN)
        self.status[i] = s

    def _tick(self) -> None:
        n = self.stats["nodes"]
        if n % 64 == 0:
            now = time.monotonic()
            if self.deadline is not None and time.time() > self.deadline:
                raise _Timeout()
            if self.stop is not None and self.stop():
                self.stats["reason"] = "stopped"
                raise _Timeout()
            if self.progress is not None and n % 4096 == 0:
                self.progress(dict(self.stats, seconds=now - self.t0, vectors=len(self.vectors)))

    def _best_stored(self) -> tuple[int, int] | None:
        """(cost, k) of the stored vector usable here with fewest free equality points (none count once m are IN)."""
        best = None
        seen: set[int] = set()
        st = self.status
        free_costs = self.n_in < self.m
        for i in self.in_list:
            for k in self.by_pos.get(i, ()):
                if k in seen:
                    continue
                seen.add(k)
                cost = 0
                for e in self.vec_eq[k]:
                    s = st[e]
                    if s == IN:
                        cost = -1
                        break
                    if s == FREE and free_costs:
                        cost += 1
                if cost < 0:
                    continue
                if best is None or cost < best[0]:
                    best = (cost, k)
                    if cost == 0:
                        return best
        return best

    def search(self, prefix: tuple = ((), ())) -> int:
        """The tree under the cube `prefix` = (OUT points, IN points); node indices local to it."""
        self.in_list: list[int] = []
        out_points, in_points = prefix
        for points, side in ((out_points, OUT), (in_points, IN)):
            for e in points:
                i = self.lp.pidx.get(tuple(e))
                if i is None or self.status[i] != FREE:
                    raise ValueError(f"the cube assigns {list(e)}, not a free point of E")
                self._set(i, side)
                if side == IN:
                    self.in_list.append(i)
        return self._node()

    def _node(self) -> int:
        self._tick()
        m = self.m
        if self.n_in > m:
            return self._emit(["count"])
        full = self.n_in >= m  # m points IN: a head has no room for another, every free point is OUT
        for c, layer in enumerate(self.layers):
            if self.layer_out[c] == len(layer) or full and self.layer_in[c] == 0:
                return self._emit(["layer", c])
        if self.interior and len(self.in_list) > 1:
            leaf = interior_leaf([self.points[i] for i in self.in_list], self.points[self.in_list[-1]])
            if leaf is not None:
                return self._emit(leaf)
        self.stats["max_in"] = max(self.stats["max_in"], self.n_in)
        options: list[tuple[int, str, object]] = []  # (cost, kind, data)
        for c, layer in enumerate(self.layers):
            if self.layer_in[c] == 0:
                options.append((len(layer) - self.layer_out[c], "layer", c))
        if self.n_in:
            stored = self._best_stored()
            if stored is not None and stored[0] == 0:
                self.stats["reused"] += 1
                return self._emit(["farkas", stored[1]])
            if stored is not None:
                options.append((stored[0], "vector", stored[1]))
            if not options or min(options)[0] > self.lp_above:
                k = self._new_vector()
                if k is not None:
                    cost = 0 if full else sum(1 for e in self.vec_eq[k] if self.status[e] == FREE)
                    if cost == 0:
                        return self._emit(["farkas", k])
                    options.append((cost, "vector", k))
        if not options:
            return self._split()
        cost, kind, data = min(options, key=lambda o: (o[0], o[1] != "vector"))
        if kind == "layer":
            chain = [i for i in self.layers[data] if self.status[i] == FREE]
            leaf = ["layer", data]
        else:
            chain = [i for i in self.vec_eq[data] if self.status[i] == FREE]
            leaf = ["farkas", data]
        chain = self._order(chain)
        return self._chain(chain, leaf)

    def _split(self) -> int:
        """A plain split on the first free point in `order`, both children searched: the way on
        when no layer, stored vector or fresh vector applies (at the root of a 1-D question the
        lowest point is IN and the LP's vector for "every other point OUT" does not repair
        exactly: its entries are the power series of 1/Q′ up to the box's degree).  Each side
        asks the LP again with one more point decided."""
        free = [i for i, s in enumerate(self.status) if s == FREE]
        if not free:
            raise _Stuck()
        r = self._order(free)[0]
        idx = self._emit(["split", list(self.points[r]), None, None])
        self.stats["splits"] = self.stats.get("splits", 0) + 1
        self.tree[idx][3] = self._in_child(r)
        try:
            self.tree[idx][2] = self._node()
        finally:
            self._set(r, FREE)
        return idx

    def _in_child(self, r: int) -> int:
        """The subtree with point r IN (searched now); r is OUT when it returns, for the OUT side."""
        self._set(r, IN)
        self.in_list.append(r)
        try:
            return self._node()
        finally:
            self.in_list.pop()
            self._set(r, OUT)

    def _order(self, chain: list[int]) -> list[int]:
        if self.order == "lex":
            return sorted(chain)
        if self.order == "rlex":
            return sorted(chain, reverse=True)
        if self.order in ("near", "far") and self.in_list:
            pts = self.points
            ins = [pts[i] for i in self.in_list]

            def dist(i: int) -> int:
                return min(sum(abs(x - y) for x, y in zip(pts[i], q)) for q in ins)

            return sorted(chain, key=lambda i: (dist(i), i), reverse=self.order == "far")
        if self.order in ("near", "far"):
            return sorted(chain)
        return chain

    def _stabilizer(self) -> list[int]:
        """The symmetries (indices) that fix the current IN set and OUT set."""
        if not self.point_maps:
            return []
        inside = set(self.in_list)
        found = [s for s, pm in enumerate(self.point_maps) if all(pm[i] in inside for i in inside)]
        if found:
            out = [i for i, st in enumerate(self.status) if st == OUT]
            found = [s for s in found if all(self.status[self.point_maps[s][i]] == OUT for i in out)]
        return found

    def _image_of(self, stabilizer: list[int], done: list[int], in_nodes: list[int], r: int) -> list | None:
        """An `image` leaf for the IN child of chain point r, from an earlier IN child (see module doc)."""
        earlier = set(done)
        for s in stabilizer:
            pm = self.point_maps[s]
            for j, rj in enumerate(done):
                if pm[rj] == r and all(pm[ri] in earlier for ri in done[:j]):
                    return ["image", in_nodes[j], s]
        return None

    def _chain(self, chain: list[int], leaf: list) -> int:
        first = len(self.tree)
        done: list[int] = []
        in_nodes: list[int] = []
        stabilizer = self._stabilizer()
        try:
            for r in chain:
                idx = self._emit(["split", list(self.points[r]), None, None])
                image = self._image_of(stabilizer, done, in_nodes, r) if stabilizer else None
                if image is not None:
                    self.tree[idx][3] = self._emit(image)
                    self._set(r, OUT)
                    done.append(r)
                    in_nodes.append(self.tree[idx][3])
                    self.tree[idx][2] = len(self.tree)
                    continue
                try:
                    self.tree[idx][3] = self._in_child(r)
                finally:
                    done.append(r)
                in_nodes.append(self.tree[idx][3])
                self.tree[idx][2] = len(self.tree)
            self._emit(leaf)
        finally:
            for r in done:
                self._set(r, FREE)
        return first

    def _new_vector(self) -> int | None:
        state, lamD, lamN = self.lp.solve_dual()
        if state == "infeasible":
            head = self.lp.extract_head()
            if head is not None:
                raise _Sat(head)
            self.stats["false_infeasible"] = self.stats.get("false_infeasible", 0) + 1
            return None
        if state != "optimal":
            if self.deadline is not None and time.time() > self.deadline:
                raise _Timeout()
            return None
        got = self.lp.repair(lamD, lamN)
        if got is None:
            self.stats["repairs_failed"] += 1
            return None
        return self._store(*got)


def refute(
    P: dict,
    Q: dict,
    m: int,
    *,
    deadline: float | None = None,
    progress=None,
    order: str = "near",
    lp_above: int = 3,
    verify: bool = True,
    prefix: tuple = ((), ()),
    stop=None,
    producer=None,
    seed: list | None = None,
    symmetric: bool = True,
    vertices: int = 0,
) -> RefuteResult:
    """Is there a head with at most m atoms?  unsat (with evidence), sat (with head) or unknown.

    P, Q: kernel polynomials (P′, Q′ in lowest terms, t-exponent 0).  `deadline` is an
    absolute `time.time()`; passing it gives "unknown", never a verdict.  `progress(stats)`
    is called every few thousand nodes.  `order` orders the points of a chain ("near": by
    distance to the IN points, measured best; "far", "lex", "rlex", "lp": as found);
    `lp_above`: a new LP is solved only when no stored vector or layer closes the node with
    a chain of at most this many splits.  `verify` replays unsat evidence with the kernel
    before returning it (a failure is a bug of this producer: RuntimeError).

    `prefix` = (OUT points, IN points) is a cube (solving/cubes.py): the tree returned is
    the subtree under that assignment, node 0 its root, closed by count/layer/farkas like
    any other; it replays only once glued under its prefix (`verify` applies to the root
    cube alone).  `stop()`, polled with the deadline, ends the search "unknown" when true.
    `producer` (from `make_producer` on the same P, Q, m) is re-used instead of building the
    rows and the LP again, with the vectors it has stored; `seed`: exact vectors (JSON, as
    in evidence) found for this question elsewhere, stored before the search.
    `symmetric`: prune with the coordinate symmetries of P′ and Q′ (image leaves).
    `vertices`: the (checked) vertex count V of Newt(Q′); when m ≤ V, IN sets that are not in
    convex position are closed (interior leaves, lemma LT); 0 turns this off.
    """
    t0 = time.monotonic()
    sizes = search_box(P, Q, m)
    if sizes is None:
        stats = {"nodes": 0, "leaves": {}, "lp_solves": 0, "seconds": time.monotonic() - t0, "vectors": 0}
        return RefuteResult("unsat", {"tree": [], "multipliers": []}, None, stats)
    if producer is not None:
        R = producer
        R.reset(deadline, progress, stop)
    else:
        R = _Refuter(P, Q, m, sizes, deadline, progress, order, lp_above, stop, symmetric, vertices)
    if seed:
        R.seed(seed)

    def stats() -> dict:
        return dict(R.stats, seconds=time.monotonic() - t0, vectors=len(R.vectors))

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        R.search(prefix)
    except _Timeout:
        return RefuteResult("unknown", None, None, stats())
    except _Stuck:
        return RefuteResult("unknown", None, None, dict(stats(), reason="no exact vector found"))
    except _Sat as sat:
        return RefuteResult("sat", None, sat.head, stats())
    finally:
        sys.setrecursionlimit(limit)
    evidence = R.evidence()
    if verify and not (prefix[0] or prefix[1]):
        from headfusion.kernel.base import CheckFailed
        from headfusion.kernel.refutation import replay

        try:
            replay(P, Q, m, evidence, vertices)
        except CheckFailed as exc:  # pragma: no cover - a producer bug
            raise RuntimeError(f"refute produced evidence the kernel rejects: {exc}") from exc
    return RefuteResult("unsat", evidence, None, stats())


def make_producer(P: dict, Q: dict, m: int, *, order: str = "near", lp_above: int = 3, symmetric: bool = True,
                  vertices: int = 0):
    """A producer for repeated `refute(..., producer=...)` calls on one question (cubes):
    the rows and the LP are built once.  None when the box is empty."""
    sizes = search_box(P, Q, m)
    if sizes is None:
        return None
    return _Refuter(P, Q, m, sizes, None, None, order, lp_above, None, symmetric, vertices)
