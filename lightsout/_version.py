r"""The version of lightsout, in one place: the package (``lightsout.__version__``), the
command line (``lightsout --version``) and the build (``pyproject.toml`` reads it) all use it.

Example:
    >>> import re
    >>> bool(re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+|\.dev\d+)?", __version__))
    True
"""
__version__ = "0.1.0"
