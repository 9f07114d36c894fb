"""What a run writes when it is made, in one place: its release file (or a disassociated
release's folder), its release table in the database and its SQL log, each checked before the
work against every input the command reads, the registry's included, and written while the run
is still being made, so that the run and its outputs take their places together (#40).

The library writes; the command line only says where (sqlite-utils' rule)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import catalog
from . import outputs
from .database import Run, Store
from .outputs import Publication


@dataclass(frozen=True)
class RunOutputs:
    """Where a run's release goes. `folder` is the file format of a disassociated release's
    folder (then `path` is that folder); `table` an --output-table's (schema, name), or
    `table_name` the name asked for, resolved against the store when the run starts (`bound`).
    `asked` makes them from what a user asks for."""

    path: Path | None = None
    folder: str | None = None
    per_transaction: bool = False
    refined: bool = False
    table: tuple[str, str] | None = None
    sql_log: Path | None = None
    manifest: dict[str, Any] | None = None
    table_name: str | None = None

    @classmethod
    def asked(
        cls,
        params: catalog.Settings,
        algo: catalog.Algorithm,
        *,
        path: Path | None = None,
        files: str | None = None,
        per_transaction: bool = False,
        table: str | None = None,
        sql_log: Path | None = None,
    ) -> RunOutputs:
        """What the run of `params` writes, from what was asked (`anonymize`'s -o, --files,
        --per-transaction, --output-table, --sql-log): a disassociated algorithm's release is
        a folder of `files` (csv unless told) with its release.json, any other's one file.
        `algo` is the registry's entry for `params.algorithm` (the registry sits above `store/`)."""
        folder = writes_folder(algo.kind)
        fmt = (files or "csv") if folder and path is not None else None
        manifest = {
            "release": "disassociation",
            "algorithm": algo.name,
            "k": params.k,
            "m": params.m,
            "options": params.options,
        }
        return cls(
            path=path,
            folder=fmt,
            per_transaction=per_transaction,
            refined=bool(fmt is not None and params.options.get("refine")),
            sql_log=sql_log,
            manifest=manifest if fmt is not None else None,
            table_name=table,
        )

    def bound(self, store: Store, run: str, *, replace_table: bool) -> RunOutputs:
        """These outputs for the run `run` of `store`: the table asked for resolved and checked
        (in the --db; new, or the tool's with `replace_table`), the manifest naming the run."""
        table = self.table
        if self.table_name is not None:
            from .release_io import output_table_target

            table = output_table_target(store, self.table_name, replace=replace_table)
        return replace(self, table=table, manifest={"run": run, **(self.manifest or {})})

    def check(self, inputs: Iterable[str | Path | None], *, replace: bool) -> None:
        """Refuse, before any work, an output that names or holds a file the run reads."""
        read = list(inputs)
        if self.path is not None and self.folder is not None:
            from .disassociated_files import check_folder

            check_folder(self.path, read, replace=replace, fmt=self.folder)
        elif self.path is not None:
            outputs.check_file(self.path, read, replace=replace)
        if self.sql_log is not None:
            outputs.check_file(self.sql_log, read, replace=replace, fmt="sql", formats=("sql",))

    def stage(self, store: Store, run: Run, publication: Publication) -> None:
        """Write the files, staged in `publication`, from the run's schema (still the current
        one): `runs.making` puts them in place just before it swaps the run in."""
        from . import release_io

        if self.path is not None and self.folder is not None:
            from .disassociated_files import write_folder

            write_folder(
                store, self.path, fmt=self.folder, refined=self.refined,
                manifest=self.release_manifest(run), publication=publication,
            )  # fmt: skip
        elif self.path is not None:
            release_io.write_release(
                store, self.path, per_transaction=self.per_transaction, publication=publication
            )
        if self.sql_log is not None:
            script = store.replay_script(run.schema, title_name=run.name)
            outputs.write_text(outputs.target_of(self.sql_log), script, publication)

    def release_manifest(self, run: Run) -> dict[str, Any]:
        """What the folder's release.json says: the run, and the occurrences it suppressed
        (which `verify DATA -r DIR` accounts for)."""
        loss = run.results.get("loss") or {}
        return {**(self.manifest or {}), "suppressed": loss.get("suppressed", 0)}

    def in_swap(self, store: Store, run: Run) -> None:
        """Write the release table inside the transaction that swaps the run in."""
        if self.table is not None:
            from . import release_io

            release_io.write_table(
                store, self.table, run.id, per_transaction=self.per_transaction, own=False
            )


def inputs_of(store: Store, given: Iterable[str | Path | None] = ()) -> list[str | Path | None]:
    """Every file a command on `store` reads: those given, the database, and the sources its
    registry names."""
    read: list[str | Path | None] = [*given, store.path]
    return read + list(outputs.registry_inputs(store.registry))


def writes_folder(kind: catalog.ReleaseKind) -> bool:
    """Whether a release of `kind` is written as a folder of files with its manifest
    (disassociation's chunks, #28) rather than as one file."""
    match kind:
        case catalog.ReleaseKind.DISASSOCIATED:
            return True
        case (
            catalog.ReleaseKind.SETS
            | catalog.ReleaseKind.MULTISETS
            | catalog.ReleaseKind.SYNTHETIC
            | catalog.ReleaseKind.TABLE
            | catalog.ReleaseKind.TABLE_SETS
        ):
            return False
        case unknown:
            catalog.unhandled(unknown)
