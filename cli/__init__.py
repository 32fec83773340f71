"""The ``kifu`` command line: parse, call, print — no rules here."""
