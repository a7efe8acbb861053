"""Optional dependencies (pyproject extras): import one, or say in one line which extra to install.

The extras are ``images`` (Pillow: reading PNG board files) and ``plot``
(matplotlib: :meth:`lightsout.Solution.plot`, :func:`lightsout.picture.plot_board`).
Writing pictures (PNG, SVG) needs neither: lightsout encodes them itself.

Example:
    >>> import_optional("zlib", "images", "compressing").__name__
    'zlib'
"""
from __future__ import annotations

import importlib
from types import ModuleType

from lightsout._base.errors import MissingExtraError

_PACKAGES = {"PIL": "Pillow", "matplotlib": "matplotlib", "tqdm": "tqdm"}


def import_optional(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` naming ``extra`` (``what`` needs it).

    Example:
        >>> import_optional("no_such_module_here", "plot", "Solution.plot")
        Traceback (most recent call last):
        ...
        lightsout.MissingExtraError: Solution.plot needs no_such_module_here, which is not installed: ...
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise MissingExtraError(what, _PACKAGES.get(top, top), extra) from None
