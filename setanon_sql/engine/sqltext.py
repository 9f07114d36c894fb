"""SQL text: the one way identifiers are quoted and values written as literals, and table
names split into their parts. Pure string functions, so every layer may use them without
importing an engine."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from ..errors import ParamsError


def quote(name: str) -> str:
    """The one way identifiers are quoted: in double quotes, an inner one doubled (what
    sqlglot's `to_identifier(name, quoted=True)` writes for DuckDB, without importing sqlglot
    on paths that build no SQL with it).

    Example:
        >>> quote('o"brien'), quote("a.b")
        ('"o""brien"', '"a.b"')
    """
    return '"' + name.replace('"', '""') + '"'


def literal(value: Any) -> str:
    """A value as an SQL literal, for the places DuckDB takes no bound parameter (COPY TO,
    ATTACH, SET) and for replay scripts. Floats are cast to DOUBLE, as a bound float is.

    Example:
        >>> literal("o'brien"), literal(0.5), literal([1, None])
        ("'o''brien'", 'CAST(0.5 AS DOUBLE)', '[1, NULL]')
    """
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value) if math.isfinite(value) else f"'{value}'"
        return f"CAST({text} AS DOUBLE)"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{literal(str(k))}: {literal(v)}" for k, v in value.items()) + "}"
    return "'" + str(value).replace("'", "''") + "'"


def split_qualified(name: str) -> list[str]:
    """A dotted table name as its parts, each taken as an identifier: `"my.schema".t` and
    `o'brien` are fine; a part in double quotes may hold dots and doubled quotes.

    Example:
        >>> split_qualified('shop."my.schema".orders'), split_qualified("o'brien")
        (['shop', 'my.schema', 'orders'], ["o'brien"])
    """
    parts: list[str] = []
    i, n = 0, len(name)
    while True:
        if i < n and name[i] == '"':
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise ParamsError(f"table name {name!r}: unbalanced double quote")
                if name[j] == '"':
                    if j + 1 < n and name[j + 1] == '"':
                        buf.append('"')
                        j += 2
                        continue
                    break
                buf.append(name[j])
                j += 1
            parts.append("".join(buf))
            i = j + 1
        else:
            j = name.find(".", i)
            j = n if j < 0 else j
            parts.append(name[i:j])
            i = j
        if i >= n:
            break
        if name[i] != ".":
            raise ParamsError(f"table name {name!r}: expected a dot after a quoted part")
        i += 1
    if any(p == "" for p in parts) or len(parts) > 3:
        raise ParamsError(
            f"table name {name!r} must be table, schema.table or catalog.schema.table"
        )
    return parts


def qualified(*parts: str | None) -> str:
    """`catalog.schema.table` (parts that are None left out), each part quoted."""
    return ".".join(quote(p) for p in parts if p is not None)


_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|\$([A-Za-z_]\w*)", re.S)


def inline_params(sql: str, params: Mapping[str, Any]) -> str:
    """`sql` with every `$name` placeholder outside strings and comments replaced by the literal
    of its value.

    Example:
        >>> inline_params("SELECT $k, '$k' -- $k", {"k": 3})
        "SELECT 3, '$k' -- $k"
    """

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name is None:
            return m.group(0)
        if name not in params:
            raise KeyError(f"no value for parameter ${name}")
        return literal(params[name])

    return _TOKEN.sub(sub, sql)
