"""The shape of an option's declaration in :data:`ndcg_sql.parameters.PARAMETERS`: a
:class:`Parameter`, and how the command line takes it, a :class:`Cli`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Cli:
    """How the command line takes an option: the subcommands that have it, and argparse's
    metavar, nargs, a text-to-value function, or a flag (store True)."""

    commands: tuple[str, ...]
    metavar: str | None = None
    nargs: str | None = None
    parse: Callable[[str], object] | None = None
    flag: bool = False
    #: per subcommand: another default, or another help text
    defaults: dict = field(default_factory=dict)
    helps: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Parameter:
    """One option: name, default, annotation (as text), documentation, allowed values
    (when they are a fixed list) and its command-line spelling (None: Python only)."""

    name: str
    default: object
    annotation: str
    doc: str
    choices: tuple[str, ...] | None = None
    cli: Cli | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")
