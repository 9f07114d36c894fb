"""The Typer apps every command registers on, and the root callback (`--debug`)."""

from __future__ import annotations

from typing import Annotated

import typer

EXIT_CODES = (
    "Exit codes: 0 success; 1 violations found (verify); 2 usage error; 3 bad input (files, "
    "columns, hierarchy, database; k larger than the data); 4 internal error (a bug); 5 the "
    "machine: too little memory or disk space; 130 interrupted (143 on SIGTERM)."
)

app = typer.Typer(
    help="Anonymize set-valued data (baskets, click streams, code sets) with SQL in DuckDB.",
    epilog=EXIT_CODES,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    add_completion=False,
)
hierarchy_app = typer.Typer(
    help="Build, check and show item hierarchies.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(hierarchy_app, name="hierarchy")
state = {"debug": False}


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Print the traceback of an error.")
    ] = False,
) -> None:
    """Anonymize set-valued data (baskets, click streams, code sets) with SQL in DuckDB."""
    state["debug"] = debug
