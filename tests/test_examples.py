"""The bundled examples run as they are, and the README's main command works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def test_quickstart_example_runs():
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "quickstart.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # as if installed
    )
    assert done.returncode == 0, done.stderr
    assert "verified = True" in done.stdout and "a1 -> A" in done.stdout


def test_readme_main_command(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text()
    line = next(ln for ln in readme.splitlines() if ln.startswith("pip install . && setanon "))
    args = line.split("&& setanon ", 1)[1].split()
    out = tmp_path / "release.csv"
    args[args.index("--output") + 1] = str(out)
    r = cli(*args)
    assert r.code == 0, r.stderr
    assert out.read_text().splitlines()[0] == "tid,item"
