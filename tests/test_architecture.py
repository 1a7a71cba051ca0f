"""The layout: who may import whom (docs/architecture.md), and the kernel's budget."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "headfusion"
# the one-way flow: a package may import itself and the packages before it
ORDER = ["kernel", "spec", "algebra", "bounds", "solving", "proof", "export", "render"]
TOP = {"cli", "api", "errors", "guards", "__init__", "__main__"}
KERNEL_BUDGET = 2500  # physical lines: blank lines, docstrings and comments count


def imports(path: Path) -> list[tuple[str, ast.AST, list[str]]]:
    """(imported module, node, names of the enclosing functions) for every import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, ast.AST, list[str]]] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope + [child.name] if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
            if isinstance(child, ast.Import):
                found.extend((alias.name, child, scope) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                assert child.level == 0, f"{path}: relative import (use headfusion.<package>.<module>)"
                found.append((child.module or "", child, scope))
            visit(child, inner)

    visit(tree, [])
    return found


def package_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "headfusion":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        out.append((rel.parts[0].removesuffix(".py") if len(rel.parts) == 1 else rel.parts[0], path))
    return out


def test_packages_import_only_earlier_packages():
    problems = []
    for package, path in modules():
        if package in TOP or package == "templates":
            continue
        for module, _, scope in imports(path):
            target = package_of(module)
            if target is None or target == package:
                continue
            if target == "__init__" and module == "headfusion":
                continue  # __version__
            if target in TOP or ORDER.index(target) > ORDER.index(package):
                problems.append(f"{path.relative_to(PACKAGE)} imports {module}")
            elif package == "spec" and target != "spec":
                problems.append(f"{path.relative_to(PACKAGE)} (statement layer) imports {module}")
    assert not problems, problems


def test_kernel_imports_only_the_standard_library_and_itself():
    for path in sorted((PACKAGE / "kernel").glob("*.py")):
        for module, _, scope in imports(path):
            top = module.split(".")[0]
            if module.startswith("headfusion.kernel") or top == "__future__":
                continue
            assert top in sys.stdlib_module_names, f"{path.name} imports {module}"


def test_the_statement_layer_imports_no_producer():
    for path in sorted((PACKAGE / "spec").glob("*.py")):
        for module, _, _ in imports(path):
            assert package_of(module) in (None, "spec"), f"spec/{path.name} imports {module}"


def test_kernel_size_within_budget(capsys):
    """The whole trusted base in physical lines (every line counts), module by module."""
    texts = {p.name: p.read_text(encoding="utf-8").splitlines() for p in sorted((PACKAGE / "kernel").glob("*.py"))}
    physical = {name: len(lines) for name, lines in texts.items()}
    code = sum(1 for lines in texts.values() for line in lines if line.strip())
    with capsys.disabled():
        print(f"\nkernel: {sum(physical.values())} physical lines ({code} non-blank): "
              f"{', '.join(f'{k} {v}' for k, v in physical.items())}; budget {KERNEL_BUDGET}")
    assert sum(physical.values()) <= KERNEL_BUDGET
    assert "structure.py" in physical, "the residue-class and rigid-edge checks live in their own module"


def test_no_module_is_too_long():
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 520}
    assert not long, long


def test_no_import_cycles_between_modules():
    graph: dict[str, set[str]] = {}
    for _, path in modules():
        name = "headfusion." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        graph[name] = {m for m, _, scope in imports(path) if m.startswith("headfusion.") and not scope}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            assert state.get(nxt) != 1, f"import cycle: {' -> '.join(trail + [nxt])}"
            if nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])


def test_the_cli_package_has_no_import_circle_even_through_lazy_imports():
    """cli/: commands import `common` (search also refute), parser the commands, run the parser; no other module the cli."""
    cli = PACKAGE / "cli"
    graph = {f"headfusion.cli.{p.stem}": {m for m, _, _ in imports(p) if m.startswith("headfusion.cli.")}
             for p in sorted(cli.glob("*.py")) if p.stem not in ("__init__", "__main__")}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph.get(start, ()))
    circles = [m for m in graph if reaches(m, m, {m})]
    assert not circles, circles
    assert graph["headfusion.cli.common"] == set()
    for _, path in modules():
        if path.parent != cli and path.name != "__main__.py":  # python -m headfusion
            assert all(not m.startswith("headfusion.cli") for m, _, _ in imports(path)), f"{path} imports the cli"
