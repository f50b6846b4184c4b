import hashlib
import pathlib
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# The search counts bits at every node; without this gcc calls a library routine.
cpu_flags = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []


def source_hash(*paths):
    """A hash of the sources, compiled into the core: saved table entries are only used by
    the core that made them (a change to the core may change what an entry means)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(pathlib.Path(path).read_bytes())
    return digest.hexdigest()[:16]


extensions = [
    Extension(
        "solver._sanjego",
        sources=["solver/_sanjego.pyx", "csrc/sanjego.c"],
        include_dirs=["csrc"],
        depends=["csrc/sanjego.h", "csrc/table_memory.h", "solver/_poll.pxi"],
        define_macros=[("SJ_CORE_SOURCE",
                        f'"{source_hash("csrc/sanjego.c", "csrc/sanjego.h", "csrc/table_memory.h")}"')],
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
