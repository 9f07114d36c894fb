"""What the tool writes on disk, written once: every output is checked before the work (one
check for every command that writes), staged under a hidden name beside its target, and put in
place with the run that made it, so the user's files are never lost (#40).

The rules:
- an output never names, and a folder output never holds, a file the command reads: the files
  on its command line, the database (and its WAL), and every source the registry names;
- an existing output is replaced only with `replace` (--replace), a file as a folder; a release
  folder only when its `release.json` says the tool wrote it and it holds nothing else, and
  from the earlier folder only the files its manifest lists are deleted;
- a symbolic link is written through (its target is replaced, the link stays); a mount point is
  refused, since a folder is put in place by renaming, which a mount point forbids;
- a new file takes the mode the umask gives, a replaced one keeps its mode;
- a staged or set-aside name says whose it is (`.NAME.setanon-PID-XXXX.tmp` / `.old`), so the
  next write of the same target repairs what a SIGKILL left: a stale `.tmp` is removed, a stale
  `.old` is put back when its target is missing and removed otherwise.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.spill import running
from ..errors import ParamsError

MANIFEST = "release.json"
TAG = ".setanon-"
FILE_SUFFIXES = (".csv", ".parquet", ".pq", ".json", ".txt", ".tsv", ".gz", ".html", ".sql")


# -- what must not be written over ---------------------------------------------------------------
def registry_inputs(registry: Any) -> list[Path]:
    """The files a database's registry names as the sources of its datasets and hierarchies
    (absolute paths as loaded), which no output may replace."""
    if not registry.exists:
        return []
    found: list[Path] = []
    for row in registry.sources():
        source = row.get("source") or ""
        if os.path.isabs(source):
            found.append(Path(source))
    return found


def protected(inputs: Iterable[str | Path | None]) -> list[Path]:
    """The given inputs and each database's WAL beside it."""
    out: list[Path] = []
    for source in inputs:
        if source is None:
            continue
        out += [Path(source), Path(f"{source}.wal")]
    return out


def same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def inside(child: Path, folder: Path) -> bool:
    try:
        return child.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def target_of(path: str | Path) -> Path:
    """Where writing `path` lands: through a symbolic link (dangling or not) to its target."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


# -- the checks ----------------------------------------------------------------------------------
def check_file(
    path: str | Path,
    inputs: Iterable[str | Path | None] = (),
    *,
    replace: bool,
    fmt: str | None = None,
    formats: tuple[str, ...] = ("csv", "parquet"),
) -> tuple[Path, str]:
    """An output file and its format, checked before any work: a known format, an existing
    writable folder, not a folder nor a mount point, not any input, and new unless `replace`
    (a file, like a folder, is replaced only when the user says so: the tool cannot tell a
    file it wrote from one it did not). `fmt` names the format when the file's extension does
    not (an .sql log, say). Repairs what a killed write of the same file left beside it."""
    given = Path(path)
    path = target_of(given)
    for source in protected(inputs):
        if same_file(path, source):
            raise ParamsError(f"output {given} names an input ({source}); it would be lost")
    fmt = (fmt or given.suffix.lstrip(".")).lower()
    if fmt not in formats:
        raise ParamsError(
            f"output format must be one of {', '.join(formats)} "
            f"(got {fmt or 'no extension'!r} from {given})"
        )
    _writable_folder(path.parent, given)
    if path.is_dir():
        raise ParamsError(f"output {given} is a folder")
    if os.path.lexists(path) and not path.is_file():
        raise ParamsError(f"output {given} exists and is not a regular file (a pipe or device)")
    if os.path.ismount(path):
        raise ParamsError(f"output {given} is a mount point; name a file")
    repair(path)
    if os.path.lexists(path) and not replace:
        raise ParamsError(f"output {given} exists (use --replace)")
    return path, fmt


def check_folder(path: str | Path, inputs: Iterable[str | Path | None], *, replace: bool) -> Path:
    """A release folder, checked before any work: its parent exists and is writable, it is no
    input and holds none, and it is new, empty, or a release folder the tool wrote (its
    manifest lists every file in it) with `replace`."""
    given = Path(path)
    path = target_of(given)
    for source in protected(inputs):
        if same_file(path, source) or inside(source, path):
            raise ParamsError(f"output {given} names or holds an input ({source})")
    if given.suffix.lower() in FILE_SUFFIXES and not given.is_dir():
        raise ParamsError(
            f"output {given} names a file, but this release is a folder of files: "
            "give a folder name (no extension)"
        )
    _writable_folder(path.parent, given)
    if os.path.ismount(path):
        raise ParamsError(
            f"output {given} is a mount point; a release folder is put in place by renaming, "
            "which a mount point does not allow: name a folder inside it"
        )
    if path.exists() and not path.is_dir():
        raise ParamsError(
            f"output {given} exists and is not a folder (this release is a folder of files)"
        )
    if path.is_dir() and any(path.iterdir()):
        ours = manifest_files(path)
        if ours is None:
            raise ParamsError(
                f"output folder {given} is not empty and was not written by setanon-sql "
                "(no release.json of the tool's); choose another folder"
            )
        foreign = sorted(p.name for p in path.iterdir() if p.name not in ours)
        if foreign:
            shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
            raise ParamsError(
                f"output folder {given} holds files setanon-sql did not write ({shown}); "
                "move them or choose another folder"
            )
        if not replace:
            raise ParamsError(f"output folder {given} exists (use --replace)")
    repair(path)
    return path


def _writable_folder(folder: Path, given: Path) -> None:
    if not folder.is_dir():
        raise ParamsError(f"output folder does not exist: {folder} (for {given})")
    if not os.access(folder, os.W_OK):
        raise ParamsError(f"output folder is not writable: {folder} (for {given})")


def manifest_files(folder: Path) -> set[str] | None:
    """The names a release folder's manifest says the tool wrote (itself included), or None
    when it has no manifest of the tool's."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("tool") != "setanon-sql":
        return None
    files = data.get("files")
    if not isinstance(files, list) or not all(
        isinstance(f, str) and f and Path(f).name == f and not f.startswith(".") for f in files
    ):
        return None
    return {*files, MANIFEST}


