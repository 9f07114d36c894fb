"""How a command opens its database: with a dataset to work on (loaded from an INPUT or stored
in --db), or an existing database of the tool's to inspect or to judge a stored run in."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError, ParamsError
from .options import DbOpts, HierOpts, SourceOpts, refuse_unless
from .output import warn

if TYPE_CHECKING:  # the engine is imported by the commands that open one, not by --help
    from ..store.database import Store


def inputs(src: SourceOpts, hier: HierOpts, dbo: DbOpts) -> list[Path | None]:
    """Every file a command reads, so that no output may name one of them: its command line's
    and those the --db's registry names (the library checks these again once it is open)."""
    return [src.source, hier.hierarchy, dbo.db, *registered(dbo.db)]


def registered(db: Path | None) -> list[Path]:
    """The sources an existing --db's registry names (none for a new or foreign file: opening
    it is then the work's to refuse)."""
    if db is None or not Path(db).is_file():
        return []
    from ..store.database import Store
    from ..store.outputs import registry_inputs

    try:
        with Store(db, read_only=True) as store:
            return registry_inputs(store.registry)
    except Exception:  # noqa: BLE001 - not readable here: the command says why when it opens it
        return []


def open_data(src: SourceOpts, hier: HierOpts, dbo: DbOpts, *, read_only: bool = False) -> Store:
    """A store holding the command's dataset (and hierarchy), warnings printed."""
    from .. import api

    if src.source is None and dbo.db is None:
        raise ParamsError("give an INPUT file, or --db holding a loaded dataset")
    src.check()
    store, notes = api.open_store(
        src.source,
        hierarchy_spec=hier.spec(),
        db=dbo.db,
        read_only=read_only,
        **src.reader(),
        **dbo.settings(),
    )
    warn(notes)
    return store


def open_db(dbo: DbOpts, *, read_only: bool = True) -> Store:
    """A database of the tool's that must exist: opened read-only for inspection, or to write
    into a stored run (evaluate)."""
    if dbo.db is None:
        raise ParamsError("--db is required")
    if not Path(dbo.db).exists():
        raise InputError(f"no DuckDB database at {dbo.db}")
    from ..store.database import Store

    store = Store(dbo.db, read_only=read_only, **dbo.settings())
    try:
        store.registry.require()
    except BaseException:
        store.close()
        raise
    return store


def run_only(src: SourceOpts, hier: HierOpts, what: str) -> None:
    """A stored run is judged with its own dataset and hierarchy: refuse others."""
    refuse_unless(
        src.source is None
        and src.dataset is None
        and not (src.format or src.table or src.columns_given or src.encoding)
        and hier.spec() is None,
        f"--run {what} uses the run's own dataset and hierarchy; give no INPUT, --dataset, "
        "reading options or hierarchy with it",
    )
