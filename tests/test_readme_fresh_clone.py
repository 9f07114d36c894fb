"""The READMEs' examples run from a clone alone, with nothing beside it: they read files the
repository ships (`examples/`) or make (`setanon synth`), never the benchmark data at
`../shared/data`, where every such example exited 3 on a fresh clone. Each example that reads
data is run from a copy of the READMEs and `examples/` in a folder with no `../shared` beside
it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = ("README.md", "examples/adult/README.md")
# files the READMEs name as the reader's own (`setanon anonymize baskets.txt ...`): a command
# naming one shows a form, not data the repository has, and is left out
YOURS = {"baskets.txt", "data.txt", "data.parquet", "hier.txt", "release/", "itemsets.txt"}


def examples(readme: str) -> list[str]:
    """The shell blocks of a README: fenced as bash, or unmarked and starting with setanon."""
    blocks: list[str] = []
    fence: tuple[str, list[str]] | None = None
    for line in (ROOT / readme).read_text(encoding="utf-8").splitlines():
        if fence is None and line.startswith("```"):
            fence = (line[3:].strip(), [])
        elif fence is not None and line.startswith("```"):
            language, body = fence
            if language == "bash" or (language == "" and body and body[0].startswith("setanon")):
                blocks.append("\n".join(body) + "\n")
            fence = None
        elif fence is not None:
            fence[1].append(line)
    return blocks


def commands(block: str) -> str:
    """The block as a script: continued lines joined, comments dropped, and without the
    commands that name the reader's own files."""
    kept = []
    for line in block.replace("\\\n", " ").splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).rstrip()
        if line and not YOURS & set(line.split()):
            kept.append(line)
    return "\n".join(kept)


def reads_shipped_data(block: str) -> bool:
    """An example whose data the repository ships or makes, written out in full (no `...`
    standing for the command above, no install step)."""
    script = commands(block)
    whole = "..." not in script and "pip install" not in script
    return whole and any(s in script for s in ("examples/", "$E/", "setanon synth"))


def test_no_readme_example_reads_the_data_beside_the_repository() -> None:
    for readme in READMES:
        for block in examples(readme):
            assert "../shared" not in block, f"{readme}:\n{block}"


def test_the_examples_that_read_data_run_from_a_clone_alone(tmp_path) -> None:
    setanon = shutil.which("setanon", path=str(Path(sys.executable).parent))
    assert setanon is not None, "the README's commands need the installed `setanon` script"
    env = {**os.environ, "PATH": f"{Path(setanon).parent}{os.pathsep}{os.environ['PATH']}"}
    ran = 0
    for n, readme in enumerate(READMES):  # a clone each: a reader follows one README at a time
        clone = tmp_path / f"clone{n}"
        clone.mkdir()
        shutil.copy2(ROOT / readme, clone / Path(readme).name)
        shutil.copytree(ROOT / "examples", clone / "examples")
        assert not (tmp_path / "shared").exists()
        for block in filter(reads_shipped_data, examples(readme)):
            done = subprocess.run(
                ["bash", "-e", "-c", commands(block)], cwd=clone, env=env,
                capture_output=True, text=True, timeout=900,
            )  # fmt: skip
            assert done.returncode == 0, f"{readme}:\n{block}\n{done.stderr}"
            ran += 1
    assert ran >= 8, ran  # the data-reading examples of both READMEs, not a parse gone empty


@pytest.mark.parametrize("readme", READMES)
def test_every_example_found_is_a_command(readme) -> None:
    assert examples(readme), readme
