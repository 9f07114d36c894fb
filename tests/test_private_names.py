"""No module reaches into another package's private names, and the CLI imports only public
names, even of its own siblings (issue 44: `cli/rt.py` and `cli/rt_sweep.py` imported
`table._taxonomies`). Read from the source: `from X import _name` and `module._name`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "setanon_sql"


def private_uses(path: Path, root: Path = PACKAGE) -> list[tuple[str, str, int]]:
    """(module imported from, private name, line) for each private name of the package that
    `path` imports or reads as an attribute of a module it imported."""
    here = list(path.parent.relative_to(root.parent).parts)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, modules = [], {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = here[: len(here) - node.level + 1] if node.level else []
        target = base + (node.module.split(".") if node.module else [])
        if target[:1] != [root.name]:
            continue
        for alias in node.names:
            if alias.name.startswith("_"):
                found.append((".".join(target), alias.name, node.lineno))
            else:
                modules[alias.asname or alias.name] = ".".join([*target, alias.name])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules and node.attr.startswith("_")
                and not node.attr.startswith("__")):  # fmt: skip
            found.append((modules[node.value.id], node.attr, node.lineno))
    return found


def package_of(module: str) -> str:
    return module.rsplit(".", 1)[0]


def offences(root: Path = PACKAGE) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        own = ".".join(path.parent.relative_to(root.parent).parts)
        in_cli = path.parent.name == "cli"
        for module, name, line in private_uses(path, root):
            if in_cli or package_of(module) != own:
                out.append(f"{path.relative_to(root.parent)}:{line}: {module}.{name}")
    return out


def test_no_private_name_across_packages_nor_in_the_cli():
    assert offences() == []


def test_the_check_sees_both_kinds(tmp_path):
    """A CLI module importing a sibling's private name, and a module reading another
    package's private attribute, are both named; a private import inside a package is not."""
    pkg = tmp_path / "setanon_sql"
    for folder in ("cli", "store", "measure"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "cli" / "a.py").write_text("def _x(): ...\n")
    (pkg / "cli" / "b.py").write_text("from .a import _x\n")
    (pkg / "store" / "s.py").write_text("def _y(): ...\n")
    (pkg / "measure" / "m.py").write_text("from ..store import s\n\ns._y()\n")
    (pkg / "measure" / "r.py").write_text("def _z(): ...\n")
    (pkg / "measure" / "p.py").write_text("from .r import _z\n")
    assert offences(pkg) == [
        "setanon_sql/cli/b.py:1: setanon_sql.cli.a._x",
        "setanon_sql/measure/m.py:3: setanon_sql.store.s._y",
    ]
