"""The one hand-written copy of the registry: `--engine`'s help names the algorithms Spark
runs, written out because deriving it would import every algorithm module at each start of
the CLI (`setanon --help` included); this test keeps it equal to the registry's declarations."""

from __future__ import annotations

import re

import typer

import setanon_sql.cli  # noqa: F401  (registers the commands)
from setanon_sql.algorithms import on_engine
from setanon_sql.cli.app import app


def test_the_engine_help_names_what_the_registry_runs_on_spark() -> None:
    command = typer.main.get_command(app)
    anonymize = command.commands["anonymize"]  # type: ignore[attr-defined]
    engine = next(p for p in anonymize.params if p.name == "engine")
    listed = re.search(r"\(algorithms ([^)]*)\)", engine.help)
    assert listed is not None, engine.help
    assert listed.group(1).split(", ") == list(on_engine("spark"))
