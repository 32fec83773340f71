"""Where a command writes: one rule for every output path (records, HTML, SVG, PNG, keys, folders).

- ``-`` is stdout (records, pages and pictures alike); the command's own messages then go to
  stderr, so the bytes piped on are the file and nothing else;
- a path is checked before any work is done: its folder must exist (never created quietly),
  a folder is not a file, an unwritable place is said as such — a one-line usage error (exit 2);
- a regular file is replaced atomically; a device, a fifo or a symlink's target is written
  through, never replaced (``kifu.projections.recordfile.write_file``).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from kifu.domain.core.errors import KifuError
from kifu.projections.recordfile import write_file

STDOUT = "-"


class CannotWrite(KifuError):
    """An output path that failed after the checks (a full disk, a race): said in one line, exit 2."""


def missing_folder(path: str | Path) -> str | None:
    """The one wording for a path whose folder is not there (outputs, ``--db``, ``--out-dir``)."""
    parent = Path(path).expanduser().parent
    if parent.is_dir():
        return None
    if parent.exists():
        return f"{parent} is not a folder"
    return f"folder {parent} does not exist (Kifu creates no folders: make it first)"


def problem(path: str, *, folder: bool = False, stdout: bool = True) -> str | None:
    """Why ``path`` cannot be written, or None. ``folder``: the path is a folder that must exist."""
    if path == STDOUT:
        return None if stdout and not folder else "'-' (stdout) is not a folder"
    p = Path(path).expanduser()
    if folder:
        if not p.exists():
            return f"folder {path} does not exist (Kifu creates no folders: make it first)"
        if not p.is_dir():
            return f"{path} is not a folder"
        return None if os.access(p, os.W_OK | os.X_OK) else f"folder {path} is not writable"
    if p.is_dir():
        return f"{path} is a folder; give a file name"
    missing = missing_folder(p)
    if missing:
        return missing
    if p.exists():
        return None if os.access(p, os.W_OK) else f"{path} is not writable"
    return None if os.access(p.parent, os.W_OK | os.X_OK) else f"folder {p.parent} is not writable"


class OutPath(click.ParamType[str]):
    """A click type for every output option: the checks of ``problem`` before the command runs."""

    name = "path"

    def __init__(self, *, folder: bool = False, stdout: bool = True) -> None:
        self.folder = folder
        self.stdout = stdout

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        why = problem(text, folder=self.folder, stdout=self.stdout)
        if why:
            self.fail(why, param, ctx)
        return text


def check(path: str, *, flag: str = "--out") -> None:
    """``problem`` for a path that did not come through ``OutPath`` (a default name)."""
    why = problem(path)
    if why:
        raise click.BadParameter(why, param_hint=flag)


def write_out(path: str, data: bytes) -> None:
    """``data`` to stdout (``-``) or to ``path`` as ``write_file`` writes; trouble is one line."""
    if path == STDOUT:
        stream = sys.stdout.buffer
        sys.stdout.flush()
        stream.write(data)
        stream.flush()
        return
    try:
        write_file(path, data)
    except OSError as exc:
        raise CannotWrite(f"{path}: cannot write ({exc.strerror or exc})") from None


def said(path: str | None) -> Any:
    """Where a command's messages go: stderr when its output is stdout (``--out -``)."""
    return sys.stderr if path == STDOUT else sys.stdout


def quiet_echo(path: str | None, message: str) -> None:
    """A "written to …" line: on stderr when the output itself went to stdout."""
    click.echo(message, err=path == STDOUT)
