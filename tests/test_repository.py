"""What a clone of the repository needs to make sense on its own: every link of its docs
points inside it, the license the package declares is there, the server's data is ignored."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CODE = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)  # code is not a link


def test_every_relative_link_of_the_docs_stays_in_the_repository() -> None:
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for document in documents:
        for target in LINK.findall(CODE.sub("", document.read_text())):
            if "://" in target or target.startswith("mailto:"):
                continue
            path = (document.parent / target).resolve()
            assert path.is_relative_to(ROOT), f"{document.name} links outside: {target}"
            assert path.exists(), f"{document.name} links to a missing file: {target}"
    assert "](docs/design.md)" in (ROOT / "README.md").read_text()


def test_the_declared_license_is_in_the_repository() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == "MIT"
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 icswire developers" in text


def test_the_servers_data_directory_is_ignored() -> None:
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "icswire-data/" in ignored
