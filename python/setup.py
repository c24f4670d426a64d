"""Builds quiver._quiver with the project's CMake (the library and the extension, nothing else)
and puts it in the wheel. Offline: the backend is Debian's setuptools, the build uses Debian's
pybind11 and compilers."""
import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent.parent


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build_dir = Path(os.environ.get("QUIVER_PY_BUILD_DIR", ROOT / "build" / "python-wheel"))
        configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                     "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG -g1", "-DQUIVER_BUILD_TESTS=OFF", "-DQUIVER_BUILD_BENCH=OFF",
                     "-DQUIVER_BUILD_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("QUIVER_JOBS", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_quiver", "-j", jobs], check=True)
        built = next((build_dir / "python" / "quiver").glob("_quiver*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built), str(target))


setup(ext_modules=[CMakeExtension("quiver._quiver")], cmdclass={"build_ext": CMakeBuild})
