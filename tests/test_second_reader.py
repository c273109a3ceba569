"""scripts/second_reader.py: two readers' judgments of the same bullets matched and their kappas.

A hand-made pair of files over the real topic 5.001 (six facets), four bullets:

    bullet  first  second
    b1      {1}    {1}
    b2      {}     {}
    b3      {3}    {}
    b4      {}     {}

Bullet level: agreement 3/4; the first says "states" for 1/2, the second for 1/4, so chance agreement
1/2 * 1/4 + 1/2 * 3/4 = 1/2 and kappa = (3/4 - 1/2) / (1 - 1/2) = 0.5.
Facet level (4 bullets x 6 facets = 24 pairs): the first says yes on 2, the second on 1, they agree on
23; chance (2/24)(1/24) + (22/24)(23/24) = 508/576, kappa = (552 - 508) / (576 - 508) = 11/17.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from bolt.formats.topics import read_topics

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("second_reader", REPO / "scripts" / "second_reader.py")
second_reader = importlib.util.module_from_spec(spec)
sys.modules["second_reader"] = second_reader  # the dataclass looks its module up
spec.loader.exec_module(second_reader)

ASSESSOR = "careful:first"
POSTS = {"b1": "ARZ_DF_alriyadh_20100426_520062", "b2": "ARZ_DF_alghad_20100426_1",
         "b3": "CMN_DF_weibo_20200703_017943b96fcf", "b4": "CMN_DF_weibo_20200703_017943b96fcf"}


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _files(tmp_path: Path) -> tuple[Path, Path]:
    first = [{"topic": "5.001", "run": "r" + t, "assessor": ASSESSOR, "facets": f, "text": t,
              "sources": [{"post": POSTS[t], "offset": 10, "supports": True}]}
             for t, f in (("b1", ["1"]), ("b2", []), ("b3", ["3"]), ("b4", []))]
    first.append({**first[0], "assessor": "careful:someone-else", "facets": []})  # another reader's line: ignored
    second = [{"topic": "5.001", "facets": f, "text": t} for t, f in (("b1", ["1"]), ("b2", []), ("b3", []), ("b4", []))]
    return _write(tmp_path / "first.jsonl", first), _write(tmp_path / "second.jsonl", second)


def _facets() -> dict[str, tuple[str, ...]]:
    return {t.topic_id: tuple(f.id for f in t.facets) for t in read_topics(REPO / "topics" / "xl-sites.xml")}


def test_hand_computed_kappas_and_sites(tmp_path):
    first, second = _files(tmp_path)
    pairs = second_reader.read_pairs(second, [first], ASSESSOR, _facets())
    assert [len(p.facets) for p in pairs] == [6, 6, 6, 6]
    assert second_reader.bullet_kappa(pairs) == pytest.approx(0.5)
    assert second_reader.facet_kappa(pairs) == pytest.approx(11 / 17)
    groups = second_reader.groups(pairs)
    assert {k: len(v) for k, v in groups.items()} == {"all": 4, "Arabic": 2, "Chinese": 2,
                                                      "Weibo": 2, "alriyadh/alghad": 2}
    assert second_reader.bullet_kappa(groups["Arabic"]) == pytest.approx(1.0)
    assert [p.run for p in second_reader.groups(pairs, ("rb1", "rb3"))["runs rb3*"]] == ["rb3"]
    # Weibo (b3, b4): agreement 1/2, chance 1/2 * 0 + 1/2 * 1 = 1/2, so kappa 0
    assert second_reader.bullet_kappa(groups["Weibo"]) == pytest.approx(0.0)
    # b2 and b4: both readers say "none" throughout, so kappa is undefined, not a number
    both_none = second_reader.bullet_kappa([pairs[1], pairs[3]])
    assert both_none != both_none
    lo, hi = second_reader.bootstrap(pairs, second_reader.bullet_kappa, 200, 0)
    assert -1 <= lo <= 0.5 <= hi <= 1


def test_bullets_are_grouped_by_their_topics_set_as_well_as_by_the_site_they_cite(tmp_path):
    first, second = _files(tmp_path)
    sets = second_reader.topic_sets([REPO / "topics" / "xl-sites.xml", REPO / "topics" / "ebay-dev.xml"])
    # 5.001's nuggets are in an alriyadh thread; eBay's nugget threads name no site, so the file's name stands
    assert sets["5.001"] == "alriyadh/alghad" and sets["2.001"] == "ebay-dev"
    groups = second_reader.groups(second_reader.read_pairs(second, [first], ASSESSOR, _facets(), sets))
    assert len(groups["topics: alriyadh/alghad"]) == 4 and len(groups["Weibo"]) == 2


def test_a_bullet_the_first_reader_never_judged_is_refused_with_its_line(tmp_path):
    first, second = _files(tmp_path)
    _write(second, [{"topic": "5.001", "facets": [], "text": "b1"}, {"topic": "5.001", "facets": [], "text": "b9"}])
    with pytest.raises(SystemExit, match=r"second.jsonl:2: no judgment by careful:first"):
        second_reader.read_pairs(second, [first], ASSESSOR, _facets())


def test_the_stored_second_pass_matches_the_first_readers_lines_and_facets():
    facets = {t.topic_id: tuple(f.id for f in t.facets) for path in second_reader.TOPICS for t in read_topics(path)}
    pairs = second_reader.read_pairs(second_reader.SECOND, list(second_reader.FIRST), second_reader.ASSESSOR, facets)
    assert len(pairs) == 102 and all(p.second <= set(p.facets) for p in pairs)
    assert {p.site for p in pairs} == {"youm7", "alriyadh/alghad", "PTT", "Weibo"}
