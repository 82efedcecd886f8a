"""A PEP 517 build backend for this one pure-Python package, with the standard library only.

Why not setuptools: the setuptools that Python 3.9-3.11 bundle (65.x) cannot build a wheel without the separate
`wheel` package, which a Python without network access (and `pip install --no-build-isolation --no-index`) does not
have. This backend needs nothing: it reads pyproject.toml, writes a wheel (PEP 427) with the package's files and its
metadata (core metadata 2.1), an sdist (PEP 517), and an editable wheel (PEP 660: a .pth file pointing at src/).
"""

import ast
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SDIST_FILES = ["pyproject.toml", "README.md", "LICENSE", "build_backend/lugha_build.py"]


# pyproject.toml: tomllib where there is one (3.11+), else the small subset this file uses.


def _parse_toml_subset(text: str) -> Dict[str, Any]:
    data: Dict[str, Any] = {}
    table = data
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if not pending and stripped.startswith("["):
            table = data
            for part in stripped.strip("[]").split("."):
                table = table.setdefault(part.strip().strip('"'), {})
            continue
        pending += line + "\n"
        key, _, value = pending.partition("=")
        if value.count("[") > value.count("]"):
            continue  # an array over several lines
        value = re.sub(r"(?m)^\s*#.*$", "", value).strip()
        value = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", value))
        table[key.strip().strip('"')] = ast.literal_eval(value)
        pending = ""
    return data


def _pyproject() -> Dict[str, Any]:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        raw = f.read()
    try:
        import tomllib  # type: ignore[import-not-found]

        return tomllib.loads(raw.decode("utf-8"))
    except ImportError:
        return _parse_toml_subset(raw.decode("utf-8"))


def _config() -> Tuple[Dict[str, Any], str, str]:
    pyproject = _pyproject()
    project = pyproject["project"]
    tool = pyproject["tool"]["lugha-build"]
    with open(os.path.join(ROOT, tool["version-file"]), encoding="utf-8") as f:
        match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', f.read(), re.M)
    if not match:
        raise RuntimeError(f"no __version__ in {tool['version-file']}")
    return project, tool["package"], match.group(1)


def _names() -> Tuple[str, str]:
    project, _, version = _config()
    return re.sub(r"[-_.]+", "_", project["name"]).lower(), version


def _metadata() -> str:
    project, _, version = _config()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']}",
    ]
    if project.get("keywords"):
        lines.append(f"Keywords: {','.join(project['keywords'])}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    lines += [f"Project-URL: {k}, {v}" for k, v in project.get("urls", {}).items()]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(ROOT, project["readme"]), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join(lines) + "\n\n" + readme


def _package_files() -> List[Tuple[str, str]]:
    """(path in the wheel, path on disk) of every file of the package, caches left out."""
    _, package, _ = _config()
    out = []
    top = os.path.join(ROOT, "src", package)
    for directory, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            disk = os.path.join(directory, name)
            out.append((os.path.relpath(disk, os.path.join(ROOT, "src")).replace(os.sep, "/"), disk))
    return out


def _dist_info_files() -> Dict[str, bytes]:
    dist, version = _names()
    info = f"{dist}-{version}.dist-info"
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        license_text = f.read()
    return {
        f"{info}/METADATA": _metadata().encode("utf-8"),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: lugha_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/LICENSE": license_text,
    }


def _write_wheel(directory: str, files: Dict[str, bytes]) -> str:
    dist, version = _names()
    name = f"{dist}-{version}-py3-none-any.whl"
    record_path = f"{dist}-{version}.dist-info/RECORD"
    records = []
    with zipfile.ZipFile(os.path.join(directory, name), "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_DEFLATED)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
            records.append(f"{path},sha256={digest},{len(data)}")
        records.append(f"{record_path},,")
        wheel.writestr(zipfile.ZipInfo(record_path, date_time=(2020, 1, 1, 0, 0, 0)), "\n".join(records) + "\n")
    return name


# The PEP 517 / PEP 660 hooks.


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    files = _dist_info_files()
    info = next(iter(files)).split("/")[0]
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    for path, data in files.items():
        with open(os.path.join(metadata_directory, path), "wb") as f:
            f.write(data)
    return info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    files: Dict[str, bytes] = {}
    for path, disk in _package_files():
        with open(disk, "rb") as f:
            files[path] = f.read()
    files.update(_dist_info_files())
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    dist, _ = _names()
    files = {f"__editable__.{dist}.pth": (os.path.join(ROOT, "src") + "\n").encode("utf-8")}
    files.update(_dist_info_files())
    return _write_wheel(wheel_directory, files)


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    dist, version = _names()
    base = f"{dist}-{version}"
    name = f"{base}.tar.gz"
    entries = [(p, os.path.join(ROOT, p)) for p in SDIST_FILES] + [("src/" + p, disk) for p, disk in _package_files()]
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path, disk in entries:
            tar.add(disk, arcname=f"{base}/{path}", recursive=False)
        pkg_info = _metadata().encode("utf-8")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(pkg_info)
        info.mtime = 1577836800
        tar.addfile(info, io.BytesIO(pkg_info))
    return name
