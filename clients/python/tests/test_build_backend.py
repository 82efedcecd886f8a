"""The build backend (build_backend/lugha_build.py) on its own: what the wheel and the sdist hold."""

import os
import sys
import tarfile
import tempfile
import unittest
import zipfile

from .support import CLIENT_ROOT

sys.path.insert(0, os.path.join(CLIENT_ROOT, "build_backend"))
import lugha_build  # noqa: E402


class BuildBackend(unittest.TestCase):
    def test_the_toml_subset_reads_pyproject_as_tomllib_does(self) -> None:
        with open(os.path.join(CLIENT_ROOT, "pyproject.toml"), encoding="utf-8") as f:
            text = f.read()
        subset = lugha_build._parse_toml_subset(text)
        self.assertEqual(subset["project"]["name"], "lugha-client")
        self.assertEqual(subset["build-system"]["backend-path"], ["build_backend"])
        self.assertIn("Typing :: Typed", subset["project"]["classifiers"])
        try:
            import tomllib  # type: ignore[import-not-found]
        except ImportError:  # Python < 3.11: the fields above are what the backend reads
            return
        self.assertEqual(subset, tomllib.loads(text))

    def test_wheel_and_sdist(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            wheel = lugha_build.build_wheel(out)
            self.assertEqual(wheel, "lugha_client-0.1.0-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(out, wheel)) as z:
                names = set(z.namelist())
                metadata = z.read("lugha_client-0.1.0.dist-info/METADATA").decode()
                record = z.read("lugha_client-0.1.0.dist-info/RECORD").decode()
            self.assertTrue({"lugha/__init__.py", "lugha/client.py", "lugha/types.py", "lugha/py.typed"} <= names, names)
            self.assertFalse([n for n in names if "__pycache__" in n or n.startswith("tests/")])
            self.assertIn("Name: lugha-client\nVersion: 0.1.0\n", metadata)
            self.assertIn("Requires-Python: >=3.9", metadata)
            self.assertEqual(len(record.strip().splitlines()), len(names))

            sdist = lugha_build.build_sdist(out)
            with tarfile.open(os.path.join(out, sdist)) as t:
                members = set(t.getnames())
            for name in ["pyproject.toml", "README.md", "LICENSE", "build_backend/lugha_build.py", "src/lugha/client.py", "PKG-INFO"]:
                self.assertIn(f"lugha_client-0.1.0/{name}", members)

            editable = lugha_build.build_editable(out)
            with zipfile.ZipFile(os.path.join(out, editable)) as z:
                pth = z.read("__editable__.lugha_client.pth").decode().strip()
            self.assertEqual(pth, os.path.join(CLIENT_ROOT, "src"))


if __name__ == "__main__":
    unittest.main()
