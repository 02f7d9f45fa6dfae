"""Puts libmsalnativeauth.so into the package and tags the wheel for this platform (it carries a
binary, so it is not `py3-none-any`). Nothing is compiled: the library comes from scripts/build-bindings
(or MSAL_NATIVE_AUTH_LIBRARY)."""

import os
import shutil
import sysconfig
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
LIBRARY = "libmsalnativeauth.so"
KEYRING_LIBRARY = "libmsalnativeauth-keyring.so"


def library_path() -> Path:
    explicit = os.environ.get("MSAL_NATIVE_AUTH_LIBRARY")
    path = Path(explicit) if explicit else HERE.parents[1] / ".build/bindings/dist/lib" / LIBRARY
    if not path.is_file():
        raise SystemExit(f"{path} not found: run scripts/build-bindings first, or set MSAL_NATIVE_AUTH_LIBRARY")
    return path


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        source = library_path()
        target = Path(self.build_lib) / "msal_native_auth" / LIBRARY
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        target.chmod(0o755)
        # The keyring's small library over libsecret, beside the main one, which opens it only
        # when an application asks for "cache": "keyring" (Bindings/README.md).
        keyring = source.with_name(KEYRING_LIBRARY)
        if keyring.is_file():
            shutil.copyfile(keyring, target.with_name(KEYRING_LIBRARY))
            target.with_name(KEYRING_LIBRARY).chmod(0o755)


class BinaryDistribution(Distribution):
    """Carries a binary: the package goes to the platform-specific library folder (platlib) at the
    wheel's root, not under .data/purelib."""

    def has_ext_modules(self) -> bool:
        return True


class BdistWheel(bdist_wheel):
    def get_tag(self):  # type: ignore[no-untyped-def]
        return "py3", "none", sysconfig.get_platform().replace("-", "_").replace(".", "_")


setup(distclass=BinaryDistribution, cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel})
