"""Whether a process lives is asked in one place (`engine.spill.running`): the staged outputs'
repair (`store.outputs`) and the spill folders' sweep use the same test, so a staged file of a
process of another user is kept by both (issue 44's copy-paste)."""

from __future__ import annotations

import os
import subprocess
import sys

from setanon_sql.engine import spill
from setanon_sql.store import outputs


def test_outputs_asks_spills_running() -> None:
    assert outputs.running is spill.running


def test_alive_and_dead() -> None:
    """This process lives; a child that has exited and been reaped does not."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    dead = int(child.stdout)
    assert outputs._alive(os.getpid())
    assert not outputs._alive(dead) and not spill.running(dead)
