"""Build the example extension against the installed lightsout (see README.md)."""
import lightsout
from Cython.Build import cythonize
from setuptools import Extension, setup

include = lightsout.get_include()  # holds lightsout/capi.pxd and lightsout/capi.h

setup(
    ext_modules=cythonize(
        [Extension("lightsout_embed", ["lightsout_embed.pyx"], include_dirs=[include])],
        include_path=[include],
        compiler_directives={"language_level": 3},
    ),
)
