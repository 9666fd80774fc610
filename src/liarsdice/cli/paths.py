"""The files and folders a command writes, checked before it starts its work.

A command that writes a file named on its command line (``play --save``, ``arena --out``,
``solve --out``) or a folder (``selfplay --out``, ``learn ... --out``) checks the path first,
as a click callback: a path that cannot be written is a usage error (exit status 2, ``Error:
...`` naming the path and why), given before a game is played or a computation run, so that
nothing is lost at the end.

>>> from pathlib import Path
>>> problem_with_file(Path("/nonexistent/dir/x.json"))
'the folder /nonexistent/dir does not exist'
>>> problem_with_file(Path("/")), problem_with_folder(Path("/proc/version"))
('/ is a folder, not a file', '/proc/version is a file, not a folder')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from liarsdice.cli.command import fail
from liarsdice.cli.reasons import os_reason
from liarsdice.i18n import _

__all__ = [
    "cannot_write",
    "out_folder_option",
    "problem_with_file",
    "problem_with_folder",
    "writable_file",
    "writable_folder",
]

F = TypeVar("F", bound=Callable[..., Any])


def _cannot_write(folder: Path) -> str | None:
    """Why nothing can be written in the existing ``folder`` (None: it can)."""
    if not folder.is_dir():
        return _("{path} is not a folder").format(path=folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        return _("the folder {path} is not writable").format(path=folder)
    return None


def problem_with_file(path: Path) -> str | None:
    """Why the file ``path`` cannot be written (None: it can), in the language in use."""
    if path.is_dir():
        return _("{path} is a folder, not a file").format(path=path)
    if path.exists():
        if not os.access(path, os.W_OK):
            return _("{path} is not writable").format(path=path)
        return None
    folder = path.parent
    if not folder.exists():
        return _("the folder {path} does not exist").format(path=folder)
    return _cannot_write(folder)


def problem_with_folder(path: Path) -> str | None:
    """Why the folder ``path`` cannot be written or made (None: it can; its missing parents
    are made by the command)."""
    if path.exists():
        if not path.is_dir():
            return _("{path} is a file, not a folder").format(path=path)
        return _cannot_write(path)
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    return _cannot_write(ancestor)


def _checked(value: Any, problem_with: Callable[[Path], str | None]) -> Any:
    """``value`` (a path option's), or a usage error saying why it cannot be written."""
    if value is not None:
        problem = problem_with(Path(value))
        if problem is not None:
            raise click.BadParameter(
                _("cannot write {path}: {problem}").format(path=value, problem=problem)
            )
    return value


def writable_file(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A click callback: the file option's path, or a usage error saying why it cannot be
    written."""
    return _checked(value, problem_with_file)


def writable_folder(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A click callback: the folder option's path, or a usage error saying why it cannot be
    written."""
    return _checked(value, problem_with_folder)


def out_folder_option(help: str) -> Callable[[F], F]:
    """The required ``--out`` folder of a command that writes its results there, checked
    before the work starts (:func:`writable_folder`); ``help``: a message, marked with ``N_``."""
    return click.option(
        "--out",
        required=True,
        type=click.Path(path_type=Path),
        callback=writable_folder,
        help=help,
    )


def cannot_write(path: Path, error: OSError) -> click.ClickException:
    """The error (exit status 1) of a command that failed writing under ``path`` while it
    worked: ``raise cannot_write(out, e) from None``."""
    return fail(_("can't write {path}: {reason}").format(path=path, reason=os_reason(error)))
