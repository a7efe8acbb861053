"""The documentation: every page's examples run as shown, and every public name has a page with an example.

The Sphinx build itself (``sphinx-build -W -n``, which executes the tutorials and the gallery)
runs in CI (.ci/run); these tests need only the package and the Markdown sources.
"""
from __future__ import annotations

import doctest
import inspect
import re
import types
from pathlib import Path

import pytest

import lightsout
from lightsout import gf2, limits, packed, picture

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else []
#: Pages that must carry examples (the guide answers "how do I ..." by showing it).
GUIDE_PAGES = ("getting-started.md", "guide/solve.md", "guide/shapes.md", "guide/fewest.md",
               "guide/many.md", "guide/files.md", "guide/embed.md", "guide/errors.md")
PUBLIC_MODULES = {"lightsout": lightsout, "lightsout.packed": packed, "lightsout.gf2": gf2,
                  "lightsout.picture": picture, "lightsout.limits": limits}

needs_docs = pytest.mark.skipif(not PAGES, reason="no docs/ folder beside the tests (an installed copy)")


@needs_docs
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_run_as_shown(page):
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    failures, attempted = doctest.testfile(str(page), module_relative=False, optionflags=flags,
                                           globs={}, name=page.name)
    assert failures == 0
    if str(page.relative_to(DOCS)) in GUIDE_PAGES:
        assert attempted >= 3, f"{page} shows no examples"


@needs_docs
def test_guide_pages_are_all_on_disk():
    for page in GUIDE_PAGES:
        assert (DOCS / page).is_file(), page


def _documented_objects():
    """(qualified name, object) for every public callable and class, and the public members of classes."""
    for module_name, module in PUBLIC_MODULES.items():
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, types.ModuleType) or not callable(value):
                continue
            yield f"{module_name}.{name}", value
            if inspect.isclass(value):
                for member, raw in vars(value).items():
                    if member.startswith("_") or not (callable(raw) or isinstance(raw, property)):
                        continue
                    yield f"{module_name}.{name}.{member}", getattr(value, member)


@pytest.mark.parametrize("qualified, value", list(_documented_objects()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_public_name_has_an_example(qualified, value):
    text = inspect.getdoc(value) or ""
    assert ">>>" in text, f"{qualified} has no example in its docstring"


@needs_docs
def test_every_public_name_has_a_page():
    """A name added to __all__ but not to the API reference fails here (the build would only omit it)."""
    reference = "\n".join(page.read_text(encoding="utf-8") for page in (DOCS / "api").glob("*.md"))
    listed = set(re.findall(r"^\s+([A-Za-z_][A-Za-z0-9_]*)\s*$", reference, flags=re.M))
    listed |= set(re.findall(r"\.\. (?:data|autodata)::\s+(\S+)", reference))
    for module_name, module in PUBLIC_MODULES.items():
        for name in module.__all__:
            if isinstance(getattr(module, name), types.ModuleType):
                assert (DOCS / "api" / f"{name}.md").is_file(), f"lightsout.{name} has no page"
                continue
            assert name in listed, f"{module_name}.{name} is not in docs/api/"


#: A Markdown link or image whose target is a file of the repository (no scheme, no bare anchor).
_RELATIVE_LINK = re.compile(r"!?\[[^\]]*\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)")


@needs_docs
@pytest.mark.parametrize("document", ["README.md", "CHANGELOG.md"])
def test_front_page_links_reach_files(document):
    # the README is read on the forge and on PyPI, outside Sphinx (which checks the pages' links)
    root = DOCS.parent
    text = (root / document).read_text(encoding="utf-8")
    targets = _RELATIVE_LINK.findall(text)
    missing = [target for target in targets if not (root / target.split("#")[0]).exists()]
    assert missing == [], f"{document} links to files that do not exist: {missing}"
    if document == "README.md":
        assert len(targets) >= 10, "the README links to the documentation pages"
