"""The CLI builds only the command a process runs (issue 43's whole-process bound: typer makes
all 19 commands first, about 55 ms of CPU a process), and the lazily built group is the group
typer builds: the same commands in the same order, each with the same options and help."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from helpers.cli import cli

from setanon_sql.cli import _command, app
from setanon_sql.cli.lazy import LazyCommands, lazy_group


def describe(command: Any, path: tuple[str, ...] = ("setanon",)) -> dict[str, Any]:
    """Everything a user meets of a command, every level down: its help page and each
    option's names, kind, default and help."""
    ctx = command.make_context(" ".join(path), [], resilient_parsing=True)
    params = [
        (p.name, p.opts, p.secondary_opts, type(p).__name__, p.required, repr(p.default),
         getattr(p, "help", None), getattr(p, "is_flag", None), p.multiple, p.nargs)
        for p in command.params
    ]  # fmt: skip
    out = {"help": command.get_help(ctx), "params": params, "hidden": command.hidden}
    if hasattr(command, "commands"):
        names = command.list_commands(ctx)
        out["commands"] = {n: describe(command.get_command(ctx, n), (*path, n)) for n in names}
    return out


def test_the_lazy_group_is_the_group_typer_builds() -> None:
    full, lazy = typer.main.get_command(app), lazy_group(app)
    assert list(lazy.commands) == list(full.commands)  # type: ignore[attr-defined]
    assert len(full.commands) >= 19  # type: ignore[attr-defined]
    assert describe(lazy) == describe(full)


def test_running_one_command_builds_that_command_only() -> None:
    group = lazy_group(app)
    commands = group.commands
    assert isinstance(commands, LazyCommands)
    assert commands.made() == []
    assert group.main(["algorithms"], prog_name="setanon", standalone_mode=False) in (0, None)
    assert commands.made() == ["algorithms"]


def test_the_console_entry_runs_the_lazy_group() -> None:
    assert isinstance(_command().commands, LazyCommands)
    r = cli("algorithms")
    assert r.code == 0, r.stderr
    assert "aa" in r.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["anonymse"], "No such command 'anonymse'. Did you mean 'anonymize'"),
        (["hierarchy", "bild"], "No such command 'bild'. Did you mean 'build'"),
    ],
)
def test_a_mistyped_command_still_gets_every_name_suggested(args: list[str], said: str) -> None:
    r = cli(*args)
    assert r.code == 2
    assert said in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_the_mapping_keeps_order_and_makes_each_command_once() -> None:
    made: list[str] = []

    def maker(name: str) -> Any:
        def make() -> str:
            made.append(name)
            return f"command {name}"

        return make

    commands = LazyCommands({"b": maker("b"), "a": maker("a")})
    assert list(commands) == ["b", "a"] and len(commands) == 2 and made == []
    assert commands["a"] == commands.get("a") == "command a"
    assert made == ["a"]
    assert commands.get("c") is None and "c" not in commands
    commands["c"] = "added"
    assert list(commands) == ["b", "a", "c"] and commands["c"] == "added"
    del commands["b"]
    assert list(commands) == ["a", "c"] and made == ["a"]
    with pytest.raises(KeyError):
        commands["b"]
