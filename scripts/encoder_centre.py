#!/usr/bin/env python
"""Write the centre of a multilingual encoder (``indexing/models/<model>_centre.json``).

multilingual-e5-small's vectors share one large direction (the mean of its unit vectors has norm
about 0.9), so every cosine lies in 0.7-0.9 and thresholds written for USE (where unrelated
sentences score about 0) mean nothing. Taking the mean passage vector away before normalising
spreads the cosines again. The mean is taken over the sentences of the bundled sample corpus
(English, Arabic, Chinese forum posts written for the toolkit), not over any evaluation data.

    scripts/encoder_centre.py --model e5-small
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def sample_sentences() -> list[str]:
    """Every sentence (more than 3 characters) of the bundled sample corpus's posts, in file order."""
    from indexing.reader import read_threads
    from indexing.sentences import split_sentences

    out = []
    for thread in read_threads(ROOT / "bolt" / "data" / "sample_corpus"):
        for post in thread.posts:
            text = post.own_text
            out.extend(s for a, b in split_sentences(text, thread.lang) if len(s := text[a:b].strip()) > 3)
    return out


def main(argv=None) -> int:
    from indexing.models.multilingual import CENTRES, MultilingualEncoder

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", default="e5-small", choices=sorted(CENTRES))
    args = p.parse_args(argv)
    texts = sample_sentences()
    centre = MultilingualEncoder(args.model).encode(texts).mean(axis=0)
    path = ROOT / "indexing" / "models" / CENTRES[args.model]
    path.write_text(json.dumps({"model": args.model, "sentences": len(texts),
                                "source": "mean passage vector of the sentences of bolt/data/sample_corpus "
                                          "(scripts/encoder_centre.py)",
                                "centre": [round(float(x), 6) for x in centre]}), encoding="utf-8")
    print(f"{path}: centre of {args.model} over {len(texts)} sample sentences (norm {float((centre ** 2).sum()) ** 0.5:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
