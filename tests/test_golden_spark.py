"""Every named statement of sql/ that Spark can run (derived in tests/helpers/golden.py) as
Spark SQL, against its golden file: a sqlglot upgrade, a changed statement or a changed Spark
rewrite shows here as a diff, without a JVM. Review the diff, then regenerate with
`python -m tests.helpers.golden --update`."""

from __future__ import annotations

import pytest
from helpers import golden


@pytest.mark.parametrize("name", golden.names())
def test_spark_translation_matches_golden(name):
    expected = golden.path(name)
    assert expected.is_file(), f"no golden file for {name}: python -m tests.helpers.golden --update"
    assert golden.spark_text(name) == expected.read_text(encoding="utf-8")


def test_no_golden_file_without_its_statement():
    files = {p.stem for p in golden.FOLDER.glob("*.sql")}
    assert files - set(golden.names()) == set()
