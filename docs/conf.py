"""Sphinx configuration of the lightsout documentation site.

Build it from the checkout, with the package installed (the API pages, the gallery and the
tutorials import it):

    pip install '.[docs]'
    sphinx-build -W --keep-going -n -b html docs docs/_build/html

The tutorials (``docs/tutorials/*.ipynb``) and the gallery (``docs/gallery_src/*.py``) are
executed on every build, so an example that breaks fails the build.
"""
from __future__ import annotations

import sys
from pathlib import Path

import lightsout

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _ext.png_scraper import PNGScraper  # noqa: E402  (docs/_ext, beside this file)


project = "lightsout"
author = "the lightsout developers"
copyright = "2026, the lightsout developers"
release = lightsout.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",         # the docstrings are Google style (Args:, Returns:, Examples:)
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "myst_nb",                     # Markdown pages and executed notebooks
    "sphinx_gallery.gen_gallery",
    "sphinx_copybutton",
    "sphinx_design",               # the cards of the front page
    "_ext.algebra_sections",       # :ref:`algebra-6` and the like: the design note's numbered sections
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
# sphinx-gallery writes a notebook and the script beside each page it generates: not sources
exclude_patterns = ["_build", "gallery_src/README.txt", "gallery/*.ipynb", "gallery/*.py", "**.ipynb_checkpoints",
                    "jupyter_execute"]
templates_path = ["_templates"]

# --- the API reference -----------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"            # the docstrings say what each argument takes, in words
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_use_ivar = True        # Attributes: as fields, so a documented property is not described twice
napoleon_custom_sections = [("Examples", "examples_style")]
add_module_names = False
# Names in signatures and docstrings that are not documented here; every other reference
# must resolve (-n turns an unresolved one into a warning, -W into an error).
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|npt)\..*"),
    (r"py:.*", r"(ArrayLike|NDArray|DTypeLike)"),
    (r"py:.*", r"concurrent\.futures\..*"),
    (r"py:.*", r"(collections\.abc|typing)\..*"),
    (r"py:.*", r"_?lightsout\._.*"),
    (r"py:class", r"_[A-Za-z].*"),
    (r"py:.*", r"(networkx|scipy|matplotlib|PIL|dask)\..*"),
    (r"py:class", r"(optional|default|callable|array|array_like|os\.PathLike|Path|PathLike.*)"),
    (r"py:class", r"(Board|BoardLike|Torus|Executor|Progress|Axes|Figure|Graph|Literal.*|Self)"),
    # Solution.rules and UnsolvableError.rules hold one of the two frozen rule values, described
    # in their docstrings; the types themselves live in private modules.
    (r"py:class", r"(Rules|GraphRules)"),
]

# --- Markdown and notebooks ------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "force"          # every build runs every notebook
nb_execution_timeout = 300
nb_execution_raise_on_error = True   # a broken tutorial fails the build
nb_execution_show_tb = True

# --- the gallery: scripts in gallery_src/, each drawn with the package at build time ----------
sphinx_gallery_conf = {
    "examples_dirs": "gallery_src",
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "image_scrapers": ("matplotlib", PNGScraper()),
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "abort_on_example_error": True,
    "plot_gallery": "True",
}

# --- HTML ------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"lightsout {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_show_sourcelink = False
