"""Which addresses a process listens on, read from /proc (Linux): the tests that check every
Spark JVM binds to the loopback address only."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path


def listening(pid: int) -> list[str]:
    """The addresses a process listens on (its TCP sockets in state LISTEN, IPv4 and IPv6),
    read from /proc: an IPv4-mapped IPv6 address as its IPv4 address."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    out = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in inodes:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(fields[1].split(":")[0])
            words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
            address = ipaddress.ip_address(words)
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
                address = address.ipv4_mapped
            out.append(str(address))
    return out
