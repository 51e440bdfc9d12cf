"""Builds the Python module koma with CMake (pyproject.toml says how to install).

The extension koma._koma is the CMake target koma_python (bindings/python);
CMake assembles the whole package, extension, Python files and shipped
descriptors, in <build>/python/koma, and this copies it into the wheel.
JOBS sets the build's parallelism (default: every core). KOMA_BUILD_DIR names
a build folder of this checkout already configured with -DKOMA_PYTHON=ON (such
as scripts/test.sh's build/tests): the target is built there instead of in a
folder of its own, so that a build that has the library compiled already does
not compile it again (CI's scripts/python-package.sh).
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("KOMA_BUILD_DIR")
        if build:
            build = os.path.abspath(build)
        else:
            build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            subprocess.check_call(
                [
                    "cmake", "-S", SOURCE, "-B", build,
                    "-DCMAKE_BUILD_TYPE=Release",
                    "-DKOMA_PYTHON=ON",
                    "-DKOMA_BUILD_TESTS=OFF",
                    "-DKOMA_BUILD_EXAMPLES=OFF",
                    "-DPython3_EXECUTABLE=" + sys.executable,
                ]
            )
        jobs = os.environ.get("JOBS", str(os.cpu_count() or 1))
        subprocess.check_call(
            ["cmake", "--build", build, "--target", "koma_python", "-j", jobs]
        )
        package = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        shutil.copytree(os.path.join(build, "python", "koma"), package, dirs_exist_ok=True)


setup(
    packages=["koma"],
    package_dir={"koma": "bindings/python/koma"},
    package_data={"koma": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("koma._koma", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
