"""A seeded synthetic table with a set-valued column, for (k, k^m) runs at scale (issue 41):
Parquet with an integer `age`, seven categorical QIs `q1..q7` and a LIST column `items`, with
the QIs' taxonomies (child,parent CSVs) and the items' hierarchy (`leaf;parent;...;*` lines,
BMS-WebView-2's format) beside it, and the `setanon anonymize-rt` command line that reads them.

Shape (what makes it like Adult + WV2, not uniform noise): a latent segment per record drives
the QIs (each attribute Zipf-like over a permutation of its values chosen by the segment), so
classes exist to be found; the items (4**6 = 4,096 leaves, fan-out 4) are 1 + Poisson(4) per
record (mean about 5), 70% drawn Zipf-like inside one topic subtree of 64 leaves per record
(itself Zipf-like over the 64 topics), 30% Zipf-like over all leaves. Deterministic per seed.

    python benchmarks/rt_synth.py /tmp/rt_1m --rows 1000000
    # then the printed command, e.g. with --classes cuts --class-size 2000 --item-search topdown
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

SIZES = [16, 8, 7, 14, 5, 2, 40]  # leaves of q1..q7, as Adult's education .. native-country
GROUP = 4  # values per taxonomy group under the root
FANOUT, DEPTH = 4, 6  # the item hierarchy: FANOUT**DEPTH leaves
SEGMENTS, TOPIC_LEAVES = 32, 64


def zipf(rng: np.random.Generator, n: int, size: int, s: float = 1.1) -> np.ndarray:
    """`size` draws in 0..n-1 with probability proportional to 1 / (rank + 1)**s."""
    p = 1.0 / np.arange(1, n + 1) ** s
    return rng.choice(n, size=size, p=p / p.sum())


def taxonomy(name: str, leaves: int) -> list[tuple[str, str]]:
    """child,parent edges: the values in groups of GROUP under the root."""
    edges = [(f"{name}_g{g}", "*") for g in range((leaves + GROUP - 1) // GROUP)]
    return edges + [(f"{name}_{v}", f"{name}_g{v // GROUP}") for v in range(leaves)]


def item_paths() -> list[str]:
    """Every leaf's path up to the root, named as WV2's nodes (`low,high` leaf ids)."""
    lines = []
    for leaf in range(FANOUT**DEPTH):
        path = [str(leaf)]
        for level in range(1, DEPTH):
            span = FANOUT**level
            lo = leaf // span * span
            path.append(f"{lo},{lo + span - 1}")
        lines.append(";".join([*path, "*"]))
    return lines


def records(rows: int, seed: int) -> pa.Table:
    rng = np.random.default_rng(seed)
    segment = zipf(rng, SEGMENTS, rows, 0.8)
    cols: dict[str, pa.Array] = {}
    age = np.clip(17 + (segment % 8) * 7 + rng.normal(0, 8, rows).round(), 17, 90).astype(int)
    cols["age"] = pa.array(age, pa.int64())
    for j, n in enumerate(SIZES, 1):
        perms = np.stack([rng.permutation(n) for _ in range(SEGMENTS)])
        values = perms[segment, zipf(rng, n, rows, 1.3)]
        labels = np.array([f"q{j}_{v}" for v in range(n)])
        cols[f"q{j}"] = pa.array(labels[values])
    lengths = 1 + rng.poisson(4, rows)
    owner = np.repeat(np.arange(rows), lengths)
    topics = zipf(rng, FANOUT**DEPTH // TOPIC_LEAVES, rows, 1.0)
    local = topics[owner] * TOPIC_LEAVES + zipf(rng, TOPIC_LEAVES, owner.size, 1.0)
    spread = rng.permutation(FANOUT**DEPTH)[zipf(rng, FANOUT**DEPTH, owner.size, 1.0)]
    item = np.where(rng.random(owner.size) < 0.7, local, spread)
    key = np.unique(owner.astype(np.int64) * FANOUT**DEPTH + item)
    owner, item = key // FANOUT**DEPTH, key % FANOUT**DEPTH
    offsets = np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=rows))])
    names = pa.array(item.astype(str))
    cols["items"] = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), names)
    return pa.table(cols)


def command(folder: Path) -> str:
    qi = " ".join(["--qi age", *[f"--qi q{j}" for j in range(1, 8)]])
    tax = " ".join(["-t age=median:10", *[f"-t q{j}={folder}/q{j}.csv" for j in range(1, 8)]])
    return (
        f"setanon anonymize-rt {folder}/records.parquet {qi} {tax} --items items "
        f"-H {folder}/items.txt -k 10 -m 2"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.folder.exists():
        raise SystemExit(f"{args.folder} exists; give a new folder")
    started = time.perf_counter()
    args.folder.mkdir(parents=True)
    table = records(args.rows, args.seed)
    pq.write_table(table, args.folder / "records.parquet")
    for j, n in enumerate(SIZES, 1):
        edges = taxonomy(f"q{j}", n)
        text = "child,parent\n" + "".join(f"{c},{p}\n" for c, p in edges)
        (args.folder / f"q{j}.csv").write_text(text)
    (args.folder / "items.txt").write_text("\n".join(item_paths()) + "\n")
    items = pc.list_value_length(table["items"]).to_numpy()
    print(f"{args.rows} records, {items.sum()} items (mean {items.mean():.2f}), "
          f"{time.perf_counter() - started:.1f} s -> {args.folder}")  # fmt: skip
    print(command(args.folder))


if __name__ == "__main__":
    main()
