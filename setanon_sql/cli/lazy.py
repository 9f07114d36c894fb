"""The click group of the `setanon` app with each command built the first time it is asked
for, not all of them before one runs.

Why: typer makes every command of an app (each signature read, its annotations evaluated, its
options made) before it runs one: 19 commands, about 55 ms of CPU in every process, against
about 5 ms for the one a process runs (issue 43's whole-process bound). Commands are listed in
the app's order (commands, then sub-apps, as typer lists them); `setanon --help` and a
mistyped command's suggestions still see every name, and the help builds every command.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import typer
from typer.core import TyperGroup
from typer.main import get_command_from_info, get_command_name, get_group_from_info
from typer.models import TyperInfo

Command = Any
"""A click command: typer 0.28 (installed here) carries its own private copy of click, older
versions the click package, so the class is not named here."""
Maker = Callable[[], Command]


class LazyCommands(MutableMapping[str, Command]):
    """A group's commands by name: every name known at once, each command made on first
    access and kept."""

    def __init__(self, makers: dict[str, Maker]) -> None:
        self._makers = dict(makers)
        self._made: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name not in self._made:
            if name not in self._makers:
                raise KeyError(name)
            self._made[name] = self._makers[name]()
        return self._made[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._makers.setdefault(name, lambda: command)
        self._made[name] = command

    def __delitem__(self, name: str) -> None:
        del self._makers[name]
        self._made.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def made(self) -> list[str]:
        """The names of the commands made so far (for tests and profiles)."""
        return list(self._made)


def lazy_group(app: typer.Typer) -> TyperGroup:
    """`typer.main.get_command(app)` for an app with a root callback, its commands made lazily:
    the root group is built from a copy of the app without commands (its callback, options,
    help and epilog as typer makes them), then given the app's commands as makers."""
    bare = copy.copy(app)
    bare.registered_commands = []
    bare.registered_groups = []
    group = typer.main.get_group(bare)
    group.commands = LazyCommands(makers(app))
    return group


def makers(app: typer.Typer) -> dict[str, Maker]:
    """Each command and sub-app of `app` by its name, in typer's order, as a function that
    builds it with the app's settings."""
    out: dict[str, Maker] = {}
    for info in app.registered_commands:
        name = info.name or get_command_name(getattr(info.callback, "__name__", ""))
        out[name] = functools.partial(
            get_command_from_info,
            command_info=info,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
        )
    for group in app.registered_groups:
        out[_group_name(group)] = functools.partial(_make_group, app, group)
    return out


def _make_group(app: typer.Typer, group: TyperInfo) -> Command:
    """A sub-app's group, built as typer builds it (its suggestions for a mistyped command
    came with typer 0.20)."""
    if not hasattr(app, "suggest_commands"):
        return get_group_from_info(  # type: ignore[call-arg]
            group,
            pretty_exceptions_short=app.pretty_exceptions_short,
            rich_markup_mode=app.rich_markup_mode,
        )
    return get_group_from_info(
        group,
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
        suggest_commands=app.suggest_commands,
    )


def _group_name(info: TyperInfo) -> str:
    """A sub-app's command name as typer gives it (the name given to `add_typer`)."""
    name = info.name
    if not isinstance(name, str) or not name:
        raise TypeError("every sub-app of setanon is added with a name")
    return name
