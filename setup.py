from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "solver._sanjego",
        sources=["solver/_sanjego.pyx", "csrc/sanjego.c"],
        include_dirs=["csrc"],
        depends=["csrc/sanjego.h"],
        extra_compile_args=["-O3", "-std=c11"],
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives={"language_level": "3"}))
