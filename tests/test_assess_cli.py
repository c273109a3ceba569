"""``bolt assess`` end to end: real topic, run and thread files; the judgments file and the summary."""
from __future__ import annotations

import json
import math

import pytest

from bolt.cli import main
from evaluation.judgments import load_judgments

ENG = "bolt-eng-DF-1-2-3"
P1 = "Bain Capital bought Ampad from Mead Corporation in 1992. The weather was nice that year."
P2 = "In October 1993 Bain Capital became the majority shareholder of a steel mill in Kansas City."
THREAD = f"""<doc id="{ENG}">
<headline>
Bain Capital history
</headline>
<post author="a" datetime="2012-01-01T00:00:00" id="p1">
{P1}
</post>
<post author="b" datetime="2012-01-02T00:00:00" id="p2">
{P2}
</post>
</doc>
"""
O1, O2 = THREAD.find(P1), THREAD.find(P2)
TOPICS = f"""<topics>
<topic number="1.001">
  <query>What did Bain Capital do in the 1990s?</query>
  <facet id="1" importance="vital">
    <desc>Acquisition of Ampad from Mead Corporation.</desc>
    <nugget post="{ENG}" offset="{O1}">Bain Capital bought Ampad from Mead Corporation in 1992.</nugget>
  </facet>
  <facet id="2" importance="okay">
    <desc>Purchase of a steel mill.</desc>
  </facet>
</topic>
</topics>
"""


def run_xml(name: str, bullets: list[tuple[str, int]]) -> str:
    body = "".join(f'<bullet>{t}<source post="{ENG}" offset="{o}"/></bullet>\n' for t, o in bullets)
    return f'<results run="{name}">\n<result number="1.001">\n<response>\n{body}</response>\n</result>\n</results>\n'


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("assess")
    (d / "threads").mkdir()
    (d / "threads" / "t.xml").write_text(THREAD, encoding="utf-8")
    (d / "topics.xml").write_text(TOPICS, encoding="utf-8")
    (d / "a.xml").write_text(run_xml("runA", [("Bain Capital bought Ampad from Mead Corporation in 1992.", O1),
                                              ("The weather was nice that year.", O1)]), encoding="utf-8")
    (d / "b.xml").write_text(run_xml("runB", [(P2, O2)]), encoding="utf-8")
    return d


def test_assess_writes_one_judgment_per_bullet_with_a_header(files, capsys):
    out = files / "j.jsonl"
    code = main(["assess", str(files / "a.xml"), str(files / "b.xml"), "--topics", str(files / "topics.xml"),
                 "--corpus", str(files / "threads"), "--out", str(out), "--semantic-threshold", "0.55", "--quiet"])
    assert code == 0
    js = load_judgments(out)
    assert js.header["assessor"] == "auto:bolt-0.6 anchor+statement+crosslingual"
    assert js.header["config"] == "AssessorConfig(semantic_threshold=0.55)"
    assert js.header["model"].startswith("all-MiniLM-L6-v2@")
    assert js.header["runs"] == {"runA": str(files / "a.xml"), "runB": str(files / "b.xml")}
    by_key = {j.key: j for j in js.judgments}
    assert sorted(by_key) == [("1.001", "runA", 1), ("1.001", "runA", 2), ("1.001", "runB", 1)]
    a1, a2, b1 = by_key[("1.001", "runA", 1)], by_key[("1.001", "runA", 2)], by_key[("1.001", "runB", 1)]
    assert a1.facets == ("1",) and a1.sources[0].supports and a1.sources[0].unit == "p1"
    # Bullet 2 cites the nugget's offset, so anchoring gives it facet 1 though its text is off-topic.
    assert a2.facets == ("1",) and a2.extra["evidence"][0]["rule"] == "anchor"
    assert b1.facets == ("2",) and b1.sources[0].unit == "p2" and b1.sources[0].supports
    text = capsys.readouterr().out
    assert "runA" in text and "runB" in text and "wrote 3 judgments" in text
    line_a = next(line for line in text.splitlines() if line.startswith("runA"))
    assert line_a.split()[1:] == ["2", "2", "2", "2", "2"]
    # which model decided, and its agreement with people held out by source, as its file records it
    from evaluation.matching.statement import load_model

    held = load_model().fit_notes["held_out_by_source"]
    decided = next(line for line in text.splitlines() if line.startswith("text matches decided by"))
    assert f"'{load_model().name}'" in decided
    assert f"realsumm kappa {held['realsumm']['kappa']:.2f} [{held['realsumm']['kappa_ci'][0]:.2f}," in decided
    assert js.header["statement_held_out_by_source"] == held
    # and the cross-language decision's agreement on fresh topics, as the model file records it
    from evaluation.matching.crosslingual import load_cross_model

    fresh = load_cross_model().fit_notes["fresh_test"]
    transfer = next(line for line in text.splitlines() if line.startswith("Arabic and Chinese bullets decided by"))
    assert f"cmn kappa {fresh['cmn']['kappa']:.2f} [{fresh['cmn']['kappa_ci'][0]:.2f}, " in transfer
    assert "arz kappa 1.00 [1.00, 1.00] (xl-sites 5.025-5.032)" in transfer


