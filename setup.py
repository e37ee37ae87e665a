"""Build hook: the wheel carries the repository's data/ and schemas/ as cardkit/_bundled/.

Everything else about the package is in pyproject.toml. The folders stay at the
repository's top level, where the project keeps them; cardkit/paths.py reads the
bundled copy when there is one and the checkout's folders otherwise. An editable
install reads the checkout's own folders, so nothing is copied for it.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = ("data", "schemas")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        # A file removed from the repository must not linger in the next wheel from an old build/lib.
        shutil.rmtree(Path(self.build_lib, "cardkit", "_bundled"), ignore_errors=True)
        for folder in BUNDLED:
            files = sorted((HERE / folder).rglob("*.json"))
            if not files:
                raise SystemExit(f"error: no JSON files under {folder}/ to bundle; build from the repository root")
            for source in files:
                target = Path(self.build_lib, "cardkit", "_bundled", source.relative_to(HERE))
                self.mkpath(str(target.parent))
                self.copy_file(str(source), str(target))


setup(cmdclass={"build_py": BuildWithData})
