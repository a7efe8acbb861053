"""Where the C and Cython headers of lightsout's embedding contract live."""
from __future__ import annotations

import os


def get_include() -> str:
    """The directory to put on a client extension's include paths.

    Add it to Cython's ``include_path`` (so ``from lightsout cimport capi``
    finds ``lightsout/capi.pxd``) and to the C compiler's ``include_dirs`` (so
    ``#include "lightsout/capi.h"`` resolves).  It is the directory that holds
    the installed ``lightsout`` package.

    Example:
        >>> from lightsout import get_include
        >>> import os
        >>> os.path.isfile(os.path.join(get_include(), "lightsout", "capi.h"))
        True
        >>> os.path.isfile(os.path.join(get_include(), "lightsout", "capi.pxd"))
        True
    """
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
