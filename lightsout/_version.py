r"""The version of lightsout, in one place: the package (``lightsout.__version__``), the
command line (``lightsout --version``) and the build (``pyproject.toml`` reads it) all use it;
beside it the distribution's name, which install hints name and which marks the package's
own ``__init__.py`` and ``board.py`` (another distribution installs files of those names).

Example:
    >>> import re
    >>> bool(re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+|\.dev\d+)?", __version__))
    True
"""
__version__ = "0.1.0"
#: The distribution (``pip install lightsout-gf2``); the names lightsout and python-lightsout are others'.
DISTRIBUTION = "lightsout-gf2"
