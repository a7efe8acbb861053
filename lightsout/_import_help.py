"""The messages shown when ``import lightsout`` finds no usable compiled modules, or finds another package's files.

The usual cause of the first is Python started inside the source checkout: the
folder ``lightsout/`` there shadows the installed package and holds no built
extensions.  The message says first what helps in that case (leave the folder,
or build in place), as numpy's own message does, and names an installed copy
when one exists.

The second: the distribution ``python-lightsout`` installs ``lightsout/__init__.py``
and ``lightsout/board.py`` too, into the same folder, so with both installed
``import lightsout`` gives whichever was installed last, mixed with the other's
files, and uninstalling either takes the shared files with it.  This package's
own ``__init__.py`` and ``board.py`` carry a mark (``_DISTRIBUTION``), which the
command line checks before it imports anything else (:func:`clash_message`) and
``import lightsout`` checks when an import of its own fails
(:func:`board_clash_message`): either says what happened in one line.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType
from typing import Optional

from lightsout._version import DISTRIBUTION

#: The other distribution known to install a ``lightsout`` package (PyPI, Python >= 3.13).
OTHER_DISTRIBUTION = "python-lightsout"
#: What to do about a clash, said once.
CLASH_REMEDY = (f"the two cannot share an environment: `pip uninstall {OTHER_DISTRIBUTION}` then "
                f"`pip install --force-reinstall {DISTRIBUTION}`, or install them in separate virtualenvs")


def is_ours(module: Optional[ModuleType]) -> bool:
    """Whether a module of the ``lightsout`` name is this distribution's (it carries the mark).

    Example:
        >>> import lightsout, lightsout.board
        >>> is_ours(lightsout), is_ours(lightsout.board), is_ours(None)
        (True, True, False)
    """
    return getattr(module, "_DISTRIBUTION", None) == DISTRIBUTION


def clash_message() -> Optional[str]:
    """What is wrong with the ``lightsout`` package imported, in one line, or None when it is this one.

    Run by the command line before it imports anything that needs the package
    whole: ``lightsout`` itself is imported by then (it is the command's
    parent package), but maybe not this distribution's.

    Example:
        >>> clash_message() is None
        True
    """
    package = sys.modules.get("lightsout")
    if package is None or is_ours(package):
        return None
    init = getattr(package, "__file__", None)
    if init is None:  # a namespace package: the folder lost its __init__.py
        where = ", ".join(getattr(package, "__path__", [])) or "its folder"
        return (f"the lightsout package in {where} has no __init__.py: another distribution that shared the folder "
                f"({OTHER_DISTRIBUTION} installs lightsout/__init__.py and lightsout/board.py too) was uninstalled "
                f"and took them; reinstall with `pip install --force-reinstall {DISTRIBUTION}`")
    return (f"`import lightsout` found another distribution's package ({init}), not {DISTRIBUTION}'s: "
            f"{OTHER_DISTRIBUTION} installs lightsout/__init__.py and lightsout/board.py over this one's; "
            + CLASH_REMEDY)


def board_clash_message() -> Optional[str]:
    """Why this package's own ``__init__.py`` could not import its modules, when another's ``board.py`` is the cause.

    Example:
        >>> board_clash_message() is None       # lightsout.board is this distribution's
        True
    """
    board = sys.modules.get("lightsout.board")
    if board is None:
        try:
            found = importlib.util.find_spec("lightsout.board") is not None
        except (ImportError, ValueError):
            found = False
        if found:
            return None
        return (f"lightsout/board.py is missing: another distribution that shared the folder ({OTHER_DISTRIBUTION} "
                f"installs lightsout/board.py too) was uninstalled and took it; reinstall with "
                f"`pip install --force-reinstall {DISTRIBUTION}`")
    if is_ours(board):
        return None
    return (f"lightsout/board.py ({getattr(board, '__file__', '?')}) is another distribution's, not "
            f"{DISTRIBUTION}'s: {OTHER_DISTRIBUTION} installs lightsout/__init__.py and lightsout/board.py over "
            f"this one's; " + CLASH_REMEDY)


def installed_copy(package_dir: str) -> str | None:
    """The folder of another ``lightsout`` package on ``sys.path`` than ``package_dir``, if any."""
    parent = os.path.dirname(os.path.abspath(package_dir))
    others = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != parent]
    spec = importlib.machinery.PathFinder.find_spec("lightsout", others)
    if spec is None or not spec.submodule_search_locations:
        return None
    return str(list(spec.submodule_search_locations)[0])


def import_failure_message(init_file: str, error: ImportError) -> str:
    """What went wrong and, first, what to do about it.

    Example:
        >>> import pathlib, tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     checkout = pathlib.Path(folder, "lightsout")
        ...     checkout.mkdir()
        ...     (checkout / "_kernels").mkdir()
        ...     (checkout / "_kernels" / "chase.pyx").touch()
        ...     message = import_failure_message(str(checkout / "__init__.py"), ImportError("x"))
        >>> "cd .." in message and "pip install -e ." in message
        True
        >>> "Reinstall" in import_failure_message("/nowhere/lightsout/__init__.py", ImportError("x"))
        True
    """
    where = os.path.dirname(os.path.abspath(init_file))
    try:
        missing = importlib.util.find_spec("lightsout._kernels.cpu") is None
    except (ImportError, ValueError):
        missing = True
    try:
        # installs ship no .pyx
        source_tree = any(name.endswith(".pyx") for name in os.listdir(os.path.join(where, "_kernels")))
    except OSError:
        source_tree = False
    state = "has no compiled extension modules" if missing else f"has unusable compiled modules ({error})"
    lines = [f"lightsout: the package folder {where} {state}."]
    if source_tree:
        other = installed_copy(where)
        lines.append(
            "You are probably running Python inside the source checkout, whose lightsout/ folder shadows "
            "the installed package. Either leave it (for example `cd ..`) and run Python again"
            + (f" (an installed copy is at {other})" if other else "")
            + ", or build the extensions in place for development with `pip install -e .` "
            "(or `python setup.py build_ext --inplace`) in the checkout."
        )
        if other is None:
            lines.append("No installed copy was found: install one with `pip install .` from the checkout "
                         "(it compiles for a few minutes), then run Python outside the checkout.")
    else:
        lines.append("Reinstall the package (`pip install --force-reinstall lightsout-gf2`, or "
                     "`pip install .` from a source checkout); the build needs a C compiler.")
    return " ".join(lines)
