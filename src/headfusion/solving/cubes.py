"""Cubes of a refutation (DESIGN §5): prefixes of the tree, solved apart and glued back.

A cube is a path from the root of the refutation tree: a sequence of (point of E, side)
assignments.  `split_cubes` builds a *prefix tree* of splits whose leaves are cubes (or
leaves already closed by `count` or `layer`, which need no solve); each cube is refuted
independently (`refute(..., prefix=cube.prefix)`, node indices local to its subtree); and
`glue` puts the subtrees back under their prefixes as ONE flat tree with one merged list
of multiplier vectors, which is what `kernel.refutation.replay` checks.  Nothing here is
trusted: a wrong glue is caught by the replay.

The prefix tree is nested lists: ["split", e, out, in] (e a tuple point, out/in subtrees),
["count"], ["layer", c], ["cube", Cube].  A cube that runs out of time is re-split by
`CubeSpace.split(cube, 1)`; `glue` follows such re-splits through its `resplit` mapping.

`Checkpoint` keeps solved cubes (and re-split decisions) as JSON files, one per cube,
keyed by a hash of (P′, Q′, m, the cube's path), written atomically (a new temporary file
+ rename) and read back with the bounds of a certificate.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from math import prod
from pathlib import Path

import numpy as np

from headfusion.kernel.base import SchemaError, parse_json, read_certificate_text
from headfusion.kernel.refutation import box_points, search_box
from headfusion.spec.errors import InputError

Point = tuple[int, ...]


@dataclass(frozen=True)
class Cube:
    """A prefix of the refutation tree: (point, IN?) assignments from the root, in order."""

    path: tuple[tuple[Point, bool], ...] = ()

    @property
    def prefix(self) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
        """(OUT points, IN points): the `prefix` argument of `refute`."""
        return tuple(e for e, i in self.path if not i), tuple(e for e, i in self.path if i)

    @property
    def depth(self) -> int:
        return len(self.path)

    def child(self, e: Point, inside: bool) -> Cube:
        return Cube(self.path + ((tuple(e), bool(inside)),))

    def to_json(self) -> list:
        return [[list(e), int(i)] for e, i in self.path]

    @classmethod
    def from_json(cls, data: list) -> Cube:
        return cls(tuple((tuple(int(v) for v in e), bool(i)) for e, i in data))


def box_sums(sizes: tuple[int, ...], support: list[tuple[int, ...]]) -> list[Point]:
    """E = G + supp Q′ (the rows of `kernel.refutation.rows`), sorted, without building the rows.

    Each sum is packed into one int64 key (mixed radix over the sums' coordinate ranges, which
    keeps the lexicographic order), so deduplication is a 1-D np.unique.  numpy int64 is exact
    here: the box holds at most MAX_POINTS points (search_box) and the packed range is checked
    below 2^62 (above it, a thin box under a wide support, the sums are formed one by one).  The
    kernel recomputes E from its own rows on replay.
    """
    rank = len(sizes)
    distinct = sorted(set(support))
    shifts = np.array(distinct, dtype=np.int64)
    low = shifts.min(axis=0)
    span = np.array(sizes, dtype=np.int64) + shifts.max(axis=0) - low + 1  # range of each coordinate
    if prod(int(w) for w in span) >= 2**62:  # wide supports over a thin box (m = 2): plain sums, no packing
        return sorted({tuple(a + e for a, e in zip(point, shift)) for point in box_points(sizes) for shift in distinct})
    radix = np.ones(rank, dtype=np.int64)  # the last coordinate varies fastest: lexicographic order
    for c in range(rank - 2, -1, -1):
        radix[c] = radix[c + 1] * span[c + 1]
    box_keys = (np.indices(tuple(s + 1 for s in sizes), dtype=np.int64).reshape(rank, -1).T @ radix)
    shift_keys = (shifts - low) @ radix
    step = max(1, 4_000_000 // len(shift_keys))  # a few tens of MB at a time, whatever the box
    keys = np.unique(np.concatenate([np.unique((box_keys[i:i + step, None] + shift_keys[None, :]).ravel())
                                     for i in range(0, len(box_keys), step)]))
    points = np.empty((len(keys), rank), dtype=np.int64)
    for c in range(rank):
        points[:, c], keys = np.divmod(keys, radix[c])
    points += low
    return [tuple(int(v) for v in row) for row in points]


class CubeSpace:
    """The points of E of one question (P′, Q′, m) and the choice of split points."""

    def __init__(self, P: dict, Q: dict, m: int):
        self.m = m
        self.sizes = search_box(P, Q, m)
        if self.sizes is None:
            raise ValueError("the box is empty (L3): nothing to split, the refutation is the empty tree")
        self.points: list[Point] = box_sums(self.sizes, [e[:-1] for e in Q])
        rank = len(self.sizes)
        q_low = [min(e[c] for e in Q) for c in range(rank)]
        self.layers = [[e for e in self.points if e[c] == q_low[c]] for c in range(rank)]

    def closed(self, cube: Cube) -> list | None:
        """The leaf that closes a cube with no solve (count, layer), or None."""
        out, inside = cube.prefix
        if len(inside) > self.m:
            return ["count"]
        outs = set(out)
        for c, layer in enumerate(self.layers):
            if all(e in outs for e in layer):
                return ["layer", c]
        return None

    def next_point(self, cube: Cube) -> Point | None:
        """The point to split a cube on, as the producer would start: the smallest lowest
        layer with no IN point (its first free point), else the free point nearest the IN
        points (L1, then lexicographic)."""
        out, inside = cube.prefix
        taken = set(out) | set(inside)
        ins = set(inside)
        chains = [
            [e for e in layer if e not in taken]
            for layer in self.layers
            if not any(e in ins for e in layer)
        ]
        chains = [c for c in chains if c]
        if chains:
            return min(chains, key=len)[0]
        free = [e for e in self.points if e not in taken]
        if not free:
            return None
        return min(free, key=lambda e: (min(sum(abs(x - y) for x, y in zip(e, q)) for q in inside), e))

    def split(self, cube: Cube, depth: int) -> tuple[list, list[Cube]]:
        """The prefix tree under `cube` with at most 2^depth open cubes, and those cubes.

        Best first: the open cube with the fewest IN points (then the shallowest) is split
        next, so a layer chain is cut the way the producer walks it ({r1 IN}, {r1 OUT,
        r2 IN}, ...) rather than into cubes of equal depth whose IN halves are trivial.
        Cubes closed by count or layer become leaves and need no solve.
        """
        limit = 2 ** max(depth, 0)
        nodes: dict[Cube, list] = {}
        children: dict[Cube, tuple[Point, Cube, Cube]] = {}
        open_cubes: list[Cube] = []

        def add(c: Cube) -> None:
            leaf = self.closed(c)
            nodes[c] = leaf if leaf is not None else ["cube", c]
            if leaf is None:
                open_cubes.append(c)

        add(cube)
        stuck: set[Cube] = set()
        while len(open_cubes) < limit:
            candidates = [c for c in open_cubes if c not in stuck]
            if not candidates:
                break
            c = min(candidates, key=lambda c: (len(c.prefix[1]), c.depth))
            e = self.next_point(c)
            if e is None:
                stuck.add(c)
                continue
            open_cubes.remove(c)
            children[c] = (e, c.child(e, False), c.child(e, True))
            add(children[c][1])
            add(children[c][2])

        def build(c: Cube) -> list:
            if c in children:
                e, out, inside = children[c]
                return ["split", e, build(out), build(inside)]
            return nodes[c]

        order: list[Cube] = []

        def collect(node: list) -> None:
            if node[0] == "split":
                collect(node[2])
                collect(node[3])
            elif node[0] == "cube":
                order.append(node[1])

        tree = build(cube)
        collect(tree)
        return tree, order


def split_cubes(P: dict, Q: dict, m: int, depth: int, start: Cube | None = None) -> tuple[list, list[Cube]]:
    """At most 2^depth cubes under `start` (the root by default): (prefix tree, cubes)."""
    return CubeSpace(P, Q, m).split(start or Cube(), depth)


def glue(prefix_tree: list, subtrees: dict, vectors: dict, resplit: dict | None = None,
         symmetries: list | None = None) -> dict:
    """ONE refutation from a prefix tree and the subtree of each of its cubes.

    `subtrees[cube]` is the flat tree `refute(..., prefix=cube.prefix)` returned (node 0 its
    root) and `vectors[cube]` its multiplier list; `resplit[cube]` (optional) a prefix
    tree that replaced a cube.  Subtree nodes are shifted, `farkas k` re-indexed into one
    merged list in which equal vectors are stored once, `image` references shifted with
    their subtree; `symmetries` is the list every cube's image leaves index (`symmetries_of`).
    KeyError if a cube is missing.
    """
    resplit = resplit or {}
    tree: list[list] = []
    merged: list = []
    seen: dict[str, int] = {}

    def vector_index(vector: list) -> int:
        key = json.dumps(vector, sort_keys=True)
        if key not in seen:
            seen[key] = len(merged)
            merged.append(vector)
        return seen[key]

    def emit(node: list) -> int:
        kind = node[0]
        if kind == "split":
            idx = len(tree)
            tree.append(["split", list(node[1]), None, None])
            tree[idx][2] = emit(node[2])
            tree[idx][3] = emit(node[3])
            return idx
        if kind in ("count", "layer"):
            tree.append(list(node))
            return len(tree) - 1
        cube = node[1]
        if cube in resplit:
            return emit(resplit[cube])
        sub, vecs = subtrees[cube], vectors[cube]
        base = len(tree)
        local = {}
        for n in sub:
            if n[0] == "split":
                tree.append(["split", list(n[1]), n[2] + base, n[3] + base])
            elif n[0] == "image":
                tree.append(["image", n[1] + base, n[2]])
            elif n[0] == "farkas":
                k = n[1]
                if k not in local:
                    local[k] = vector_index(vecs[k])
                tree.append(["farkas", local[k]])
            else:
                tree.append(list(n))
        return base

    emit(prefix_tree)
    if symmetries and any(n[0] == "image" for n in tree):
        return {"tree": tree, "multipliers": merged, "symmetries": symmetries}
    return {"tree": tree, "multipliers": merged}


def question_hash(P: dict, Q: dict, m: int) -> str:
    """sha256 of the question (P′, Q′, m) in a canonical JSON form."""

    def canon(poly: dict) -> list:
        return sorted([list(e), str(c)] for e, c in poly.items())

    text = json.dumps({"P": canon(P), "Q": canon(Q), "m": m}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


MAX_CUBE_BYTES = 64 * 2**20  # one checkpoint file, as one certificate
NODE_ARITY = {"split": 4, "image": 3, "farkas": 2, "count": 1, "layer": 2, "interior": 3}


def well_formed(tree: object, vectors: object) -> bool:
    """True when `glue` can place this subtree (node kinds, arities, indices in range); the replay checks the rest."""
    if not (isinstance(tree, list) and tree and isinstance(vectors, list) and all(isinstance(v, list) for v in vectors)):
        return False
    for node in tree:
        if not (isinstance(node, list) and node and isinstance(node[0], str) and len(node) == NODE_ARITY.get(node[0])):
            return False
        kind, *args = node
        indices = {"split": args[1:], "image": args[:1], "farkas": args}.get(kind, [])
        limit = len(vectors) if kind == "farkas" else len(tree)
        if not all(type(i) is int and 0 <= i < limit for i in indices) or (kind == "image" and type(args[1]) is not int):
            return False
        if kind == "split" and not (isinstance(args[0], list) and all(type(v) is int for v in args[0])):
            return False
    return True


def writable_folder(folder: str | os.PathLike) -> None:
    """Refuse (InputError) a checkpoint folder that cannot be written — a file, /proc, read-only — before any work; the
    folders the probe made are removed again (the run makes them when it keeps something)."""
    path = Path(folder)
    made = [p for p in (*reversed(path.absolute().parents), path.absolute()) if not p.exists()]
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"--checkpoint {folder}: not a writable folder ({exc.strerror or exc})") from None
    finally:
        for p in reversed(made):
            with contextlib.suppress(OSError):
                p.rmdir()


class Checkpoint:
    """Solved cubes and re-split decisions of one question, one JSON file per cube.

    Files live in `folder`, named by a hash of (question, cube path); each records both, so
    a file of another question or cube is never taken.  A file is read like a certificate (a
    regular file, at most 64 MB, integers of at most 4,000 digits, no duplicate keys) and its
    tree must be well formed; anything else is treated as absent and the cube solved again.
    Writes are atomic inside the folder (a new temporary file, then a rename over the name,
    which replaces a symlink there rather than following it): a run killed mid-write leaves no
    partial record, and a resumed run re-uses what is there.
    """

    def __init__(self, folder: str | os.PathLike, P: dict, Q: dict, m: int):
        self.folder = Path(folder)
        # the folders this run makes (deepest last): a run that ends with nothing in them removes them again
        self.created = [p for p in (*reversed(self.folder.absolute().parents), self.folder.absolute()) if not p.exists()]
        try:  # a writable folder, checked before any work (not a file, not /proc)
            self.folder.mkdir(parents=True, exist_ok=True)
            os.unlink(self._write(".probe", ""))
        except OSError as exc:
            self.discard_if_empty()
            raise InputError(f"--checkpoint {folder}: not a writable folder ({exc.strerror or exc})") from None
        self.question = question_hash(P, Q, m)

    def discard_if_empty(self) -> None:
        """Remove the folders this run made, as long as they are empty (a failed start leaves no folder behind)."""
        for folder in reversed(self.created):
            try:
                folder.rmdir()  # only an empty folder; one with files (or another's) stays
            except OSError:
                return
        self.created = []

    def path(self, cube: Cube) -> Path:
        key = hashlib.sha256((self.question + json.dumps(cube.to_json())).encode()).hexdigest()[:32]
        return self.folder / f"cube-{key}.json"

    def load(self, cube: Cube) -> dict | None:
        """The record of `cube`, or None (absent, unreadable, over a limit, malformed, or another question's)."""
        try:
            data = parse_json(read_certificate_text(str(self.path(cube)), MAX_CUBE_BYTES))
        except (SchemaError, OSError):
            return None
        if not isinstance(data, dict) or data.get("question") != self.question or data.get("cube") != cube.to_json():
            return None
        if data.get("status") == "unsat" and well_formed(data.get("tree"), data.get("multipliers")):
            return data
        if data.get("status") == "split" and type(data.get("depth")) is int and 0 <= data["depth"] <= 16:
            return data
        return None

    def save_split(self, cube: Cube, depth: int) -> None:
        """Record that `cube` was re-split `depth` levels (a resumed run splits it alike)."""
        self.save(cube, "split", depth=depth)

    def save(self, cube: Cube, status: str, evidence: dict | None = None, depth: int | None = None) -> None:
        record: dict = {"question": self.question, "cube": cube.to_json(), "status": status}
        if evidence is not None:
            record.update(tree=evidence["tree"], multipliers=evidence["multipliers"])
        if depth is not None:
            record["depth"] = depth
        self._saved(self.path(cube).name, record)

    def write_refutation(self, m: int, evidence: dict) -> Path:
        """`refutation-m<m>.json` in the folder, atomically (what `certify --refutation` reads)."""
        return self._saved(f"refutation-m{m}.json", {"atoms": m, **evidence})

    def _saved(self, name: str, record: dict) -> Path:
        try:
            return self._write(name, json.dumps(record, separators=(",", ":")))
        except OSError as exc:
            raise InputError(f"--checkpoint {self.folder}: cannot write {name} ({exc.strerror or exc})") from None

    def _write(self, name: str, text: str) -> Path:
        """Write `text` to folder/name atomically: a new file (O_EXCL, never an existing one or a link), then a rename."""
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, self.folder / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return self.folder / name
