"""Nothing the user owns is ever deleted or overwritten (#40, defects 1-4 and the outputs of
"Also"): a release folder is replaced only when the tool wrote every file in it, every input
(command line and registry) is protected from every output, a run and its outputs take their
places together, and what a SIGKILL leaves the next run repairs. Each case goes through the
command line, with its exit code."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from helpers.cli import EX, cli
from helpers.user_files import baskets

from setanon_sql.errors import ExitCode
from setanon_sql.store import outputs

FIG2 = EX / "fig2.csv"
FIG2_H = EX / "fig2_hierarchy.csv"


def tree(folder: Path) -> dict[str, str]:
    """Every file under `folder` (hidden ones too) with its checksum: what a user would lose."""
    return {
        str(p.relative_to(folder)): hashlib.md5(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def disassociate(*args: object) -> object:
    return cli("anonymize", "-a", "disassociation", "-k", 2, "-m", 2, "-q", *args)  # args win


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# -- defect 1: a folder the tool did not (wholly) write is never emptied ------------------------
def test_a_web_apps_folder_with_its_own_release_json_is_refused(tmp_path):
    app = tmp_path / "site"
    (app / "src").mkdir(parents=True)
    (app / "release.json").write_text('{"version": "1.2.0"}')
    (app / "main.js").write_text("console.log(1)")
    (app / "src" / "index.js").write_text("export {}")
    before = tree(tmp_path)
    r = disassociate(FIG2, "-o", app, "--replace")
    assert r.code == ExitCode.USAGE, r.stderr
    assert "was not written by setanon-sql" in r.stderr
    assert tree(tmp_path) == before


def test_a_users_file_beside_a_release_is_never_deleted(tmp_path):
    out = tmp_path / "rel"
    assert disassociate(FIG2, "-o", out).code == 0
    (out / "notes.txt").write_text("my notes")
    before = tree(tmp_path)
    r = disassociate(FIG2, "-o", out, "--replace")
    assert r.code == ExitCode.USAGE, r.stderr
    assert "notes.txt" in r.stderr and tree(tmp_path) == before
    (out / "notes.txt").unlink()
    r = disassociate(FIG2, "-o", out, "--replace")
    assert r.code == 0, r.stderr
    manifest = json.loads((out / "release.json").read_text())
    assert sorted(p.name for p in out.iterdir()) == sorted([*manifest["files"], "release.json"])
    assert hidden(tmp_path) == []


def test_a_manifest_listing_a_foreign_path_is_not_trusted(tmp_path):
    out = tmp_path / "rel"
    assert disassociate(FIG2, "-o", out).code == 0
    manifest = json.loads((out / "release.json").read_text())
    manifest["files"].append("../elsewhere.txt")
    (out / "release.json").write_text(json.dumps(manifest))
    (tmp_path / "elsewhere.txt").write_text("mine")
    r = disassociate(FIG2, "-o", out, "--replace")
    assert r.code == ExitCode.USAGE, r.stderr
    assert (tmp_path / "elsewhere.txt").read_text() == "mine"


def test_only_the_files_the_manifest_lists_go_when_one_arrives_during_the_run(tmp_path):
    """A file put in the folder after the check but before the swap is kept, in the new folder."""
    out = tmp_path / "rel"
    assert disassociate(FIG2, "-o", out).code == 0
    new = outputs.staged_name(out, "tmp")
    new.mkdir()
    (new / "release.json").write_text(json.dumps({"tool": "setanon-sql", "files": []}))
    (out / "late.txt").write_text("arrived late")
    files = outputs.Publication()
    files.staged.append(outputs._Staged(new, out, True, 0o755))
    files.publish()
    files.commit()
    assert (out / "late.txt").read_text() == "arrived late"
    assert hidden(tmp_path) == []


# -- defect 2: an input named only in the registry is protected ----------------------------------
def test_a_dataset_source_in_the_output_folder_is_protected(tmp_path):
    out = tmp_path / "out"
    assert disassociate(FIG2, "-o", out).code == 0
    mine = out / "term_chunks.csv"  # the user loaded a file that lies in the folder
    mine.write_bytes(FIG2.read_bytes())
    db = tmp_path / "w.duckdb"
    assert cli("load", mine, "--db", db, "-q").code == 0
    before = tree(out)
    r = disassociate("--db", db, "-o", out, "--replace")
    assert r.code == ExitCode.USAGE, r.stderr
    assert "holds an input" in r.stderr and tree(out) == before


def test_a_hierarchy_source_named_by_the_registry_is_protected(tmp_path):
    h = tmp_path / "h.csv"
    h.write_bytes(FIG2_H.read_bytes())
    db = tmp_path / "w.duckdb"
    assert cli("load", FIG2, "-H", h, "--db", db, "-q").code == 0
    for flag in ("-o", "--sql-log"):
        target = h if flag == "-o" else h.with_suffix(".sql")
        if flag == "--sql-log":
            target.write_text("-- mine")
            os.link(target, tmp_path / "same.sql")
        r = cli("anonymize", "--db", db, "-k", 2, "-m", 2, "-q", flag, h)
        assert r.code == ExitCode.USAGE, r.stderr
    assert h.read_bytes() == FIG2_H.read_bytes()


# -- defect 3: every command that writes refuses the run's own source ----------------------------
@pytest.fixture
def stored(tmp_path):
    """A database whose dataset was loaded from `basket.csv` (a copy of Fig. 2), with a
    disassociation run `rb` and an AA run `ra`."""
    src = tmp_path / "basket.csv"
    src.write_bytes(FIG2.read_bytes())
    db = tmp_path / "w.duckdb"
    r = cli("anonymize", src, "-H", FIG2_H, "--db", db, "--run", "ra", "-k", 2, "-m", 2, "-q")
    assert r.code == 0, r.stderr
    r = disassociate("--db", db, "--run", "rb")
    assert r.code == 0, r.stderr
    return src, db


@pytest.mark.parametrize(
    "command",
    [
        ("reconstruct", "rb", "-o", "{src}"),
        ("report", "--run", "ra", "-o", "{src}"),
        ("compare", "ra", "rb", "--report", "{src}"),
    ],
)
def test_commands_that_write_refuse_the_runs_source(stored, command):
    src, db = stored
    before = src.read_bytes()
    r = cli(*[str(src) if a == "{src}" else a for a in command], "--db", db)
    assert r.code == ExitCode.USAGE, r.stderr
    assert src.read_bytes() == before


@pytest.mark.parametrize(
    "command", [("report", "--run", "ra", "-o"), ("compare", "ra", "--report")]
)
def test_pages_are_html_only(stored, tmp_path, command):
    _, db = stored
    page = tmp_path / "data.txt"
    page.write_text("mine")
    r = cli(*command, page, "--db", db)
    assert r.code == ExitCode.USAGE and "html" in r.stderr, r.stderr
    assert page.read_text() == "mine"


# -- the walk: every command that writes, against every input it reads --------------------------
def writers(src: Path, h: Path, db: Path, table: Path, tax: Path) -> list[tuple[tuple, list]]:
    """Every output option of every command that writes a file or folder, its output a slot
    `{o}`, with every file that command reads: on its command line, and those the --db's
    registry names (`src` and `h`, loaded into `db`)."""
    stored = [db, src, h]
    return [
        (("anonymize", src, "-H", h, "-k", 2, "-m", 2, "-q", "-o", "{o}"), [src, h]),
        (("anonymize", src, "-H", h, "-k", 2, "-m", 2, "-q", "--sql-log", "{o}"), [src, h]),
        (("anonymize", "--db", db, "-k", 2, "-m", 2, "-q", "-o", "{o}"), stored),
        (("anonymize", "--db", db, "-k", 2, "-m", 2, "-q", "--sql-log", "{o}"), stored),
        (("anonymize", "--db", db, "-a", "disassociation", "-k", 2, "-m", 2, "-q", "-o", "{o}"),
         stored),
        (("anonymize-table", table, "--qi", "age", "-t", f"age={tax}", "-k", 2, "--drop", "zip",
          "-o", "{o}"), [table, tax]),
        (("reconstruct", "rb", "--db", db, "-o", "{o}"), stored),
        (("report", "--run", "ra", "--db", db, "-o", "{o}"), stored),
        (("compare", "ra", "--db", db, "--report", "{o}"), stored),
        (("sweep", src, "-a", "aa", "-k", 2, "-H", h, "--report", "{o}"), [src, h]),
        (("hierarchy", "build", src, "--fanout", 2, "-o", "{o}"), [src]),
    ]  # fmt: skip


def content(path: Path) -> object:
    """A file's bytes; a DuckDB file's tables and their checksums (its pages move on open)."""
    if path.suffix != ".duckdb":
        return path.read_bytes()
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = con.execute(
            "SELECT table_schema, table_name FROM information_schema.tables ORDER BY 1, 2"
        ).fetchall()
        return [
            (
                s,
                t,
                con.execute(f'SELECT count(*), sum(hash(columns(*))) FROM "{s}"."{t}"').fetchall(),
            )
            for s, t in tables
            if t != "sql_log"
        ]
    finally:
        con.close()


def test_no_command_writes_over_or_into_any_input(tmp_path):
    src = tmp_path / "basket.csv"
    src.write_bytes(FIG2.read_bytes())
    h = tmp_path / "h.csv"
    h.write_bytes(FIG2_H.read_bytes())
    db = tmp_path / "w.duckdb"
    r = cli("anonymize", src, "-H", h, "--db", db, "--run", "ra", "-k", 2, "-m", 2, "-q")
    assert r.code == 0, r.stderr
    assert disassociate("--db", db, "--run", "rb").code == 0
    table = tmp_path / "people.csv"
    table.write_text("age,zip\n" + "".join(f"{20 + i % 4},{i % 3}\n" for i in range(12)))
    tax = tmp_path / "age.csv"
    tax.write_text("child,parent\n20,20-21\n21,20-21\n22,22-23\n23,22-23\n20-21,*\n22-23,*\n")
    every = [src, h, db, table, tax]
    before = {p: content(p) for p in every}
    checked = 0
    for command, read in writers(src, h, db, table, tax):
        for target in read:
            r = cli(*[str(target) if a == "{o}" else a for a in command])
            assert r.code == ExitCode.USAGE, (command, target, r.code, r.stderr)
            assert "input" in r.stderr, r.stderr
            assert {p: content(p) for p in every} == before, (command, target)
            checked += 1
        # and each writes where nothing is read (the walk's commands are themselves right)
        suffix = ".sql" if command[-2] == "--sql-log" else ".csv"
        if command[0] in ("report", "compare", "sweep"):
            suffix = ".html"
        elif "disassociation" in command:
            suffix = ""
        fresh = tmp_path / f"w{checked}{suffix}"
        r = cli(*[str(fresh) if a == "{o}" else a for a in command])
        assert r.code == 0, (command, r.stderr)
        assert fresh.exists()
        before = {p: content(p) for p in every}  # a run of the --db's is the tool's to add
    assert checked == 27
    # a folder output holding any of them is refused as well
    r = disassociate("--db", db, "-o", tmp_path, "--replace")
    assert r.code == ExitCode.USAGE and "input" in r.stderr, r.stderr


# -- defect 4: a replacement whose output fails leaves the run and the files as they were -------
def snapshot(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT run_id, name, status FROM setanon.runs WHERE status = 'complete' ORDER BY 1"
        ).fetchall()
    finally:
        con.close()


def test_a_full_disk_while_writing_the_output_keeps_the_earlier_run_and_folder(
    tmp_path, monkeypatch
):
    db, out = tmp_path / "w.duckdb", tmp_path / "rel"
    assert disassociate(FIG2, "--db", db, "--run", "r", "-o", out).code == 0
    runs, files = snapshot(db), tree(tmp_path / "rel")

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(out))

    monkeypatch.setattr(outputs, "_chmod_tree", full)
    r = disassociate(FIG2, "--db", db, "--run", "r", "-o", out, "--replace", "-m", 1)
    assert r.code == ExitCode.RESOURCES, r.stderr
    assert snapshot(db) == runs and tree(out) == files
    assert hidden(tmp_path) == []


def test_a_swap_that_fails_after_the_files_are_in_puts_the_files_back(tmp_path, monkeypatch):
    from setanon_sql.store.registry import Registry

    db, out, log = tmp_path / "w.duckdb", tmp_path / "rel.csv", tmp_path / "run.sql"
    args = (FIG2, "-H", FIG2_H, "--db", db, "--run", "r", "-k", 2, "-m", 2, "-q")
    assert cli("anonymize", *args, "-o", out, "--sql-log", log).code == 0
    runs, before = snapshot(db), tree(tmp_path)

    def broken(*a: object, **k: object) -> None:
        raise duckdb.IOException("IO Error: could not write the database")

    monkeypatch.setattr(Registry, "swap_run", broken)
    r = cli("anonymize", *args, "-o", out, "--sql-log", log, "--replace", "-a", "da")
    assert r.code != 0, r.stderr
    assert snapshot(db) == runs
    assert tree(tmp_path)["rel.csv"] == before["rel.csv"]
    assert tree(tmp_path)["run.sql"] == before["run.sql"]
    assert hidden(tmp_path) == []


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_what_a_sigkill_left_beside_an_output_is_repaired_by_the_next_run(tmp_path):
    out = tmp_path / "rel"
    assert disassociate(FIG2, "-o", out).code == 0
    pid = dead_pid()
    stale = tmp_path / f".rel.setanon-{pid}-0000aaaa.tmp"  # killed while writing
    stale.mkdir()
    (stale / "clusters.csv").write_text("half")
    foreign = tmp_path / ".rel.keep.tmp"  # not the tool's name: never touched
    foreign.write_text("mine")
    r = disassociate(FIG2, "-o", out, "--replace")
    assert r.code == 0, r.stderr
    assert hidden(tmp_path) == [".rel.keep.tmp"]
    # killed between the two renames of a swap: the earlier folder is put back
    files = tree(out)
    aside = tmp_path / f".rel.setanon-{pid}-0000bbbb.old"
    os.replace(out, aside)
    r = disassociate(FIG2, "-o", out, "--replace", "-k", 3)
    assert r.code == 0, r.stderr
    assert hidden(tmp_path) == [".rel.keep.tmp"] and tree(out) != files
    assert json.loads((out / "release.json").read_text())["k"] == 3


def test_a_real_sigkill_during_the_folder_write_is_repaired(tmp_path):
    """SIGKILL the process as soon as its staged folder appears; the next run leaves one
    release folder and nothing hidden."""
    src = tmp_path / "b.txt"
    baskets(src, 20_000)
    out = tmp_path / "rel"
    assert disassociate(src, "-o", out, "--files", "parquet").code == 0
    files = tree(out)
    cmd = [sys.executable, "-m", "setanon_sql", "anonymize", str(src), "-a", "disassociation",
           "-k", "3", "-m", "2", "-o", str(out), "--replace", "-q"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if any(n.endswith(".tmp") for n in hidden(tmp_path)):
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.002)
    proc.wait(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the run finished before its staged folder was seen")
    assert proc.returncode == -signal.SIGKILL
    assert tree(out) == files or sorted(tree(out)) == sorted(files)  # whole, old or new
    r = disassociate(src, "-o", out, "--replace", "--files", "parquet")
    assert r.code == 0, r.stderr
    assert hidden(tmp_path) == []


# -- "Also": links, mount points, modes, a file name for a folder --------------------------------
def test_outputs_through_symbolic_links_land_on_their_targets(tmp_path):
    (tmp_path / "real").mkdir()
    link = tmp_path / "latest"
    link.symlink_to(tmp_path / "real" / "v1")  # dangling until the release is written
    assert disassociate(FIG2, "-o", link).code == 0
    assert link.is_symlink() and (tmp_path / "real" / "v1" / "release.json").is_file()
    assert disassociate(FIG2, "-o", link, "--replace").code == 0
    assert link.is_symlink() and hidden(tmp_path / "real") == []
    page = tmp_path / "page.csv"
    page.symlink_to(tmp_path / "real" / "rel.csv")
    r = cli("anonymize", FIG2, "-H", FIG2_H, "-k", 2, "-m", 2, "-q", "-o", page)
    assert r.code == 0, r.stderr
    assert page.is_symlink() and (tmp_path / "real" / "rel.csv").is_file()


def test_a_dangling_link_into_a_missing_folder_is_refused_before_the_run(tmp_path):
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "nowhere" / "rel")
    r = disassociate(FIG2, "-o", link)
    assert r.code == ExitCode.USAGE and "does not exist" in r.stderr, r.stderr
    assert ".tmp" not in r.stderr


@pytest.mark.skipif(not os.path.ismount("/proc"), reason="no /proc mount")
def test_a_mount_point_is_refused_before_the_run():
    r = disassociate(FIG2, "-o", "/proc")
    assert r.code == ExitCode.USAGE, r.stderr
    if os.access("/", os.W_OK):
        assert "mount point" in r.stderr


def test_a_file_name_for_a_release_folder_is_refused(tmp_path):
    r = disassociate(FIG2, "-o", tmp_path / "rel.csv")
    assert r.code == ExitCode.USAGE and "folder name" in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_written_files_honour_the_umask_and_a_replaced_file_keeps_its_mode(stored, tmp_path):
    _, db = stored
    old = os.umask(0o022)
    try:
        page, log = tmp_path / "r.html", tmp_path / "run.sql"
        assert cli("report", "--run", "ra", "--db", db, "-o", page).code == 0
        assert page.stat().st_mode & 0o777 == 0o644
        os.chmod(page, 0o664)
        assert cli("report", "--run", "ra", "--db", db, "-o", page, "--replace").code == 0
        assert page.stat().st_mode & 0o777 == 0o664
        args = ("anonymize", "--db", db, "-k", 2, "-m", 2, "-q", "--sql-log", log)
        assert cli(*args).code == 0
        assert log.stat().st_mode & 0o777 == 0o644
        out = tmp_path / "rel"
        assert disassociate("--db", db, "-o", out).code == 0
        assert out.stat().st_mode & 0o777 == 0o755
        assert {p.stat().st_mode & 0o777 for p in out.iterdir()} == {0o644}
        h = tmp_path / "h.csv"
        assert cli("hierarchy", "build", FIG2, "--fanout", 2, "-o", h).code == 0
        assert h.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_a_fifo_or_device_is_never_replaced_by_an_output(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    r = cli("anonymize", FIG2, "-H", FIG2_H, "-k", 2, "-m", 2, "-q", "-o", fifo)
    assert r.code == ExitCode.USAGE and "regular file" in r.stderr, r.stderr
    assert fifo.is_fifo()
    r = cli("anonymize", FIG2, "-H", FIG2_H, "-k", 2, "-m", 2, "-q", "--sql-log", "/dev/null")
    assert r.code == ExitCode.USAGE, r.stderr
    assert Path("/dev/null").is_char_device()
