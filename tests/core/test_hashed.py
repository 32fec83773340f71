"""Digests and chain links are hashed in pieces (so hashlib keeps the interpreter lock): the same
bytes as hashing the whole input at once, at every length around the piece size."""
from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from kifu.domain.core.envelope import _PIECE, _hashed


@given(data=st.one_of(st.binary(max_size=5 * _PIECE), st.integers(0, 3).map(lambda k: b"x" * (k * _PIECE))),
       size=st.sampled_from([8, 16]))
def test_hashing_in_pieces_gives_the_whole_inputs_digest(data: bytes, size: int) -> None:
    assert _hashed(data, size) == hashlib.blake2b(data, digest_size=size).hexdigest()
