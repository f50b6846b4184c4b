import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# The search counts bits at every node; without this gcc calls a library routine.
cpu_flags = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

extensions = [
    Extension(
        "solver._sanjego",
        sources=["solver/_sanjego.pyx", "csrc/sanjego.c"],
        include_dirs=["csrc"],
        depends=["csrc/sanjego.h", "csrc/table_memory.h", "solver/_poll.pxi"],
        extra_compile_args=["-O3", "-std=c11", *cpu_flags],
    ),
    Extension(
        "solver._gent",
        sources=["solver/_gent.pyx", "csrc/gent.c"],
        include_dirs=["csrc"],
        depends=["csrc/gent.h", "csrc/table_memory.h", "solver/_poll.pxi"],
        extra_compile_args=["-O3", "-std=c11", *cpu_flags],
    ),
    Extension(
        "solver._serans",
        sources=["solver/_serans.pyx", "csrc/serans.c"],
        include_dirs=["csrc"],
        depends=["csrc/serans.h", "csrc/table_memory.h", "solver/_poll.pxi"],
        extra_compile_args=["-O3", "-std=c11", *cpu_flags],
    ),
    Extension(
        "solver._life",
        sources=["solver/_life.pyx", "csrc/life.c"],
        include_dirs=["csrc"],
        depends=["csrc/life.h"],
        extra_compile_args=["-O3", "-std=c11", *cpu_flags],
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives={"language_level": "3"}))
