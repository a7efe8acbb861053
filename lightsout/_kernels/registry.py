"""The compiled modules: the one declaration of a kernel module.

Adding a compiled module takes its source here (``<name>.pyx``, typed by its
stub ``<name>.pyi``) and one entry in :data:`MODULES`.  Everything else follows
from that entry: ``setup.py`` compiles the builds :func:`builds` names (one per
SIMD level unless ``simd`` is False) and ``lightsout._kernels.<name>`` loads the
one this CPU runs; ``python -m lightsout._kernels.registry --write`` rewrites
what is derived in the source tree (the ``TYPE_CHECKING`` import line of
``__init__.py`` that lets mypy read the stubs, and the table of modules in
docs/building.md); tests/test_kernel_declarations.py fails when any of those,
a stub, the mypy list of test modules or the README's count of extension
modules falls behind.  ``setup.py`` runs this file on its own, before anything
is built: it imports nothing but the standard library.

Example:
    >>> sorted(name for name, module in MODULES.items() if not module.simd)
    ['cpu']
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import NamedTuple, Optional


class CompiledModule(NamedTuple):
    """How one compiled module is built.

    Attributes:
        simd: compiled once per SIMD level (``<name>_generic``, ``_avx2``,
            ``_avx512``), the widest the CPU runs loaded; False: one build,
            ``<name>``, for any CPU.
        headers: C headers (in this folder) that its C code includes beyond what
            Cython tracks, so that changing one rebuilds it.
        purpose: one line, for readers of this table.
        gcc_flags: extra GCC/Clang flags for this module alone (not given to MSVC).
    """

    simd: bool = True
    headers: tuple[str, ...] = ()
    purpose: str = ""
    gcc_flags: tuple[str, ...] = ()


MODULES: dict[str, CompiledModule] = {
    "cpu": CompiledModule(simd=False, purpose="CPU feature detection, run before any wide build is loaded"),
    "chase": CompiledModule(purpose="2-D boards: the chase and the A/B two-row iteration"),
    "gf2elim": CompiledModule(purpose="packed Gauss-Jordan elimination over GF(2)"),
    "gf2poly": CompiledModule(headers=("gf2fft.h", "fftcrew.h"), purpose="GF(2)[t] arithmetic: products, division, gcds"),
    "polybasis": CompiledModule(purpose="the polynomial route's conversions between rows and polynomials"),
    "modelim": CompiledModule(purpose="elimination and Howell forms over Z/k"),
    # its byte chase runs a short inner loop once per cell: placed across a 32-byte boundary it
    # lost 30% on Zen 4 (test_nd_chase_line_1000000: 10.0 ms against 7.5 ms); aligned, 8.0 ms.
    # (Aligning every module's loops instead cost the many-boards kernel 25%.)
    "gridchase": CompiledModule(purpose="the N-D route's chase in matrix form, bits or bytes",
                                gcc_flags=("-falign-loops=32",)),
    "graphchase": CompiledModule(purpose="graphs: the forcing plan, its system and its expansion"),
    "walsh": CompiledModule(headers=("walsh.h", "walsh_body.h"),
                            purpose="fewest presses: Walsh-Hadamard weighing of a coset"),
    "many": CompiledModule(purpose="many boards at once: one GF(2) matrix applied to many rows"),
    "modwalk": CompiledModule(purpose="fewest presses with k states: a Gray-code walk over the coset"),
    "stencilchase": CompiledModule(purpose="any press stencil and masks: the windowed chase, its plan and proof"),
    "rowchase": CompiledModule(purpose="two-state stencils whose forcing row inverts in linear time: whole rows chased"),
    "gf2ext": CompiledModule(purpose="GF(2^64) arithmetic: a first row's clearing identity at random points"),
    "graywalk": CompiledModule(purpose="fewest presses, the second algorithm: a pruned Gray-code walk with popcounts"),
}

#: The GCC/Clang flags of each wide build (x86-64 only); the portable build ``generic`` adds none.
#: The tests compile their own probe of the inline primitives (tests/kernels) with the same flags.
SIMD_FLAGS: dict[str, list[str]] = {
    "avx2": ["-march=x86-64-v3", "-mpclmul"],
    "avx512": ["-march=x86-64-v4", "-mpclmul", "-mprefer-vector-width=512"],
}

#: Cython's memoryview and buffer helpers, generated once into this module for all the others.
SHARED_UTILITY = "_cyutility"


def builds(wide: bool = True) -> list[tuple[str, str, str]]:
    """Every extension module setup.py builds, as (extension name, source module, SIMD level).

    A module with ``simd`` is built at every level (only ``generic`` when ``wide``
    is False: other CPUs, MSVC, LIGHTSOUT_NO_SIMD=1), one without once; Cython's
    shared utility module (source module "") comes last.

    Example:
        >>> builds()[:2]
        [('cpu', 'cpu', 'generic'), ('chase_generic', 'chase', 'generic')]
        >>> len(builds()), len(builds(wide=False))
        (44, 16)
    """
    levels = ["generic"] + (list(SIMD_FLAGS) if wide else [])
    out: list[tuple[str, str, str]] = []
    for name, module in MODULES.items():
        if not module.simd:
            out.append((name, name, "generic"))
            continue
        out.extend((f"{name}_{level}", name, level) for level in levels)
    out.append((SHARED_UTILITY, "", "generic"))
    return out


def typing_import_line() -> str:
    """The ``TYPE_CHECKING`` import of ``__init__.py``: every module with SIMD builds, whose stub mypy reads.

    Example:
        >>> typing_import_line().split(" import ")[0].strip()
        'from lightsout._kernels'
    """
    names = ", ".join(sorted(name for name, module in MODULES.items() if module.simd))
    return f"    from lightsout._kernels import {names}"


#: The lines around the generated table of docs/building.md.
DOCS_BEGIN = "<!-- kernel modules: generated from lightsout/_kernels/registry.py by `python -m lightsout._kernels.registry --write` -->"
DOCS_END = "<!-- end of the generated kernel modules -->"


def docs_table() -> str:
    """The table of compiled modules in docs/building.md, between DOCS_BEGIN and DOCS_END.

    Example:
        >>> docs_table().splitlines()[2]
        '| `cpu` | one build | CPU feature detection, run before any wide build is loaded |'
    """
    rows = ["| module | builds | its job |", "|---|---|---|"]
    for name, module in MODULES.items():
        built = "generic, avx2, avx512" if module.simd else "one build"
        rows.append(f"| `{name}` | {built} | {module.purpose} |")
    rows += ["", f"A module with three builds is compiled as `<name>_generic`, `<name>_avx2` and "
                 f"`<name>_avx512` (see below); with Cython's shared utility module `{SHARED_UTILITY}`, "
                 f"a full x86-64 build is {len(builds())} extension modules, a portable one "
                 f"{len(builds(wide=False))}."]
    return "\n".join(rows)


def _replace_between(text: str, begin: str, end: str, body: str) -> str:
    start, stop = text.index(begin) + len(begin), text.index(end)
    return text[:start] + "\n" + body + "\n" + text[stop:]


def derived_texts(root: Path) -> dict[Path, tuple[str, str]]:
    """What the derived files say and should say, by path: (current text, text with the registry's lines).

    Example:
        >>> root = Path(__file__).resolve().parents[2]
        >>> all(path.exists() for path in derived_texts(root)) or not (root / "docs").exists()
        True
    """
    out: dict[Path, tuple[str, str]] = {}
    init = root / "lightsout" / "_kernels" / "__init__.py"
    if init.exists():
        text = init.read_text()
        out[init] = (text, re.sub(r"^    from lightsout\._kernels import [\w, ]+$", typing_import_line(), text,
                                  count=1, flags=re.M))
    docs = root / "docs" / "building.md"
    if docs.exists():
        text = docs.read_text()
        out[docs] = (text, _replace_between(text, DOCS_BEGIN, DOCS_END, docs_table()))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m lightsout._kernels.registry [--write]``: list (or rewrite) the derived files that differ."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(__file__).resolve().parents[2]
    stale = [path for path, (now, wanted) in derived_texts(root).items() if now != wanted]
    for path in stale:
        if "--write" in args:
            path.write_text(derived_texts(root)[path][1])
        print(f"{'rewrote' if '--write' in args else 'stale'}: {path.relative_to(root)}")
    return 1 if stale and "--write" not in args else 0


if __name__ == "__main__":
    sys.exit(main())
