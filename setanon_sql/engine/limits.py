"""How much memory and spill disk DuckDB may use when the analyst does not say.

Why not DuckDB's own defaults: it takes 80 % of the machine's memory, and its spill files may
grow to 90 % of the free disk. On a shared machine the first starves other processes, and a
big run that thrashes (reading back far more than it wrote, issue 15) fills the disk before
it fails. Half of each leaves room for everything else and still lets DuckDB spill. Half of
the memory available when the process starts, not of the machine: DuckDB keeps what it may
take (an evaluate of 10^6 probes held 10 GB of a 24 GB machine, and was no faster than under
3 GB), so a run started beside another would otherwise take memory the other holds.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..errors import InputError, ParamsError

MEMORY_SHARE = 0.5  # of the memory available, when --memory-limit is not given
SPILL_SHARE = 0.5  # of the free disk under the temp folder, for DuckDB's spill files
MIN_BYTES = 1 << 30  # never below 1 GiB, whatever the machine reports
MIN_MEMORY_LIMIT = 1 << 20  # a --memory-limit below this leaves DuckDB no block to work in
# the sizes --memory-limit takes (a subset of what DuckDB's memory_limit parses), in bytes
MEMORY_UNITS = {
    **dict.fromkeys(("b", "byte", "bytes"), 1),
    **{u: 1000**i for i, us in enumerate(("kb k", "mb m", "gb g", "tb t"), 1) for u in us.split()},
    **{u: 1024**i for i, u in enumerate(("kib", "mib", "gib", "tib"), 1)},
}
_MEMORY = re.compile(
    r"\s*(?P<sign>-?)\s*(?P<number>(\d+\.?\d*|\.\d+)(e[-+]?\d+)?)\s*(?P<unit>[a-z%]*)\s*", re.I
)
THREADS_PER_CORE = 4  # --threads above this many per core only costs (DuckDB starts them all)
# how DuckDB's IO errors say the disk (or a limit on it) is full
DISK_FULL = ("no space left", "disk quota", "file too large", "max_temp_directory_size")
# how DuckDB says its spill files reached max_temp_directory_size: an OutOfMemoryException whose
# first line ("failed to offload data block ...") does not say so; a later line names the setting
SPILL_FULL = "'max_temp_directory_size' setting"


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None where the OS does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def available_memory() -> int | None:
    """The memory free for new work now: Linux's MemAvailable (which counts the page cache
    the kernel can reclaim), or None where the OS does not tell."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def default_memory_limit(total: int | None = None, available: int | None = None) -> str | None:
    """DuckDB's memory_limit as a share of the memory available (of the machine where that
    is not told), at least 1 GiB (None: leave DuckDB's default). A `total` given describes a
    machine whose memory is all available unless `available` says otherwise.

    Example:
        >>> default_memory_limit(24 * 2**30)
        '12288MiB'
        >>> default_memory_limit(24 * 2**30, available=6 * 2**30)
        '3072MiB'
    """
    if total is None:
        total = physical_memory()
        available = available_memory() if available is None else available
    if not total:
        return None
    room = min(total, available or total)
    return mib(max(MIN_BYTES, int(room * MEMORY_SHARE)))


def check_memory_limit(text: str | None, total: int | None = None) -> float | None:
    """Refuse a --memory-limit DuckDB would misread or cannot work under: a negative size is
    no limit at all to DuckDB (`-1GB` was taken silently), 0 or a few bytes make every
    statement fail (`0%` ended as an internal error), and a share above 100 % or a size above
    the machine's memory is no limit either.

    Example:
        >>> check_memory_limit("4GB", total=8 * 2**30)
        4000000000.0
        >>> check_memory_limit("-1GB", total=8 * 2**30)
        Traceback (most recent call last):
        ...
        setanon_sql.errors.ParamsError: --memory-limit '-1GB' is negative (DuckDB would take it as no limit); give a size such as 4GB, 512MiB or 50%

    Returns the size in bytes (None for no text).
    """
    if text is None:
        return None
    hint = "give a size such as 4GB, 512MiB or 50%"
    found = _MEMORY.fullmatch(text)
    unit = found["unit"].lower() if found else ""
    if not found or (unit != "%" and unit not in MEMORY_UNITS):
        raise ParamsError(
            f"--memory-limit {text!r} is not a size: {hint} (units B, KB, MB, GB, TB, KiB, "
            "MiB, GiB, TiB)"
        )
    if found["sign"] == "-":
        raise ParamsError(
            f"--memory-limit {text!r} is negative (DuckDB would take it as no limit); {hint}"
        )
    number = float(found["number"])
    total = physical_memory() if total is None else total
    if unit == "%":
        if number > 100:
            raise ParamsError(f"--memory-limit {text!r}: a share of the memory is at most 100%")
        size = number / 100 * total if total else math.inf
    else:
        size = number * MEMORY_UNITS[unit]
    if size < MIN_MEMORY_LIMIT:
        raise ParamsError(
            f"--memory-limit {text!r} is below the {mib(MIN_MEMORY_LIMIT)} DuckDB needs to "
            f"work at all; {hint}"
        )
    if total and size > total:
        raise ParamsError(
            f"--memory-limit {text!r} is more than this machine's memory ({mib(total)}); "
            "at most 100%"
        )
    return size


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


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_threads(threads: int | None, available: int | None = None) -> None:
    """Refuse a thread count DuckDB would start but the machine cannot run: above
    THREADS_PER_CORE per core (`--threads 100000` started ~29,000 threads).

    Example:
        >>> check_threads(8, available=2)
        >>> check_threads(9, available=2)
        Traceback (most recent call last):
        ...
        setanon_sql.errors.ParamsError: --threads 9 is more than 4 per core of this machine's 2 (at most 8)
    """
    if threads is None:
        return
    most = THREADS_PER_CORE * (available or cores())
    if not 1 <= threads <= most:
        raise ParamsError(
            f"--threads {threads} is more than {THREADS_PER_CORE} per core of this machine's "
            f"{available or cores()} (at most {most})"
            if threads > most
            else f"--threads must be at least 1, got {threads}"
        )


def check_spill_folder(folder: Path) -> None:
    """A --temp-dir must be a folder DuckDB can write its spill files into: checked by
    writing one, since permission bits say nothing of a read-only file system."""
    if not folder.is_dir():
        raise InputError(f"--temp-dir {folder} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise InputError(f"--temp-dir {folder} is not writable: {e.strerror or e}") from e
