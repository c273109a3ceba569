"""``bolt score`` and ``bolt compare`` end to end on the bundled sample topics and corpus."""
from __future__ import annotations

import csv
import json

import pytest

from bolt.cli import main
from bolt.data import sample_corpus_path
from bolt.formats.topics import read_topics
from evaluation.judgments import JudgedSource, Judgment, write_judgments
from bolt.data import topic_path as topics_path

TOPICS = topics_path("sample.xml")


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    d = tmp_path_factory.mktemp("score")
    topic = read_topics(TOPICS)[0]
    f1, f2 = topic.facets[0], topic.facets[1]
    n1, n2 = f1.nuggets[0], f2.nuggets[0]
    runs = {}
    for rid, bullets in {"good": [(n1, f1), (n2, f2)], "poor": [(n1, None)]}.items():
        body = "".join(f'<bullet>{n.text}<source post="{n.post}" offset="{n.offset}"/></bullet>' for n, _ in bullets)
        p = d / f"{rid}.xml"
        p.write_text(f'<results run="{rid}"><result number="{topic.topic_id}"><response>{body}</response></result>'
                     f'</results>\n', encoding="utf-8")
        runs[rid] = p
    js = []
    for rid, bullets in {"good": [(n1, f1), (n2, f2)], "poor": [(n1, None)]}.items():
        for k, (n, f) in enumerate(bullets, start=1):
            words = len(n.text.split())
            js.append(Judgment(topic.topic_id, rid, k, "human:test", (f.id,) if f else (), words, words if f else 0,
                               (JudgedSource(n.post, n.offset, None, f is not None),), {}))
    jpath = d / "judgments.jsonl"
    write_judgments(js, jpath, header={"assessor": "human:test", "version": "1"})
    return d, topic, runs, jpath


def _score(capsys, sample, *extra, corpus=True):
    """``bolt score`` of the two runs; with the sample collection unless ``extra`` names one or ``corpus`` is False
    (the judgments leave ``unit`` out, so the collection places the cited posts)."""
    d, topic, runs, jpath = sample
    where = ["--corpus", str(sample_corpus_path())] if corpus and "--corpus" not in extra and "--index" not in extra \
        else []
    code = main(["score", str(runs["good"]), str(runs["poor"]), "--topics", str(TOPICS),
                 "--judgments", str(jpath), *where, *extra])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_score_json_shape_and_values(capsys, sample):
    d, topic, runs, jpath = sample
    code, out, err = _score(capsys, sample, "--json", "--corpus", str(sample_corpus_path()))
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) >= {"settings", "runs"}
    names = ["P_n", "R_n", "P_c", "R_c", "F_c", "F_GD", "ERR", "nugget_F"]
    good = doc["runs"]["good"]
    assert list(good["mean"]) == names
    m = len(topic.facets)
    t = good["topics"][topic.topic_id]
    assert t["R_n"] == pytest.approx(2 / m)
    assert t["P_n"] == pytest.approx(1.0) and t["P_c"] == pytest.approx(1.0)
    poor = doc["runs"]["poor"]["topics"][topic.topic_id]
    assert poor["R_n"] == 0.0 and poor["P_c"] == 0.0 and poor["F_GD"] == 0.0
    n_topics = len(read_topics(TOPICS))
    assert len(good["topics"]) == n_topics                            # unanswered topics are counted
    assert good["mean"]["R_n"] == pytest.approx(2 / m / n_topics)
    s = doc["settings"]
    assert s["units"] == "corpus" and s["nugget_units"]["corpus"] > 0
    assert s["params"]["nugget_F.beta"] == 3.0 and s["assessors"] == ["human:test"]
    # median over (good, poor) is 0 on every topic but the one good answered
    assert doc["zero_median_topics"]["R_n"]["count"] == n_topics - 1
    assert "signature" in doc and doc["signature"].endswith(f"version:{s['version']}")


def test_corpus_places_nugget_citations_in_posts(capsys, sample):
    from indexing.corpus import open_corpus

    d, topic, runs, jpath = sample
    _, with_corpus, _ = _score(capsys, sample, "--json", "--corpus", str(sample_corpus_path()))
    rc_c = json.loads(with_corpus)["runs"]["good"]["topics"][topic.topic_id]["R_c"]
    cited = [topic.facets[0].nuggets[0], topic.facets[1].nuggets[0]]
    nuggets = [n for f in topic.facets for n in f.nuggets if n.post]
    corpus = open_corpus(paths=[sample_corpus_path()])
    post = lambda n: (n.post, corpus.get(n.post).post_at(n.offset).id)  # noqa: E731
    assert rc_c == pytest.approx(len({post(n) for n in cited}) / len({post(n) for n in nuggets}))


