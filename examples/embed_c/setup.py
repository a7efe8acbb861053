"""Build the plain-C example extension against the installed lightsout (see README.md)."""
import lightsout
from setuptools import Extension, setup

include = lightsout.get_include()  # holds lightsout/capi.h

setup(ext_modules=[Extension("lightsout_embed_c", ["lightsout_embed_c.c"], include_dirs=[include])])
