"""The shape of an option's declaration in :data:`ndcg_sql.parameters.PARAMETERS`: a
:class:`Parameter`, how the command line takes it (a :class:`Cli`), and how one Python
entry point takes it otherwise than the table says (a :class:`Variant`)."""

from __future__ import annotations

import types
from dataclasses import dataclass, field
from typing import Callable, Literal, Mapping, Union, get_args, get_origin


@dataclass(frozen=True)
class Cli:
    """How the command line takes an option: the subcommands that have it, and argparse's
    metavar, nargs, a text-to-value function, or a flag (store True)."""

    commands: tuple[str, ...]
    metavar: str | None = None
    nargs: str | None = None
    parse: Callable[[str], object] | None = None
    flag: bool = False
    #: per subcommand: another help text
    helps: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Variant:
    """An option as one Python entry point takes it otherwise: its default and type there
    (the function's signature says the same), and its documentation there (None: the table's)."""

    default: object
    annotation: object
    doc: str | None = None


@dataclass(frozen=True)
class Parameter:
    """One option: name, default, type (the annotation every signature taking it writes),
    documentation, allowed values (those of a ``Literal`` type), its command-line spelling (None:
    Python only) and its variants by entry point (``{"plot": Variant(...)}``)."""

    name: str
    default: object
    annotation: object
    doc: str
    choices: tuple[str, ...] | None = None
    cli: Cli | None = None
    variants: Mapping[str, Variant] = field(default_factory=dict)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def taken_by(self, entry_point: str) -> Variant:
        """The option's default, type and documentation in ``entry_point`` (a function's name)."""
        variant = self.variants.get(entry_point)
        if variant is None:
            return Variant(self.default, self.annotation, self.doc)
        return Variant(variant.default, variant.annotation, variant.doc or self.doc)


def literal_choices(annotation: object) -> tuple[str, ...] | None:
    """The values of a ``Literal[...]`` type, or of ``Literal[...] | None``; None for any other type."""
    if get_origin(annotation) is Literal:
        return tuple(get_args(annotation))
    members = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else ()
    literals = [m for m in members if m is not type(None)]
    if len(literals) == 1 and get_origin(literals[0]) is Literal:
        return tuple(get_args(literals[0]))
    return None
