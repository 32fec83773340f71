"""``kifu keys``: Ed25519 signing keys for records (new, show) and signing a record locally (sign)."""
from __future__ import annotations

import os
from pathlib import Path

import click

from kifu.domain.core.errors import Malformed
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link
from kifu.domain.core.signing import fingerprint, new_signer, private_pem
from kifu.projections.recordfile import match_bytes, read_record
from kifu.store.keys import load_signer

from . import output
from .output import OutPath


@click.group()
def keys() -> None:
    """Signing keys: the service signs with $KIFU_SIGNING_KEY, `kifu verify --key/--trusted` checks."""


@keys.command("new")
@click.argument("name")
@click.option("--out", type=OutPath(stdout=False), default=None, help="Default: NAME.key")
def new(name: str, out: str | None) -> None:
    """Make a key pair: the private key to OUT (mode 600), the public line 'NAME BASE64' to stdout
    (give it to whoever verifies: `kifu verify --key` or a line of a --trusted file)."""
    if not name or len(name) > 64 or any(c.isspace() for c in name):
        raise Malformed("a key's name is 1 to 64 characters without spaces", "NAME")
    path = Path(out or f"{name}.key")
    output.check(str(path))
    if path.exists():
        raise Malformed("exists; not overwriting a key", str(path))
    signer = new_signer(name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private_pem(signer))
    click.echo(f"{name} {signer.public}")
    click.echo(f"private key: {path} (keep it secret; key {fingerprint(signer.public)})", err=True)


@keys.command("show")
@click.argument("keyfile", type=click.Path(dir_okay=False))
def show(keyfile: str) -> None:
    """Print a key file's public line 'NAME BASE64'."""
    signer = load_signer(keyfile)
    click.echo(f"{signer.name} {signer.public}")


@keys.command("sign")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", "keyfile", envvar="KIFU_SIGNING_KEY", required=True, type=click.Path(dir_okay=False),
              help="The private key file (default $KIFU_SIGNING_KEY).")
@click.option("--out", type=OutPath(), default=None, help="Default: sign FILE in place; - for stdout.")
def sign(file: str, keyfile: str, out: str | None) -> None:
    """Sign a finished match's record: append (or replace) its end mark, signed with the key."""
    signer = load_signer(keyfile)
    record = read_record(file)
    broken = first_broken_link(record.header, record.envelopes)
    if broken is not None:
        raise Malformed(f"hash chain broken at seq {broken}; not signing an edited record", file)
    match = Match.fold(record.ruleset, record.header, record.envelopes)
    if match.outcome is None:
        raise Malformed("the match is not over: only a finished record gets an end mark", file)
    target = out or file
    output.check(target)
    output.write_out(target, match_bytes(target, match, signer, record.notes))   # its notes kept after the mark
    output.quiet_echo(target, f"{target}: signed by {signer.name!r} (key {fingerprint(signer.public)}), "
               f"ends at seq {len(record.envelopes)}")