def test_options_change_settings_and_numbers(capsys, sample, tmp_path):
    csv_path = tmp_path / "s.csv"
    code, out, _ = _score(capsys, sample, "--json", "--beta", "5", "--err-total", "--avg-nugget-words", "7",
                          "--votes", str(topics_path("sample.votes.tsv")), "--csv", str(csv_path))
    assert code == 0
    doc = json.loads(out)
    assert doc["settings"]["params"]["nugget_F.beta"] == 5.0
    assert doc["settings"]["params"]["ERR.denominator"] == "total"
    assert doc["settings"]["avg_nugget_words"] == 7 and doc["settings"]["avg_nugget_words_source"] == "override"
    assert "pyramid_F" in doc["runs"]["good"]["mean"]
    rows = list(csv.reader(csv_path.open(encoding="utf-8")))
    assert rows[0][:3] == ["run", "topic", "P_n"] and rows[-1][1] == "all"


def test_table_output_has_the_signature(capsys, sample):
    code, out, err = _score(capsys, sample)
    assert code == 0
    assert "good" in out and "nugget_F.beta:3" in out and "|version:" in out


def test_unjudged_bullets_are_reported(capsys, sample, tmp_path):
    d, topic, runs, jpath = sample
    empty = tmp_path / "empty.jsonl"
    write_judgments([], empty)
    code = main(["score", str(runs["good"]), "--topics", str(TOPICS), "--judgments", str(empty), "--json",
                 "--corpus", str(sample_corpus_path())])
    cap = capsys.readouterr()
    assert code == 0 and "warning: 2 bullet(s)" in cap.err
    assert json.loads(cap.out)["runs"]["good"]["unjudged_bullets"] == 2


def test_bad_judgments_file_is_one_error_line(capsys, sample, tmp_path):
    d, topic, runs, jpath = sample
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"topic": "1.001"}\n', encoding="utf-8")
    code = main(["score", str(runs["good"]), "--topics", str(TOPICS), "--judgments", str(bad)])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith(f"error: {bad}:1: missing required keys")


