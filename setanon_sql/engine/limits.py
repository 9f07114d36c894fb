"""How much memory and spill disk DuckDB may use when the analyst does not say.

Why not DuckDB's own defaults: it takes 80 % of the machine's memory, and its spill files may
grow to 90 % of the free disk. On a shared machine the first starves other processes, and a
big run that thrashes (reading back far more than it wrote, issue 15) fills the disk before
it fails. Half of each leaves room for everything else and still lets DuckDB spill.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

MEMORY_SHARE = 0.5  # of the physical memory, when --memory-limit is not given
SPILL_SHARE = 0.5  # of the free disk under the temp folder, for DuckDB's spill files
MIN_BYTES = 1 << 30  # never below 1 GiB, whatever the machine reports


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None where the OS does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def default_memory_limit(total: int | None = None) -> str | None:
    """DuckDB's memory_limit as a share of the machine (None: leave DuckDB's default).

    Example:
        >>> default_memory_limit(24 * 2**30)
        '12288MiB'
    """
    total = physical_memory() if total is None else total
    if not total:
        return None
    return mib(max(MIN_BYTES, int(total * MEMORY_SHARE)))


def spill_cap(temp_dir: str | Path, free: int | None = None) -> str:
    """DuckDB's max_temp_directory_size: a share of the disk now free under `temp_dir`.

    Example:
        >>> spill_cap("/", free=20 * 2**30)
        '10240MiB'
    """
    free = shutil.disk_usage(temp_dir).free if free is None else free
    return mib(max(MIN_BYTES, int(free * SPILL_SHARE)))


def mib(size: int) -> str:
    """Bytes as a DuckDB size setting in whole MiB."""
    return f"{size // 2**20}MiB"
