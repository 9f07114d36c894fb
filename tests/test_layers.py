"""The package's layers, as ARCHITECTURE.md draws them: every import (at the top of a module or
inside a function, for type checking or not) points down the layers, never up or across to a
sibling layer, and the imports between modules make no circle; and no module over 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "setanon_sql"

# low to high; a module may import its own folder's modules and anything strictly lower
LAYERS = {
    "errors": 0,
    "progress": 0,
    "catalog": 1,  # what an algorithm declares: Algorithm, Option, ReleaseKind, Settings
    "engine": 3,
    "store": 4,
    "runs": 5,
    "algorithms": 6,  # each module declares itself; algorithms/__init__ is the registry
    "params": 7,  # checks parameters against the registry, so above it
    "measure": 8,
    "relational": 8,
    "api": 9,
    "sweep": 10,
    "sweep_rt": 10,
    "cli": 11,
    "console": 12,
    "__main__": 13,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The package modules `path` imports, as dotted names below setanon_sql."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = package.split(".") if package else []
            base = parts[: len(parts) - (node.level - 1)]
            target = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                out.add(sub if _exists(sub) else target)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("setanon_sql."):
            out.add(node.module.removeprefix("setanon_sql."))
    return {m for m in out if m}


def _exists(dotted: str) -> bool:
    p = PACKAGE.joinpath(*dotted.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def layer(module: str) -> int:
    return LAYERS[module.split(".")[0]]


def graph() -> dict[str, set[str]]:
    return {
        module_name(p): imports(p)
        for p in PACKAGE.rglob("*.py")
        if p.name != "__init__.py" or p.parent != PACKAGE  # the package's lazy front door
    }


def test_every_module_has_a_layer() -> None:
    assert {m.split(".")[0] for m in graph()} <= set(LAYERS)


def test_imports_point_down_the_layers() -> None:
    up = [
        (m, t)
        for m, targets in graph().items()
        for t in targets
        if t.split(".")[0] != m.split(".")[0] and layer(t) >= layer(m)
    ]
    assert not up, f"imports that climb or cross the layers: {sorted(up)}"


def test_the_imports_make_no_circle() -> None:
    edges = graph()
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            raise AssertionError(f"an import circle: {' -> '.join(path[path.index(m) :] + [m])}")
        if m in done:
            return
        for t in sorted(edges.get(m, ())):
            if t in edges:
                visit(t, [*path, m])
        done.add(m)

    for m in sorted(edges):
        visit(m, [])


def test_the_registry_imports_every_algorithm_module() -> None:
    """The list of algorithms is an import the graph sees: every module of `algorithms/` that
    declares an ALGORITHM is imported by the registry (no module loaded by its name)."""
    declaring = {
        module_name(p)
        for p in (PACKAGE / "algorithms").rglob("*.py")
        if "\nALGORITHM = Algorithm(" in p.read_text()
    }
    assert declaring, "no algorithm module declares ALGORITHM"
    assert declaring <= graph()["algorithms"]
    by_name = [
        p.name
        for p in PACKAGE.rglob("*.py")
        if "import_module" in p.read_text() and p != PACKAGE / "__init__.py"  # the lazy front door
    ]
    assert not by_name, f"modules loaded by name: {by_name}"


MAX_LINES = 500
"""STYLE.md: a module over ~500 lines is asking to be split along a seam it already has."""


def test_no_module_is_over_500_lines() -> None:
    """dp_sets reached 518 lines before this test held the rule (split into dp_answers)."""
    long = {
        module_name(p): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these modules along a seam they have: {long}"
