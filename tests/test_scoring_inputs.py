"""Scoring judgments people write themselves: one answer per set of inputs, the minimal hand-written
file of docs/judgments.md (Arabic and Chinese bullets), and a clear message for each bad input.

Real components: the bundled sample topics and collection, real submission files, the real reader,
scorer, automatic assessor and command line.
"""
from __future__ import annotations

import json

import pytest

from bolt.cli import main
from bolt.data import sample_corpus_path
from bolt.data import topic_path
from bolt.formats.submission import Bullet, Result, Source, read_run, write_run
from bolt.formats.topics import read_topics, write_topics
from evaluation.api import assessment, open_collection, score
from evaluation.assessor import AssessorConfig
from evaluation.judgments import read_judgments
from evaluation.metrics.facts import post_id_at
from indexing.errors import ToolkitError
from indexing.textfacts import count_words

TOPICS = topic_path("sample.xml")
CORPUS = str(sample_corpus_path())
TOPIC = "1.003"   # Arabic and Chinese nuggets


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A run answering topic 1.003 with its nuggets (one bullet each, citing the nugget's post), a
    topics file of that topic alone, the minimal hand-written judgments and the same decisions as
    ``bolt judge`` writes them (assessor, words, units, text, ...)."""
    d = tmp_path_factory.mktemp("inputs")
    topic = next(t for t in read_topics(TOPICS) if t.topic_id == TOPIC)
    items = [(f.id, n) for f in topic.facets for n in f.nuggets if n.post is not None]
    bullets = tuple(Bullet(k, n.text, (Source(n.post, n.offset),)) for k, (_, n) in enumerate(items, 1))
    run = d / "hand.xml"
    write_run("hand", [Result(TOPIC, bullets)], run)
    one_topic = d / "topic.xml"
    write_topics([topic], one_topic)
    corpus = open_collection(corpus=[CORPUS])
    minimal, judged = [], []
    for k, (fid, n) in enumerate(items, 1):
        supports = k % 3 != 0                       # a few sources do not support their bullet
        minimal.append({"topic": TOPIC, "run": "hand", "bullet": k, "facets": [fid],
                        "sources": [{"post": n.post, "offset": n.offset, "supports": supports}]})
        words = count_words(n.text)
        judged.append({"topic": TOPIC, "run": "hand", "bullet": k, "assessor": "human:ann", "facets": [fid],
                       "words": words, "responsive_words": words,
                       "sources": [{"post": n.post, "offset": n.offset, "unit": post_id_at(corpus, n.post, n.offset),
                                    "supports": supports, "judged_by": "human"}],
                       "text": n.text, "struck": [], "judged_by": "human", "complete": True})
    paths = {}
    for name, lines in (("minimal", minimal), ("judged", judged)):
        paths[name] = d / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    scripts = {"".join(sorted({("cmn" if any("\u4e00" <= c <= "\u9fff" for c in n.text) else
                                "arz" if any("\u0600" <= c <= "\u06ff" for c in n.text) else "eng")
                               for _, n in items}))}
    assert "arzcmn" in scripts or "arzcmneng" in scripts      # Arabic and Chinese bullets both
    return {"dir": d, "run": run, "topic_file": one_topic, "items": items, "corpus": corpus, **paths}


def _cli(capsys, *argv):
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _means(doc):
    return {r: d["mean"] for r, d in doc["runs"].items()}


# ------------------------------------------------------------------------------- one answer

def test_cli_and_api_give_one_answer_or_refuse_naming_the_flag(files, capsys):
    """The same inputs through the CLI and the Python API, with and without the collection."""
    run, minimal = files["run"], files["minimal"]
    code, out, err = _cli(capsys, "score", run, "--topics", TOPICS, "--judgments", minimal)
    assert code == 1 and out == ""
    assert "--corpus PATH... or --index DIR" in err and "supporting source(s) without a \"unit\"" in err
    assert "R_c, F_c, F_GD, ERR depend on those units" in err
    with pytest.raises(ToolkitError, match=r"--corpus PATH\.\.\. or --index DIR"):
        score([run], TOPICS, [minimal])
    code, out, err = _cli(capsys, "score", run, "--topics", TOPICS, "--judgments", minimal, "--corpus", CORPUS,
                          "--json")
    assert code == 0, err
    rep = score([run], TOPICS, [minimal], corpus=[CORPUS])
    assert json.loads(out) == json.loads(rep.dumps())
    assert rep.settings["units"] == "corpus" and "units:corpus" in rep.signature
    # metrics that read no source unit need no collection: the same figures either way
    code, out_without, err = _cli(capsys, "score", run, "--topics", TOPICS, "--judgments", minimal, "--json",
                                  "-m", "R_n", "-m", "P_n", "-m", "P_c", "-m", "nugget_F")
    assert code == 0, err
    without = json.loads(out_without)["runs"]["hand"]["mean"]
    assert without == {m: json.loads(out)["runs"]["hand"]["mean"][m] for m in without}


def test_units_written_in_the_judgments_give_the_collections_answer_without_it(files):
    """Every supporting source has its unit and every nugget citation is cited: no collection needed,
    and the figures are the ones the collection gives; the signature says how units were placed."""
    topic_file, judged = files["topic_file"], files["judged"]
    with_corpus = score([files["run"]], topic_file, [judged], corpus=[CORPUS])
    without = score([files["run"]], topic_file, [judged])
    assert without.means == with_corpus.means and without.topics == with_corpus.topics
    assert without.settings["units"] == "judgments" and "units:judgments" in without.signature
    assert without.settings["nugget_units"]["judgments"] == len(files["items"])
    r_c = with_corpus.means["hand"]["R_c"]
    assert 0 < r_c <= 1 and with_corpus.means["hand"]["P_c"] == pytest.approx(
        sum(k % 3 != 0 for k in range(1, len(files["items"]) + 1)) / len(files["items"]))


# ------------------------------------------------------------------------------- hand-written judgments

def test_minimal_hand_written_judgments_score_as_the_judge_file_with_no_warnings(files, capsys):
    run = files["run"]
    docs = {}
    for name in ("minimal", "judged"):
        code, out, err = _cli(capsys, "score", run, "--topics", TOPICS, "--judgments", files[name], "--corpus",
                              CORPUS, "--json")
        assert code == 0 and "warning" not in err, err
        docs[name] = json.loads(out)
    assert _means(docs["minimal"]) == _means(docs["judged"])
    assert docs["minimal"]["runs"]["hand"]["topics"] == docs["judged"]["runs"]["hand"]["topics"]
    j = read_judgments(files["minimal"])[0]
    assert (j.assessor, j.words, j.responsive_words, j.sources[0].unit) == ("human", None, None, None)


def test_a_hand_counted_word_total_is_a_warning_naming_the_bullet_and_the_text_decides(files, capsys, tmp_path):
    lines = [json.loads(x) for x in files["judged"].read_text(encoding="utf-8").splitlines()]
    k, line = next((i, x) for i, x in enumerate(lines) if any("\u4e00" <= c <= "\u9fff" for c in x["text"]))
    counted = line["words"]
    line["words"] = line["responsive_words"] = len(line["text"].split())   # counted by spaces, as by hand
    assert line["words"] != counted
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    code, out, err = _cli(capsys, "score", files["run"], "--topics", TOPICS, "--judgments", wrong, "--corpus",
                          CORPUS, "--json")
    assert code == 0
    assert (f"warning: 1 judgment(s) give a word count that differs from the bullet text's by the word rule "
            f"(topic {TOPIC} run hand bullet {line['bullet']}: {line['words']} given, {counted} in its text)") in err
    right = score([files["run"]], TOPICS, [files["judged"]], corpus=[CORPUS])
    assert json.loads(out)["runs"]["hand"]["mean"] == right.means["hand"]


def test_assess_reuse_takes_hand_written_judgments_as_people_s_and_as_the_judge_file(files):
    """``--reuse`` of the minimal file (no text, no units) decides every bullet as the judge file does."""
    config = AssessorConfig(semantic=False, crosslingual=False)
    made = {}
    for name in ("minimal", "judged"):
        result = assessment([files["run"]], TOPICS, collection=files["corpus"], config=config, reuse=[files[name]])
        assert result.judged_by == {"human": len(files["items"]), "mixed": 0, "machine": 0}
        assert result.reuse_warning is None
        made[name] = result.judgments
    view = [[(j.facets, j.words, j.responsive_words, [(s.unit, s.supports) for s in j.sources]) for j in made[n]]
            for n in ("minimal", "judged")]
    assert view[0] == view[1]
    a = score([files["run"]], TOPICS, [made["minimal"]], corpus=[CORPUS])
    b = score([files["run"]], TOPICS, [files["judged"]], corpus=[CORPUS])
    assert a.means == b.means


def test_reuse_without_text_names_the_run_it_needs(files, tmp_path):
    from evaluation.judgments.reuse import read_reusable
    from indexing.problems import ProblemsError

    with pytest.raises(ProblemsError, match="run hand is not among the runs given; give that run's file too"):
        read_reusable([files["minimal"]])
    assert len(read_reusable([files["minimal"]], [read_run(files["run"])])) == len(files["items"])


def test_support_the_machine_decided_is_reported_per_run(files, capsys, tmp_path):
    lines = [json.loads(x) for x in files["judged"].read_text(encoding="utf-8").splitlines()]
    lines[0]["sources"][0]["judged_by"] = "machine"
    lines[1]["judged_by"] = "machine"
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    code, out, err = _cli(capsys, "score", files["run"], "--topics", TOPICS, "--judgments", mixed, "--corpus",
                          CORPUS, "--json")
    assert code == 0
    assert json.loads(out)["runs"]["hand"]["support_by_machine"] == 2
    assert "warning: run hand: the support of 2 cited source(s) was decided by the machine" in err
    code, out, _ = _cli(capsys, "score", files["run"], "--topics", TOPICS, "--judgments", files["judged"],
                        "--corpus", CORPUS, "--json")
    assert "support_by_machine" not in json.loads(out)["runs"]["hand"]


# ------------------------------------------------------------------------------- other evaluations' files

@pytest.mark.parametrize("first_line, named", [
    ("1.003 0 bolt-arz-DF-903-310001-8200002 1", "this is a TREC qrels file"),
    ("1.1 runA 3 2 NYT19980601.0001 the marked text", "this is a TREC QA nugget judgments file"),
    (json.dumps({"qid": "1", "run_id": "r", "nuggets": [{"text": "t", "importance": "vital",
                                                          "assignment": "support"}]}),
     "this is an AutoNuggetizer nugget-assignment file"),
])
def test_other_evaluations_judgments_are_named_with_what_to_do(files, capsys, tmp_path, first_line, named):
    path = tmp_path / "theirs.txt"
    path.write_text(first_line + "\n", encoding="utf-8")
    code, out, err = _cli(capsys, "score", files["run"], "--topics", TOPICS, "--judgments", path, "--corpus", CORPUS)
    assert code == 1 and err.startswith(f"error: {path}:1: {named}")
    assert "not valid JSON" not in err and ("bolt convert import" in err or "bolt judge" in err)


# ------------------------------------------------------------------------------- the command line

@pytest.mark.parametrize("argv, expected", [
    (["score", "r.xml", "--topics", "t.xml", "--judgements", "j.jsonl"],
     "unrecognized option '--judgements' (did you mean '--judgments'?)"),
    (["assess", "r.xml", "--topics", "t.xml", "--index", "idx", "-o", "out.jsonl"],
     "unrecognized option '-o' (did you mean one of '--out', '--operating-point'?)"),
    (["score", "r.xml", "--topics", "t.xml", "--judgments", "j.jsonl", "--err-totl"],
     "unrecognized option '--err-totl' (did you mean '--err-total'?)"),
    (["score", "r.xml", "--topics", "t.xml", "--judgments", "j.jsonl", "-m", "F_GDD"],
     "unknown metric 'F_GDD' (did you mean 'F_GD'?)"),
    (["convert", "import", "trec-q", "folder", "--out", "d"], "(did you mean 'trec-qa'?)"),
])
def test_typos_get_did_you_mean(capsys, argv, expected):
    code, out, err = _cli(capsys, *argv)
    assert code in (1, 2) and expected in err
    assert "the following arguments are required" not in err


def test_a_misspelled_system_gets_did_you_mean(capsys, tmp_path):
    code, out, err = _cli(capsys, "run", "--index", tmp_path, "--topics", TOPICS, "--out", tmp_path / "r.xml",
                          "--system", "bm25")
    assert code != 0 and "unknown system 'bm25' (did you mean 'bm25-sentences'?)" in err


def test_output_is_accepted_where_out_is(files, capsys, tmp_path):
    out = tmp_path / "auto.jsonl"
    code, _, err = _cli(capsys, "assess", files["run"], "--topics", TOPICS, "--corpus", CORPUS, "--output", out,
                        "--no-semantic", "--no-crosslingual", "--quiet")
    assert code == 0, err
    assert len(read_judgments(out)) == len(files["items"])


def test_shared_option_help_is_one_line_with_a_pointer(capsys):
    for command in ("assess", "score", "judge"):
        assert main([command, "--help"]) == 0
        text = capsys.readouterr().out
        start = text.index("  --encoding-errors")
        block = text[start:].split("\n  -", 1)[0]
        assert "docs/cli.md" in block and len(block.splitlines()) <= 4, block


def test_the_minimal_file_of_the_docs_scores_and_reuses_as_written(capsys, tmp_path):
    """docs/judgments.md's hand-written example, against a run whose bullets it judges."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "judgments.md").read_text(encoding="utf-8")
    block = text.split("### Written by hand", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    (tmp_path / "hand.jsonl").write_text(block, encoding="utf-8")
    lines = [json.loads(x) for x in block.splitlines()]
    topic = next(t for t in read_topics(TOPICS) if t.topic_id == lines[0]["topic"])
    texts = {(n.post, n.offset): n.text for f in topic.facets for n in f.nuggets}
    bullets = []
    for x in lines:
        s = x["sources"][0]
        body = texts[(s["post"], s["offset"])] if x["facets"] else "我不知道 maybe later"
        bullets.append(Bullet(x["bullet"], body, (Source(s["post"], s["offset"]),)))
    run = tmp_path / "myrun.xml"
    write_run("myrun", [Result(topic.topic_id, tuple(bullets))], run)
    code, out, err = _cli(capsys, "score", run, "--topics", TOPICS, "--judgments", tmp_path / "hand.jsonl",
                          "--corpus", CORPUS, "--json")
    assert code == 0 and "warning" not in err, err
    t = json.loads(out)["runs"]["myrun"]["topics"][topic.topic_id]
    assert t["R_n"] == pytest.approx(2 / len(topic.facets)) and t["P_c"] == pytest.approx(2 / 3)
    result = assessment([run], TOPICS, collection=open_collection(corpus=[CORPUS]),
                        config=AssessorConfig(semantic=False, crosslingual=False), reuse=[tmp_path / "hand.jsonl"])
    assert result.judged_by == {"human": 3, "mixed": 0, "machine": 0}
    assert [j.facets for j in result.judgments] == [tuple(x["facets"]) for x in lines]
    assert result.judgments[2].responsive_words == 0


def test_the_api_example_of_the_docs_runs_on_the_sample(tmp_path, monkeypatch, capsys):
    """docs/api.md's example, run as written in a folder holding a run of the sample topics."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    code = text.split("## Assessing and scoring", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    results = []
    for t in read_topics(TOPICS)[:3]:   # a lead-like run: the first nugget of each facet, citing it
        ns = [f.nuggets[0] for f in t.facets if f.nuggets and f.nuggets[0].post is not None]
        results.append(Result(t.topic_id, tuple(Bullet(k, n.text, (Source(n.post, n.offset),))
                                                for k, n in enumerate(ns, 1))))
    write_run("lead", results, tmp_path / "lead.xml")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(code, "docs/api.md", "exec"), scope)
    out = capsys.readouterr().out
    report, judgments = scope["report"], scope["judgments"]
    assert len(judgments) == sum(len(r.bullets) for r in results)
    assert 0 < report.means["lead"]["F_GD"] <= 1 and out.startswith(f"F_GD {report.means['lead']['F_GD']:.4f}")
    assert "units:corpus" in report.signature and report.signature in out
    again = score([tmp_path / "lead.xml"], TOPICS, [judgments], corpus=[CORPUS])
    assert again.means == report.means
