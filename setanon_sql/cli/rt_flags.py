"""What `anonymize-rt` and `sweep-rt` share in speaking to the user: the items' hierarchy as
their flags give it, and the library's refusals with its parameters named as those flags."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ParamsError
from . import options as o

if TYPE_CHECKING:
    from ..store.hierarchy_spec import HierarchySpec


def item_hierarchy(
    path: Path | None,
    format: str | None,
    code_prefix: bool | None,
    encoding: str | None,
    dis: bool,
) -> HierarchySpec | None:
    """The items' hierarchy, -H or --code-prefix (None: a command without that flag); none
    for a disassociated set column, which releases its items as they are (a tree given there
    only checks them)."""
    from ..store.hierarchy_spec import HierarchySpec

    o.refuse_unless(path is None or not code_prefix, "give -H FILE or --code-prefix, not both")
    if path is None and not code_prefix:
        choices = "-H FILE" if code_prefix is None else "-H FILE or --code-prefix"
        o.refuse_unless(
            dis,
            f"the items are generalized in a hierarchy: give {choices} (or --set-release "
            "disassociate, which releases them as they are)",
        )
        return None
    spec = HierarchySpec(path=path, format=format, code_prefix=bool(code_prefix), encoding=encoding)
    spec.check()
    return spec


# the library's parameters as the command line's flags, in its messages
_FLAGS = (
    (r"\bclass_size\b", "--class-size"),
    (r"\bitem_search\b", "--item-search"),
    (r"\bset_release='disassociate'", "--set-release disassociate"),
    (r"\bset_release\b", "--set-release"),
    (r"\bclasses='cuts'", "--classes cuts"),
    (r"^classes\b", "--classes"),
    (r"\bmax_cluster\b", "--max-cluster"),
    (r"\bjoint_size\b", "--joint-size"),
    (r"\(delta\)", "(--delta)"),
    (r"^delta\b", "--delta"),
    (r"^m must\b", "-m must"),
    (r"\(hierarchy\)", "(-H)"),
)


def named(message: str) -> str:
    """A library message with its parameters named as the flags that set them.

    Example:
        >>> named("class_size (1) must be at least k (2)")
        '--class-size (1) must be at least k (2)'
    """
    for pattern, flag in _FLAGS:
        message = re.sub(pattern, flag, message)
    return message


@contextmanager
def flags_named() -> Iterator[None]:
    """The library's refusals as the command line's: each names the flag, not the parameter."""
    try:
        yield
    except ParamsError as e:
        raise ParamsError(named(str(e))) from e
