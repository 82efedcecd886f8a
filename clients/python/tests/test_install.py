"""The package as pip installs it: built offline by its own backend (no setuptools, no wheel, no index), then
imported from the install target, not from src/, and used against the service."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from .support import CLIENT_ROOT, service

SCRIPT = """
import importlib.metadata, json, os, lugha
client = lugha.Client(os.environ["LUGHA_API_KEY"], base_url=os.environ["LUGHA_BASE_URL"])
print(json.dumps({
    "file": lugha.__file__,
    "version": lugha.__version__,
    "distribution": importlib.metadata.version("lugha-client"),
    "detected": client.detect("Good morning, how are you today?")["results"][0]["language"],
}))
"""


class PipInstall(unittest.TestCase):
    def test_pip_installs_offline_and_the_installed_copy_works(self) -> None:
        base_url, api_key = service()
        with tempfile.TemporaryDirectory() as target:
            install = subprocess.run(
                [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--no-build-isolation", "--no-index", "--no-deps", "--target", target, CLIENT_ROOT],
                capture_output=True,
                text=True,
                timeout=300,
            )
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
            installed = sorted(os.listdir(os.path.join(target, "lugha")))
            for name in ["__init__.py", "client.py", "errors.py", "types.py", "py.typed"]:
                self.assertIn(name, installed)
            env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": target, "LUGHA_BASE_URL": base_url, "LUGHA_API_KEY": api_key}
            run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=target, env=env, timeout=120)
            self.assertEqual(run.returncode, 0, run.stderr)
            out = json.loads(run.stdout)
        self.assertTrue(out["file"].startswith(target), out)
        self.assertEqual(out["version"], out["distribution"])
        self.assertEqual(out["detected"], "en")


if __name__ == "__main__":
    unittest.main()