def test_assess_json_summary(files, capsys):
    out = files / "j2.jsonl"
    code = main(["assess", str(files / "b.xml"), "--topics", str(files / "topics.xml"), "--corpus",
                 str(files / "threads"), "--out", str(out), "--no-semantic", "--json", "--quiet"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["assessor"] == "auto:bolt-0.6 anchor+statement+crosslingual" and doc["model"] is None
    assert set(doc["statement_model"]["held_out_by_source"]) == {"ikat", "realsumm", "forum"}
    # Without embeddings, "steel mill" shares 2 of 3 desc terms {purchas, steel, mill}: lexical 0.67.
    assert doc["runs"] == {"runB": {"bullets": 1, "matched": 1, "supported": 1, "sources": 1,
                                    "supporting_sources": 1}}


def test_bad_threshold_and_missing_topic_file_fail_with_one_error_line(files, capsys):
    out = files / "bad.jsonl"
    base = [str(files / "a.xml"), "--corpus", str(files / "threads"), "--out", str(out), "--quiet"]
    assert main(["assess", *base, "--topics", str(files / "topics.xml"), "--lexical-threshold", "2"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "lexical_threshold" in err[0]
    assert main(["assess", *base, "--topics", str(files / "nope.xml")]) == 1
    assert capsys.readouterr().err.startswith("error:")
    assert not out.exists()


def test_query_only_topics_are_refused(files, capsys):
    (files / "queries.xml").write_text('<topics><topic number="1.001"><query>q?</query></topic></topics>',
                                       encoding="utf-8")
    out = files / "q.jsonl"
    code = main(["assess", str(files / "a.xml"), "--topics", str(files / "queries.xml"), "--corpus",
                 str(files / "threads"), "--out", str(out), "--no-semantic", "--quiet"])
    assert code == 1 and "no facets" in capsys.readouterr().err and not out.exists()


def test_duplicate_run_ids_are_refused(files, capsys):
    out = files / "dup.jsonl"
    code = main(["assess", str(files / "a.xml"), str(files / "a.xml"), "--topics", str(files / "topics.xml"),
                 "--corpus", str(files / "threads"), "--out", str(out), "--no-semantic", "--quiet"])
    assert code == 1 and "runA" in capsys.readouterr().err and not out.exists()


def test_corpus_or_index_is_required(files):
    assert main(["assess", str(files / "a.xml"), "--topics", str(files / "topics.xml"), "--out",
                 str(files / "x.jsonl")]) == 2


def test_decision_and_crosslingual_options_change_the_name_and_the_evidence(files, capsys):
    out = files / "old.jsonl"
    code = main(["assess", str(files / "a.xml"), "--topics", str(files / "topics.xml"), "--corpus",
                 str(files / "threads"), "--out", str(out), "--decision", "overlap", "--no-crosslingual",
                 "--no-semantic", "--quiet"])
    assert code == 0
    js = load_judgments(out)
    assert js.header["assessor"] == "auto:bolt-0.6 anchor+lexical" and "statement_model" not in js.header
    a1 = next(j for j in js.judgments if j.bullet == 1)
    assert {e["rule"] for e in a1.extra["evidence"]} == {"anchor", "lexical"} and "probability" not in a1.extra
    new = files / "new.jsonl"
    assert main(["assess", str(files / "a.xml"), "--topics", str(files / "topics.xml"), "--corpus",
                 str(files / "threads"), "--out", str(new), "--statement-threshold", "0.9", "--quiet"]) == 0
    js = load_judgments(new)
    assert js.header["statement_threshold"] == 0.9
    a1 = next(j for j in js.judgments if j.bullet == 1)
    st = next(e for e in a1.extra["evidence"] if e["rule"] == "statement")
    # the bullet is the nugget word for word: every coverage feature is 1.0 and no term is missing, so
    # the probability is sigmoid(intercept + the coverage coefficients + the length terms)
    from evaluation.matching.statement import load_model

    m = load_model()
    feats = st["features"]
    assert all(feats[f] == 1.0 for f in feats if f.endswith("coverage"))
    assert all(feats[f] == 0.0 for f in feats if f.startswith("missing_"))
    expected = round(1 / (1 + math.exp(-(m.intercept + sum(w * feats[f] for f, w in zip(m.features, m.coefficients))))), 4)
    assert st["threshold"] == 0.9 and st["score"] == expected
    assert a1.extra["probability"]["1"] == st["score"]
    assert main(["assess", str(files / "a.xml"), "--topics", str(files / "topics.xml"), "--corpus",
                 str(files / "threads"), "--out", str(new), "--statement-threshold", "1.5", "--quiet"]) == 1
    assert "statement_threshold" in capsys.readouterr().err


# Probabilities of stating facet 1 in this pool (statement model, no embeddings): 0.4375, 0.4186 and
# 0.3807: below the model's own threshold (0.44), above the forum operating point's (0.31).
BETWEEN = ["Bain acquired Ampad from Mead.", "Bain Capital bought Ampad from Mead.", "Ampad was acquired from Mead.",
           "Bain acquired Ampad in 1992 from Mead.", "Mead Corporation sold Ampad.", "Acquisition of Ampad.",
           "A steel mill.", "Bain purchased a mill."]


def test_forum_operating_point_decides_and_states_its_error(files, capsys):
    from evaluation.matching.operating_point import load_point

    point = load_point()
    assert point.thresholds["eng"] == 0.31
    (files / "c.xml").write_text(run_xml("runC", [(t, O2) for t in BETWEEN]), encoding="utf-8")
    base = ["assess", str(files / "c.xml"), "--topics", str(files / "topics.xml"), "--corpus", str(files / "threads"),
            "--no-semantic"]
    facets = {}
    for how in ("forum", "model"):
        out = files / f"c-{how}.jsonl"
        assert main([*base, "--out", str(out), "--operating-point", how, "--quiet"]) == 0
        js = load_judgments(out)
        facets[how] = [j.facets for j in js.judgments]
        printed = capsys.readouterr().out
        if how == "forum":
            eng = point.languages["eng"]["bias"]["R_n"]
            assert js.header["operating_point"]["languages"]["eng"]["threshold"] == 0.31
            assert f"English bullets (p >= 0.31): R_n {eng['bias']:+.3f} [{eng['ci'][0]:+.3f}, " in printed
            for lang, name in (("arz", "Arabic"), ("cmn", "Chinese")):  # each language at its own point
                assert f"{name} bullets (p >= {point.thresholds[lang]:.2f})" in printed
                sites = sorted(point.languages[lang]["bias_by_site"])  # and R_n per site, the pooled figure's spread
                assert f"R_n per board or site: {sites[0]} " in printed
        else:
            assert "operating_point" not in js.header and "the assessor's error" not in printed
    between = (1, 3, 5)  # the bullets of probability 0.4375, 0.4186, 0.3807
    assert [facets["model"][i] for i in between] == [(), (), ()]
    assert [facets["forum"][i] for i in between] == [("1",), ("1",), ("1",)]
    assert facets["model"][4] == facets["forum"][4] == ("1",)  # 0.68: both points
    assert [f for i, f in enumerate(facets["model"]) if i not in between] == \
        [f for i, f in enumerate(facets["forum"]) if i not in between]
    # bolt score states the error under the forum point's judgments (standard error: --json stays clean)
    assert main(["score", str(files / "c.xml"), "--topics", str(files / "topics.xml"), "--judgments",
                 str(files / "c-forum.jsonl"), "-m", "R_n", "--json"]) == 0
    cap = capsys.readouterr()
    # facet 2 (bullets 7, 8, whose cited post is the steel mill one); facet 1's bullets cite that post too: unsupported
    assert json.loads(cap.out)["runs"]["runC"]["mean"]["R_n"] == 0.5
    assert "the assessor's error on forum runs" in cap.err and "English bullets (p >= 0.31)" in cap.err
