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
GUIDE_PAGES = ("getting-started.md", "guide/solve.md", "guide/shapes.md", "guide/rules.md", "guide/fewest.md",
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


# --- the API reference as a reader sees it -------------------------------------------------------

def _rendered_docstrings():
    """(qualified name, docstring, is a property) of every docstring the API reference renders.

    The public names and their public members (properties included), and the modules whose
    pages show their own docstring (``automodule``: lightsout.gf2, .packed, .picture).
    """
    for module_name, module in PUBLIC_MODULES.items():
        if module is not lightsout:
            yield module_name, inspect.getdoc(module) or "", False
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, types.ModuleType) or not callable(value):
                continue
            yield f"{module_name}.{name}", inspect.getdoc(value) or "", False
            if inspect.isclass(value):
                for member, raw in vars(value).items():
                    if not member.startswith("_") and (callable(raw) or isinstance(raw, property)):
                        yield f"{module_name}.{name}.{member}", inspect.getdoc(raw) or "", isinstance(raw, property)


RENDERED = sorted({name: text for name, text, _ in _rendered_docstrings()}.items())
PROPERTIES = sorted({name: text for name, text, is_property in _rendered_docstrings() if is_property}.items())


@pytest.mark.parametrize("qualified, text", RENDERED, ids=[name for name, _ in RENDERED])
def test_examples_run_as_a_reader_copies_them(qualified, text):
    """Each page's example imports what it uses (numpy as np, the function itself): it runs in an empty namespace."""
    test = doctest.DocTestParser().get_doctest(text, {}, qualified, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, f"{qualified}'s example fails when copied into a fresh session:\n" + "".join(report)


#: An entry of an ``Args:`` section: ``name:``, ``name (type):``, or several names, ``a, b:``.
_ARG = re.compile(r"^(?P<names>\*{0,2}\w+(?:, \*{0,2}\w+)*)(?: \([^)]*\))?:(?:\s|$)")


def _args(text: str) -> list[tuple[str, str]]:
    """(names, text) of every entry of the Google-style ``Args:`` section of a docstring."""
    entries: list[list[str]] = []
    lines = iter(text.splitlines())
    for line in lines:
        if line.strip() in ("Args:", "Arguments:", "Parameters:") and not line.startswith(" "):
            break
    else:
        return []
    base = None
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            break
        base = indent if base is None else base
        found = _ARG.match(line.strip())
        if indent == base and found:
            entries.append([found.group("names"), line.strip()[found.end():].strip()])
        elif entries:
            entries[-1][1] += " " + line.strip()
    return [(names, " ".join(body.split())) for names, body in entries]


def test_the_args_reader_finds_merged_and_shared_texts():
    text = "Do it.\n\nArgs:\n    a, b: the same.\n    c (int): one\n        more.\n    d: one more.\n\nReturns:\n    x\n"
    assert _args(text) == [("a, b", "the same."), ("c", "one more."), ("d", "one more.")]


@pytest.mark.parametrize("qualified, text", RENDERED, ids=[name for name, _ in RENDERED])
def test_every_parameter_has_its_own_text(qualified, text):
    """``threads, progress: as for solve`` renders one text under two names; each parameter says what it is."""
    entries = _args(text)
    merged = [names for names, _ in entries if "," in names]
    assert not merged, f"{qualified} documents {merged} together: give each parameter its own text"
    seen: dict[str, str] = {}
    for names, body in entries:
        assert body not in seen, f"{qualified}: {names} and {seen[body]} have the same text: {body!r}"
        seen[body] = names


#: What a page of the site cannot show its reader: a private module, a source file of the checkout's
#: docs folder named as text, or "the module docstring" of a module the page is not about.
_UNSHOWN = re.compile(r"(?<![\w.])lightsout[./]_[A-Za-z]\w*|(?<![\w/])docs/[\w/]+\.md|module docstring")


@pytest.mark.parametrize("qualified, text", RENDERED, ids=[name for name, _ in RENDERED])
def test_docstrings_point_at_what_the_site_shows(qualified, text):
    unshown = _UNSHOWN.findall(text)
    assert not unshown, (f"{qualified} points its reader at {unshown}: name a public module or "
                         "lightsout.limits, and link the design note with :ref:`section N <algebra-N>`")


@pytest.mark.parametrize("qualified, text", PROPERTIES, ids=[name for name, _ in PROPERTIES])
def test_a_propertys_first_line_is_not_read_as_its_type(qualified, text):
    """Napoleon reads ``Type: text`` on a property's first line as its type (Solution.is_graph rendered garbled)."""
    first = re.sub(r"``.*?``|:\w+:`.*?`|`.*?`", "", text.splitlines()[0])
    assert ":" not in first, f"{qualified}'s first line has a colon, which the API reference reads as a type"


def _design_note_sections() -> set[str]:
    return set(re.findall(r"^## (\d+)\. ", (DOCS / "algebra.md").read_text(encoding="utf-8"), flags=re.M))


@needs_docs
def test_links_to_the_design_note_name_a_section_it_has():
    """``:ref:`... <algebra-N>``` resolves through docs/_ext/algebra_sections.py to the page's section N."""
    sections = _design_note_sections()
    assert {"1", "6", "12"} <= sections
    cited = {number for _, text in RENDERED for number in re.findall(r"<algebra-(\d+)>", text)}
    assert cited, "no docstring links the design note: the scan is broken"
    assert cited <= sections, f"docstrings link sections the design note lacks: {sorted(cited - sections)}"


#: MyST's own syntax, which GitHub shows as it is written: a role, or a directive other than a
#: literal include (whose file the page must link as well).
_MYST_ROLE = re.compile(r"(?:^|[\s(])\{[a-z][a-z:-]*\}`", re.M)
_DIRECTIVE = re.compile(r"^(?:```|:::)\{([a-z-]+)\}\s*(\S*)", re.M)


def _github_pages() -> list[Path]:
    """The pages the README's table sends a reader to, saying that they read well on GitHub."""
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    pages = []
    for line in readme.splitlines():
        if line.startswith("|"):
            pages += [DOCS.parent / target for target in re.findall(r"\]\((docs/[^)#]+\.md)\)", line)]
    return sorted(set(pages))


@needs_docs
def test_readme_table_pages_read_on_github():
    pages = _github_pages()
    assert len(pages) >= 10, "the README's table of pages: the scan is broken"
    for page in pages:
        text = page.read_text(encoding="utf-8")
        name = str(page.relative_to(DOCS.parent))
        assert not _MYST_ROLE.search(text), f"{name} holds a MyST role, shown raw on GitHub: link [`name`](#name)"
        assert "[](" not in text, f"{name} has a link without text, shown empty on GitHub"
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z][a-z0-9+.-]*:|#", target):
                continue
            assert (page.parent / target.split("#")[0]).exists(), f"{name} links {target}, which exists only after a build"
        for directive, argument in _DIRECTIVE.findall(text):
            assert directive == "literalinclude", f"{name} holds a {{{directive}}} block, shown raw on GitHub"
            assert f"]({argument})" in text, f"{name} includes {argument} without a link to it for GitHub's reader"