def test_compare_across_score_files_and_metrics(capsys, sample, tmp_path):
    _, out, _ = _score(capsys, sample, "--json")
    a = tmp_path / "author.json"
    a.write_text(out, encoding="utf-8")
    doc = json.loads(out)
    doc["runs"]["poor"]["mean"]["F_GD"] = 1.0                      # a second "assessor" who disagrees
    b = tmp_path / "other.json"
    b.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["compare", str(a), str(b), "--json", "--resamples", "200"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["metric"] == "F_GD"
    assert res["rankings"] == {"author": ["good", "poor"], "other": ["poor", "good"]}
    assert res["kendall_tau"] == {"author|other": -1.0}
    assert res["significance"]["author"][0]["a"] == "good"
    assert main(["compare", str(a), "--json", "--metric", "R_n"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert set(one["rankings"]) == set(doc["runs"]["good"]["mean"])   # one file: rankings per metric
    assert main(["compare", str(a), "--metric", "nope"]) == 1
    assert "choose --metric from" in capsys.readouterr().err
    assert main(["compare", str(a), str(b)]) == 0
    assert "Kendall" in capsys.readouterr().out


def test_library_score_equals_the_command_and_reads_its_own_json(capsys, sample, tmp_path):
    """``evaluation.api.score`` is ``bolt score`` without argparse; the report round-trips its JSON and CSV."""
    from evaluation.results import ScoreReport
    from evaluation.api import score

    d, topic, runs, jpath = sample
    code, out, err = _score(capsys, sample, "--json", "--csv", str(tmp_path / "cli.csv"))
    assert code == 0, err
    rep = score(list(runs.values()), TOPICS, [jpath], corpus=[sample_corpus_path()])
    assert json.loads(rep.dumps()) == json.loads(out)
    path = rep.write_json(tmp_path / "s.json")
    back = ScoreReport.read(path)
    assert back == rep and back.name == "s" and back.signature == rep.signature
    assert back.dumps() == rep.dumps()
    assert rep.to_csv() == (tmp_path / "cli.csv").read_text(encoding="utf-8")
    assert rep.per_topic("R_n")["good"][topic.topic_id] == pytest.approx(2 / len(topic.facets))


def test_also_reports_a_second_beta_beside_the_first(capsys, sample):
    code, out, err = _score(capsys, sample, "--json", "--also", "nugget_F(beta=5)")
    assert code == 0, err
    doc = json.loads(out)
    mean = doc["runs"]["good"]["mean"]
    assert list(mean)[-2:] == ["nugget_F", "nugget_F(beta=5)"]
    assert doc["settings"]["params"]["nugget_F(beta=5).beta"] == 5.0
    # by hand from the topic: the good run's two bullets are the nuggets of facets 1 and 2
    from evaluation.metrics.nugget import nugget_f

    topic = sample[1]
    f1, f2 = topic.facets[0], topic.facets[1]
    vital = sum(f.importance == "vital" for f in (f1, f2))
    n_vital = sum(f.importance == "vital" for f in topic.facets)
    length = sum(len("".join(f.nuggets[0].text.split())) for f in (f1, f2))
    t = doc["runs"]["good"]["topics"][topic.topic_id]
    assert t["nugget_F"] == pytest.approx(nugget_f(vital, 2 - vital, n_vital, length, 3.0))
    assert t["nugget_F(beta=5)"] == pytest.approx(nugget_f(vital, 2 - vital, n_vital, length, 5.0))
    assert t["nugget_F"] != t["nugget_F(beta=5)"] or vital == n_vital
    code, out, err = _score(capsys, sample, "--also", "nugget_F(gamma=5)")
    assert code != 0 and "--also" in err and "gamma" in err


def test_m_chooses_the_metrics_and_a_bare_name_takes_beta(capsys, sample):
    code, out, err = _score(capsys, sample, "--json", "-m", "F_GD", "--metric", "nugget_F", "--beta", "5",
                            "--also", "ERR")
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc["runs"]["good"]["mean"]) == ["F_GD", "nugget_F", "ERR"]
    assert doc["settings"]["params"]["nugget_F.beta"] == 5.0
    code, out, err = _score(capsys, sample, "-m", "nugget_F(gamma=5)")
    assert code != 0 and "-m" in err and "gamma" in err


def test_q_prints_trec_eval_lines_per_topic_and_all(capsys, sample):
    d, topic, runs, jpath = sample
    code, out, err = _score(capsys, sample, "--json", "-m", "R_n", "-m", "P_c")
    doc = json.loads(out)
    code, out, err = _score(capsys, sample, "-q", "-m", "R_n", "-m", "P_c")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    # two runs: run name first; each topic's metrics, then each metric's mean as topic "all"
    assert {len(r) for r in rows} == {4}
    good = [(m.strip(), t, float(v)) for run, m, t, v in rows if run == "good"]
    n = len(doc["runs"]["good"]["topics"])
    assert len(good) == 2 * n + 2
    assert good[-2:] == [("R_n", "all", round(doc["runs"]["good"]["mean"]["R_n"], 4)),
                         ("P_c", "all", round(doc["runs"]["good"]["mean"]["P_c"], 4))]
    t = doc["runs"]["good"]["topics"][topic.topic_id]
    assert ("R_n", topic.topic_id, round(t["R_n"], 4)) in good
    # one run: trec_eval's three columns
    code = main(["score", str(runs["good"]), "--topics", str(TOPICS), "--judgments", str(jpath), "--by-topic",
                 "-m", "R_n"])   # R_n reads no source unit: no collection needed
    out = capsys.readouterr().out
    assert code == 0 and [line.split("\t")[0].strip() for line in out.splitlines()] == ["R_n"] * (n + 1)
    assert out.splitlines()[-1].split("\t")[1:] == ["all", f"{doc['runs']['good']['mean']['R_n']:.4f}"]
    code, out, err = _score(capsys, sample, "-q", "--json")
    assert code == 2 and "not allowed with" in err


def test_score_help_shows_no_empty_defaults(capsys):
    assert main(["score", "--help"]) == 0
    text = capsys.readouterr().out
    assert "(default: [])" not in text and "(default: None)" not in text and "--topics FILE" in text
    assert "-m METRIC, --metric METRIC" in text and "-q, --by-topic" in text


def test_a_metric_without_its_input_is_an_error_not_zeros(capsys, sample):
    code, out, err = _score(capsys, sample, "-m", "pyramid_F")
    assert code == 1 and "needs votes" in err and "--votes" in err and out == ""
    code, out, err = _score(capsys, sample, "--also", "holistic")
    assert code == 1 and "--holistic" in err
