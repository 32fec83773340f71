"""MkDocs hook (mkdocs.yml ``hooks``): a table cell's code written ``a\\|b``, as GitHub needs it to
keep the pipe inside the cell, is shown as ``a|b`` on the site too (Python-Markdown splits the
cells right but keeps the backslash inside code)."""
from __future__ import annotations

import re
from typing import Any

CODE = re.compile(r"<code>(.*?)</code>", re.S)


def on_page_content(html: str, **_: Any) -> str:
    return CODE.sub(lambda m: "<code>" + m.group(1).replace("\\|", "|") + "</code>", html)
