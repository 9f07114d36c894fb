"""The md5 of a disassociated release folder up to its row numbering: a chunk's rows are
numbered by a keyed shuffle drawn anew on every run, so two runs of the same code write
different bytes; here every chunk's rows are taken as a sorted list of item sets, the other
files byte for byte. Two folders with the same digest hold the same release.

    python benchmarks/release_digest.py OUT_BEFORE OUT_AFTER
"""

from __future__ import annotations

import csv
import hashlib
import sys
from pathlib import Path

SHUFFLED = ("record_chunks.csv", "shared_chunks.csv")


def chunk_rows(path: Path) -> dict[tuple[int, int], list[tuple[str, ...]]]:
    """Each (unit, chunk)'s rows as sorted item tuples, the rows sorted."""
    rows: dict[tuple[int, int, int], list[str]] = {}
    with path.open(newline="") as f:
        reader = csv.reader(f)
        next(reader)
        for unit, chunk, row, item in reader:
            rows.setdefault((int(unit), int(chunk), int(row)), []).append(item)
    chunks: dict[tuple[int, int], list[tuple[str, ...]]] = {}
    for (unit, chunk, _), items in rows.items():
        chunks.setdefault((unit, chunk), []).append(tuple(sorted(items)))
    return {key: sorted(value) for key, value in chunks.items()}


def digest(folder: Path) -> str:
    """The folder's digest, row numbering aside."""
    h = hashlib.md5()
    for path in sorted(folder.iterdir()):
        h.update(path.name.encode())
        if path.name in SHUFFLED:
            for key, value in sorted(chunk_rows(path).items()):
                h.update(repr((key, value)).encode())
        else:
            h.update(path.read_bytes())
    return h.hexdigest()


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(digest(Path(arg)), arg)
