"""Labels for the numbered sections of the design note, so that docstrings can link to them.

The code cites ``docs/algebra.md`` by section number, and the numbers are fixed (new
material gets a new number).  This extension gives every section of that page whose title
starts with its number, ``6. Facts to test against``, the label ``algebra-6``, so a docstring
writes :ref:`section 6 of the algebra page <algebra-6>` and the API reference links to it,
while the Markdown page itself carries no label syntax (it reads the same on GitHub).
"""
from __future__ import annotations

import re
from typing import Any

from docutils import nodes

#: The page whose numbered sections get labels, and the label's prefix.
PAGE = "algebra"
NUMBERED = re.compile(r"^(\d+)\.\s")


def label_numbered_sections(app: Any, document: nodes.document) -> None:
    env = app.env
    current = getattr(env, "current_document", None)
    docname = current.docname if current is not None else env.docname
    if docname != PAGE:
        return
    domains = env.domains
    std = domains.standard_domain if hasattr(domains, "standard_domain") else env.get_domain("std")
    for section in document.findall(nodes.section):
        title = section[0].astext()
        found = NUMBERED.match(title)
        if found and section["ids"]:
            label = f"{PAGE}-{found.group(1)}"
            std.anonlabels[label] = docname, section["ids"][0]
            std.labels[label] = docname, section["ids"][0], title


def setup(app: Any) -> dict[str, Any]:
    app.connect("doctree-read", label_numbered_sections)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
