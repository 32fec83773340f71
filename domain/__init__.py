"""Kifu's pure rules: no I/O, no clock, no global randomness (the store lives in ``kifu.store``)."""
