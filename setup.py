"""Builds statespace._core with the project's CMake (pyproject.toml has the rest).

Only the module's target is built, Release, in build-python/ (kept between installs,
so a second `pip install .` rebuilds only what changed; ccache serves the objects a
build/ tree already compiled). STATESPACE_CMAKE_ARGS adds CMake arguments.
"""

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        tree = ROOT / "build-python"
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(tree), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_TESTING=OFF", "-DSTATESPACE_BUILD_BENCH=OFF", f"-DPython_EXECUTABLE={sys.executable}",
            *shlex.split(os.environ.get("STATESPACE_CMAKE_ARGS", "")),
        ]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(tree), "--target", "statespace_python", "--parallel", jobs],
                       check=True)
        built = next((tree / "python" / "statespace").glob("_core*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    ext_modules=[Extension("statespace._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own build/ would land in the CMake tree's.
    options={"build": {"build_base": "build-python/setuptools"}},
)
