"""Anonymize the Fig. 2 database of Terrovitis et al. with AA (k=2, m=2) through the library.

Run from anywhere: python examples/quickstart.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from setanon_sql import HierarchySpec, Params, anonymize, open_store
from setanon_sql.store.release_io import write_release

HERE = Path(__file__).parent

store, warnings = open_store(
    HERE / "fig2.csv", hierarchy_spec=HierarchySpec(path=HERE / "fig2_hierarchy.csv")
)
result = anonymize(store, Params(algorithm="aa", k=2, m=2))
print(f"run {result.run}: NCP = {result.loss['ncp']:.4f}, verified = {result.report.ok}")

with store.in_run(result.run):
    # Every intermediate step is a table an analyst can query, e.g. the final cut:
    for item, node in store.query(
        "SELECT i.label, n.label FROM cut c JOIN node i ON i.id = c.item "
        "JOIN node n ON n.id = c.node WHERE c.item <> c.node ORDER BY 1"
    ):
        print(f"  {item} -> {node}")
    out = Path(tempfile.mkdtemp()) / "fig2_release.csv"
    write_release(store, out)
    print(out.read_text())
