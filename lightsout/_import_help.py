"""The message shown when ``import lightsout`` finds no usable compiled modules.

The usual cause is Python started inside the source checkout: the folder
``lightsout/`` there shadows the installed package and holds no built extensions.
The message says first what helps in that case (leave the folder, or build in
place), as numpy's own message does, and names an installed copy when one exists.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys


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
