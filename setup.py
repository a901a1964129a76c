"""Builds the Cython extensions of hunters/_core/ (metadata lives in pyproject.toml)."""
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension("hunters._core.carcassonne", ["hunters/_core/carcassonne.pyx"], extra_compile_args=["-O3"]),
]

setup(ext_modules=cythonize(extensions, compiler_directives={"language_level": "3"}))
