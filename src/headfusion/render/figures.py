"""The figure of the certificate document: the claims graph.

`dag_layout` places the claims DAG in layers, left to right, deterministically (TikZ node
positions and edges).  (Certificates carry no plotted series: such data would be unchecked.)
"""

from __future__ import annotations

from headfusion.render.errors import RenderError
from headfusion.render.tex import tex_text


def dag_layout(claims_list: list[dict]) -> dict:
    """Deterministic layered layout of the claims DAG (left to right).

    Layer = longest path from a source (claims without dependencies).  Within a layer,
    nodes are ordered by the mean position of their dependencies (barycentre), ties by
    the order of the claims list; layers are centred vertically.
    """
    ids = [c["id"] for c in claims_list]
    index = {cid: i for i, cid in enumerate(ids)}
    deps_of = {c["id"]: [d for d in c.get("depends_on", []) if d in index] for c in claims_list}
    layer: dict[str, int] = {}

    def depth(cid: str, stack: tuple = ()) -> int:
        if cid in layer:
            return layer[cid]
        if cid in stack:
            raise RenderError(f"the claims graph has a cycle through {cid}")
        deps = deps_of[cid]
        value = 0 if not deps else 1 + max(depth(d, stack + (cid,)) for d in deps)
        layer[cid] = value
        return value

    for cid in ids:
        depth(cid)
    layers: dict[int, list[str]] = {}
    for cid in ids:
        layers.setdefault(layer[cid], []).append(cid)
    nlayers = max(layers) + 1 if layers else 0
    tallest = max((len(v) for v in layers.values()), default=1)
    users_of: dict[str, list[str]] = {cid: [] for cid in ids}
    for cid in ids:
        for d in deps_of[cid]:
            users_of[d].append(cid)
    y_of: dict[str, float] = {}

    def sweep() -> None:
        for lay in range(nlayers):
            members = layers.get(lay, [])
            if lay > 0:
                members = sorted(
                    members, key=lambda cid: (sum(y_of[d] for d in deps_of[cid]) / len(deps_of[cid]), index[cid])
                )
                layers[lay] = members
            offset = (tallest - len(members)) / 2
            for pos, cid in enumerate(members):
                y_of[cid] = offset + pos

    sweep()
    # sources next to the claims that use them (those without users last), then lay out again
    layers[0] = sorted(
        layers.get(0, []),
        key=lambda cid: (
            0 if users_of[cid] else 1,
            sum(y_of[u] for u in users_of[cid]) / len(users_of[cid]) if users_of[cid] else 0.0,
            index[cid],
        ),
    )
    sweep()
    nodes = []
    for cid in ids:
        lay = layer[cid]
        x, y = lay * 3.6, -y_of[cid] * 0.9
        nodes.append(
            {
                "name": f"n{index[cid]}",
                "place": f"(n{index[cid]}) at ({x:.2f},{y:.2f})",
                "label": tex_text(cid),
                "layer": lay,
                "kind": claims_list[index[cid]].get("kind", ""),
            }
        )
    edges = []
    for c in claims_list:
        for d in deps_of[c["id"]]:
            src, dst = f"n{index[d]}", f"n{index[c['id']]}"
            edges.append({"src": src, "dst": dst, "path": f"({src}.east) to[out=0,in=180] ({dst}.west)"})
    longest = max((len(c["id"]) for c in claims_list), default=4)
    return {"nodes": nodes, "edges": edges, "layers": nlayers, "width": f"{min(3.0, 0.2 * longest + 0.3):.1f}"}
