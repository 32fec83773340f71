"""The ``kifu`` command line: parse, call, print — no rules here.

Imports inside a command's function, here, are one policy rather than a habit: every ``kifu``
command imports every command module (click builds the group at start-up), so a stack that only
some commands use is imported inside those commands, and the others start without it. Those
stacks are the HTTP client (httpx: ``client``, ``loadtest``), the HTTP service (Litestar and
uvicorn: ``serve``; ``kifu.service`` itself loads Litestar only when ``create_app`` is asked for),
the terminal replayer (Textual: ``replay`` on a terminal) and the HTML viewer (``export --html``,
``replay --svg``). With them kept out, ``import kifu.cli.main`` loads 436 modules instead of 697.
None of these imports hides a cycle (``tests/core/test_import_graph.py`` counts them); a module
the start-up loads anyway belongs at the top of its file.
"""
