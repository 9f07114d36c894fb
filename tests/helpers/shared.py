"""The benchmark data beside the repository (`../shared/data`: BMS-WebView, UCI Adult, their
hierarchy; not shipped, see its SOURCES.md). The few tests that need the real files ask for
them here, and skip, saying which file and why, on a clone without them: the suite and the
README's test command run from a fresh clone alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cli import ROOT

SHARED = ROOT.parent / "shared" / "data"


def reason(name: str | None = None) -> str:
    """Why a test that reads the shared data is skipped."""
    what = f"../shared/data/{name}" if name else "../shared/data"
    return f"needs {what} beside the repository (the benchmark data, not shipped)"


def shared_file(name: str) -> Path:
    """A file of the shared data; the test calling it is skipped when it is absent."""
    path = SHARED / name
    if not path.is_file():
        pytest.skip(reason(name))
    return path


def needs_shared(name: str) -> pytest.MarkDecorator:
    """A test's mark for a file of the shared data it reads (skipped when absent)."""
    return pytest.mark.skipif(not (SHARED / name).is_file(), reason=reason(name))