# -- staged names and their repair ---------------------------------------------------------------
def staged_name(target: Path, kind: str) -> Path:
    """A hidden name beside `target` that says it is the tool's, whose process made it, and
    what it is (`tmp`: being written; `old`: an earlier output set aside)."""
    return target.parent / f".{target.name}{TAG}{os.getpid()}-{secrets.token_hex(4)}.{kind}"


def _owner(name: str, target: Path) -> int | None:
    """The process id a staged name of `target` records, or None if it is not one."""
    head = f".{target.name}{TAG}"
    if not name.startswith(head) or not name.endswith((".tmp", ".old")):
        return None
    pid = name[len(head) :].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def _alive(pid: int) -> bool:
    return pid == os.getpid() or running(pid)


def repair(target: Path) -> list[Path]:
    """Undo what a killed write of `target` left beside it: its process is gone, so a staged
    `.tmp` is removed, and a set-aside `.old` is put back if `target` is missing (the kill
    fell between the two renames of a swap) or removed otherwise. Returns what it touched."""
    touched: list[Path] = []
    if not target.parent.is_dir():
        return touched
    for entry in sorted(target.parent.iterdir()):
        pid = _owner(entry.name, target)
        if pid is None or _alive(pid):
            continue
        if entry.name.endswith(".old") and not os.path.lexists(target):
            os.replace(entry, target)
        else:
            _remove(entry)
        touched.append(entry)
    return touched


def _remove(path: Path) -> None:
    """Remove a staged file or folder of the tool's; from a folder only what its manifest
    lists (a staged folder that never got one holds only the tool's files)."""
    if path.is_dir() and not path.is_symlink():
        ours = manifest_files(path)
        if ours is None:
            shutil.rmtree(path, ignore_errors=True)
            return
        for name in ours:
            with suppress(FileNotFoundError):
                (path / name).unlink()
        with suppress(OSError):
            path.rmdir()
    else:
        with suppress(FileNotFoundError):
            path.unlink()


def umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# -- writing -------------------------------------------------------------------------------------
@dataclass
class _Staged:
    tmp: Path
    target: Path
    folder: bool
    mode: int
    backup: Path | None = None
    published: bool = False


@dataclass
class Publication:
    """The outputs of one command, staged under hidden names and put in place together.

    `file(target)` and `folder(target)` return the staged path to write into; `publish()`
    renames every staged output into place, setting aside what it replaces; `commit()` then
    removes what was set aside (from a folder only the files its manifest lists); `rollback()`
    puts everything back as it was. A run publishes just before it is swapped in and commits
    once it is (`runs.making`), so a failure of either leaves the earlier run and its files."""

    staged: list[_Staged] = field(default_factory=list)

    def file(self, target: Path) -> Path:
        tmp = staged_name(target, "tmp")
        tmp.touch(mode=0o600, exist_ok=False)
        self.staged.append(_Staged(tmp, target, False, _mode(target, 0o666)))
        return tmp

    def folder(self, target: Path) -> Path:
        tmp = staged_name(target, "tmp")
        tmp.mkdir(mode=0o700)
        self.staged.append(_Staged(tmp, target, True, _mode(target, 0o777)))
        return tmp

    def publish(self) -> None:
        try:
            for s in self.staged:
                _chmod_tree(s.tmp, s.mode, s.folder, s.target)
                if os.path.lexists(s.target):
                    s.backup = staged_name(s.target, "old")
                    _set_aside(s.target, s.backup, s.folder)
                os.replace(s.tmp, s.target)
                s.published = True
        except BaseException:
            self.rollback()
            raise

    def commit(self) -> None:
        for s in self.staged:
            if s.backup is not None:
                _retire(s.backup, s.target)
        self.staged.clear()

    def rollback(self) -> None:
        for s in reversed(self.staged):
            if s.published:
                _remove_new(s.target, s.folder)
            else:
                _remove_new(s.tmp, s.folder)
            if s.backup is not None and os.path.lexists(s.backup):
                os.replace(s.backup, s.target)
        self.staged.clear()

    @contextmanager
    def written(self) -> Iterator[Publication]:
        """Publish and commit at the end of the block; roll back on any failure."""
        try:
            yield self
            self.publish()
        except BaseException:
            self.rollback()
            raise
        self.commit()


def _mode(target: Path, base: int) -> int:
    """A replaced output keeps its mode; a new one takes what the umask leaves of `base`."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return base & ~umask()


def _chmod_tree(path: Path, mode: int, folder: bool, target: Path) -> None:
    """The staged output's mode, and in a folder each file's: that of the file of its name it
    replaces, else what the umask leaves."""
    os.chmod(path, mode)
    if folder:
        for child in path.iterdir():
            os.chmod(child, _mode(target / child.name, 0o666))


def _set_aside(target: Path, backup: Path, folder: bool) -> None:
    """Keep the earlier output under `backup` while the new one takes its name: a file by a
    second link (the name never goes missing), a folder by renaming."""
    if not folder:
        try:
            os.link(target, backup)
            return
        except OSError:
            pass
    os.replace(target, backup)


def _retire(backup: Path, target: Path) -> None:
    """Remove the earlier output once the new one is in: a file, or a release folder's files
    its manifest lists; whatever else a folder came to hold meanwhile is moved into the new
    folder beside the release (or, on a name clash, left where it is)."""
    if backup.is_dir() and not backup.is_symlink():
        ours = manifest_files(backup) or set()
        for child in backup.iterdir():
            if child.name in ours:
                child.unlink()
            elif not os.path.lexists(target / child.name):
                os.replace(child, target / child.name)
        with suppress(OSError):
            backup.rmdir()
    else:
        with suppress(FileNotFoundError):
            backup.unlink()


def _remove_new(path: Path, folder: bool) -> None:
    if folder and path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with suppress(FileNotFoundError):
            path.unlink()


def write_text(target: Path, text: str, publication: Publication | None = None) -> Path:
    """Write text to `target` through a publication (one of its own when none is given)."""
    if publication is None:
        with Publication().written() as own:
            return write_text(target, text, own)
    tmp = publication.file(target)
    tmp.write_text(text, encoding="utf-8")
    return target
