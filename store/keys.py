"""Key files on disk: the signing key a writer of records signs with, and trusted public keys.

The pure half (parsing a key's bytes, signing, checking) is ``kifu.domain.core.signing``; this
module reads the files and the environment, so the rules never do. The service and every local
writer of a record sign with the key ``$KIFU_SIGNING_KEY`` names (``kifu keys new`` makes one).
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kifu.domain.core.errors import Malformed
from kifu.domain.core.signing import Signer, parse_trusted, signer_from_pem

SIGNING_KEY_VAR = "KIFU_SIGNING_KEY"     # names the key file the service and a local kifu sign with


def load_signer(path: str | Path) -> Signer:
    """The signer in the key file at ``path`` (named by its comment line, else by the file name)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise Malformed(f"cannot read the key ({exc.strerror})", str(p)) from None
    return signer_from_pem(data, p.name.removesuffix(".key"), str(p))


def signer_from(environ: Mapping[str, str]) -> Signer | None:
    """The signer ``$KIFU_SIGNING_KEY`` names, or None without one."""
    path = environ.get(SIGNING_KEY_VAR)
    return load_signer(path) if path else None


def load_trusted(path: str | Path) -> dict[str, str]:
    """A trusted-keys file: one ``NAME BASE64`` per line -> {base64 key: name}."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Malformed(f"cannot read the trusted keys ({exc})", str(p)) from None
    return parse_trusted(text, str(p))
