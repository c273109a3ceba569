"""The index folder's ``manifest.json``: what was indexed, how, with what, and ``--check``.

The manifest lists every input file with its size and SHA-256, the roots given on the command
line (so files added later are noticed), the backend, the analysis and unit settings (their
reprs), library versions and per-language counts. ``check_manifest`` re-hashes the inputs.
"""
from __future__ import annotations

from indexing.atomic import atomic_write_text

import hashlib
import json
import os
import platform
import time
from pathlib import Path
from typing import Iterable

from indexing.encoding import MANIFEST_KEY, STRICT
from indexing.errors import ToolkitError

FORMAT = "bolt-index/4"  # 2: a passage stores its place in its post unit; 3: one Lucene index per language;
# 4: Chinese folded to one script (settings["script_fold"])
MANIFEST = "manifest.json"


def list_inputs(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """The files a build reads (the reader's own listing: files as given, folders recursively)."""
    from indexing.reader import iter_source_files

    return list(iter_source_files(list(paths)))


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def describe_inputs(paths: Iterable[str | os.PathLike]) -> list[dict]:
    return [{"path": str(f.resolve()), "size": f.stat().st_size, "sha256": file_digest(f)}
            for f in list_inputs(paths)]


def versions(backend: str) -> dict:
    """Versions of everything that shapes the index."""
    from importlib import metadata

    def v(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "absent"

    out = {"toolkit": v("bolt-distill"), "python": platform.python_version(), "spacy": v("spacy"),
           "opencc": v("opencc")}
    if backend == "lucene":
        from indexing import jvm
        from indexing.lucene_index import lucene_version

        out.update(pyserini=v("pyserini"), anserini=lucene_version(), java=jvm.runtime_version())
    else:
        out.update(rank_bm25=v("rank-bm25"), snowballstemmer=v("snowballstemmer"))
    return out


def make_manifest(*, backend: str, roots: list[str], inputs: list[dict], settings: dict,
                  counts: dict, bad: list[str]) -> dict:
    return {"format": FORMAT, "backend": backend, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "roots": roots, "inputs": inputs, "settings": settings, "versions": versions(backend),
            "counts": counts, "bad": bad}


def write_json_atomic(path: Path, data: dict) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", newline=None)


def read_manifest(index_dir: str | os.PathLike) -> dict:
    path = Path(index_dir) / MANIFEST
    if not path.is_file():
        raise ToolkitError(f"{index_dir} is not an index folder (no {MANIFEST})", file=str(index_dir),
                           hint="build one with 'bolt index PATH... --out DIR'")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ToolkitError(f"unreadable manifest: {exc}", file=str(path),
                           hint="rebuild the index with 'bolt index PATH... --out DIR --force'") from exc
    if data.get("format") != FORMAT:
        raise ToolkitError(f"index format {data.get('format')!r} is not this toolkit's ({FORMAT})", file=str(path),
                           hint="rebuild it: 'bolt index PATH... --out DIR --force' (the manifest's 'roots' "
                                "lists the inputs)")
    return data


def recorded_policy(index_dir: str | os.PathLike) -> str:
    """The ``--encoding-errors`` policy an index folder was built with (strict when its manifest,
    made before the option existed, or missing, records none: the reader was strict then)."""
    try:
        data = json.loads((Path(index_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return STRICT
    settings = data.get("settings") if isinstance(data, dict) else None
    return settings.get(MANIFEST_KEY, STRICT) if isinstance(settings, dict) else STRICT


def check_manifest(index_dir: str | os.PathLike) -> list[str]:
    """What changed since the build: ``["<path>: <what>", ...]`` (empty when all inputs match)."""
    m = read_manifest(index_dir)
    problems: list[str] = []
    problems.extend(_fold_changes(m))
    listed = {e["path"]: e for e in m["inputs"]}
    for path, entry in listed.items():
        p = Path(path)
        if not p.is_file():
            problems.append(f"{path}: missing (it was indexed)")
        elif p.stat().st_size != entry["size"]:
            problems.append(f"{path}: size changed ({entry['size']} -> {p.stat().st_size} bytes)")
        elif file_digest(p) != entry["sha256"]:
            problems.append(f"{path}: content changed (SHA-256 differs)")
    roots = [r for r in m.get("roots", []) if Path(r).is_dir()]
    if roots:
        for f in list_inputs(roots):
            if str(f.resolve()) not in listed:
                problems.append(f"{f.resolve()}: added since the index was built")
    return problems


def _fold_changes(manifest: dict) -> list[str]:
    """The Chinese script folding now differs from the build's (another OpenCC table)."""
    from indexing.script_fold import describe

    built = manifest.get("settings", {}).get("script_fold")
    now = describe()
    if built and built.get("sha256") != now["sha256"]:
        return [f"Chinese script folding changed since the build ({built.get('converter')} {built.get('version')}, "
                f"{built.get('characters')} characters -> {now['converter']} {now['version']}, {now['characters']}): "
                "rebuild with --force"]
    return []
