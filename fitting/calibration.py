"""A small, hand-written calibration set for the matching thresholds, and the sweep that reads it.

The thresholds of ``AssessorConfig`` were chosen on this set, which shares no domain with the
sample topics or any evaluation topic: eight invented news stories, three facets each, and for
every facet two bullets that address it (one reworded with some shared words, one paraphrased
with few) written as a forum user would. Every other bullet of the same story is a hard negative
for the facet (same people, places and vocabulary, different fact); bullets of other stories are
easy negatives. ``sweep`` scores every (facet description, bullet) pair and reports precision,
recall and F1 of each rule at each threshold, so the choice can be re-checked for another model.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

# story -> [(facet description, [bullets addressing it])]
STORIES: dict[str, list[tuple[str, list[str]]]] = {
    "school strike": [
        ("Teachers in the district went on strike over unpaid wages.",
         ["The district's teachers walked out because they had not been paid for months.",
          "Staff at every school stopped working until their salaries arrive."]),
        ("Schools stayed closed for two weeks.",
         ["No classes were held for fourteen days while the schools were shut.",
          "Kids were sent home and the buildings remained locked for half a month."]),
        ("Parents organised volunteer tutoring in the library.",
         ["Mothers and fathers set up free lessons at the public library.",
          "Some families ran study groups themselves so the children would not fall behind."]),
    ],
    "hospital opening": [
        ("A new children's hospital opened in the northern suburb.",
         ["The northern suburb finally got its own hospital for children.",
          "They opened a paediatric clinic up north last week."]),
        ("The hospital was funded by a donation from a shipping company.",
         ["A shipping firm paid for the building with a large gift.",
          "The money came from a container line owner, not from the state."]),
        ("Nurses complain that there is not enough staff for the night shift.",
         ["At night there are too few nurses on the wards, the staff say.",
          "Night shifts are badly understaffed according to the nursing union."]),
    ],
    "river flood": [
        ("The river burst its banks after three days of heavy rain.",
         ["After seventy-two hours of downpour the river overflowed.",
          "Nonstop storms since Monday pushed the water over the embankment."]),
        ("About 2,000 families were moved to emergency shelters.",
         ["Roughly two thousand households were evacuated to shelters.",
          "Thousands of people are sleeping in gyms and tents set up by the army."]),
        ("Farmers lost most of the wheat harvest.",
         ["The wheat crop in the fields was largely destroyed.",
          "Growers say almost nothing of this year's grain can be saved."]),
    ],
    "bank merger": [
        ("Two regional banks agreed to merge into one lender.",
         ["The two regional banks will combine to form a single lender.",
          "They signed a deal to become one institution next year."]),
        ("The merger will close about 150 branches.",
         ["Around 150 branch offices are going to shut after the deal.",
          "Many local outlets, some say a hundred and fifty, will disappear."]),
        ("Customers' account numbers will not change.",
         ["Clients keep the same account numbers after the merger.",
          "You do not need new bank details, your IBAN stays as it is."]),
    ],
    "vaccine campaign": [
        ("The ministry started a free measles vaccination campaign for infants.",
         ["Babies can now get the measles shot for free under a ministry campaign.",
          "Health officials launched no-cost jabs against measles for young children."]),
        ("Mobile clinics visit remote villages every week.",
         ["Vans with nurses travel to isolated villages once a week.",
          "Each week a travelling team goes out to the far-away hamlets."]),
        ("Some parents refuse the vaccine because of rumours online.",
         ["A number of parents say no to the shot after reading rumours on the internet.",
          "Facebook stories scared some mums and dads into keeping their kids away."]),
    ],
    "election dispute": [
        ("The opposition rejected the official election results.",
         ["Opposition parties refused to accept the announced results of the vote.",
          "The losing side says the count was rigged and will not recognise it."]),
        ("Observers reported ballot boxes arriving already filled.",
         ["Monitors saw ballot boxes that were full before voting started.",
          "International watchers found urns stuffed with papers at dawn."]),
        ("The court ordered a recount in three provinces.",
         ["Judges ordered the votes in three provinces to be counted again.",
          "A new tally was demanded by the tribunal for a trio of regions."]),
    ],
    "bridge collapse": [
        ("Part of the old railway bridge collapsed during the night.",
         ["A section of the old railway bridge fell down overnight.",
          "Some of the rail crossing gave way while everyone was asleep."]),
        ("Engineers had warned about cracks in the pillars years ago.",
         ["Years earlier engineers raised alarms about cracked pillars.",
          "Experts flagged damage in the supports long before it fell."]),
        ("Commuter trains are replaced by buses for six months.",
         ["For half a year commuters will ride buses instead of trains.",
          "Rail passengers must take coaches until the summer after next."]),
    ],
    "concert cancelled": [
        ("The stadium concert was cancelled because of a storm warning.",
         ["Organisers called off the stadium show after a storm alert.",
          "Bad weather forecasts killed the big gig on Saturday."]),
        ("Ticket holders will get a full refund within 30 days.",
         ["Everyone who bought a ticket gets all their money back within a month.",
          "Fans will be reimbursed completely in the next four weeks."]),
        ("The band promised to play a free show next year.",
         ["The group said they will perform for free next year.",
          "Next summer the musicians will give a show at no charge, they promised."]),
    ],
}


class Pair(NamedTuple):
    desc: str
    bullet: str
    positive: bool
    hard: bool  # a negative from the same story


def pairs() -> list[Pair]:
    """Every (facet description, bullet) pair with its label."""
    out: list[Pair] = []
    for story, facets in STORIES.items():
        for desc, _ in facets:
            for other_story, other in STORIES.items():
                for other_desc, bullets in other:
                    for b in bullets:
                        out.append(Pair(desc, b, other_desc == desc, other_story == story and other_desc != desc))
    return out


def _prf(decisions: Sequence[bool], labels: Sequence[bool]) -> dict[str, float]:
    tp = sum(d and y for d, y in zip(decisions, labels))
    fp = sum(d and not y for d, y in zip(decisions, labels))
    fn = sum(y and not d for d, y in zip(decisions, labels))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(f, 3), "false_positives": fp}


def sweep(embedder, lexical_thresholds=(0.3, 0.4, 0.5, 0.6, 0.7),
          semantic_thresholds=(0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7), min_terms: int = 2) -> dict:
    """Precision/recall/F1 of each rule alone, and of lexical-or-semantic, over the threshold grid."""
    from evaluation.matching.lexical import content_terms, lexical_match, overlap

    ps = pairs()
    labels = [p.positive for p in ps]
    texts = list(dict.fromkeys([p.desc for p in ps] + [p.bullet for p in ps]))
    vecs = dict(zip(texts, embedder.encode(texts)))
    cos = [float(vecs[p.desc] @ vecs[p.bullet]) for p in ps]
    ovs = [overlap(content_terms(p.desc), content_terms(p.bullet)) for p in ps]
    lex = {t: [lexical_match(o, t, min_terms) for o in ovs] for t in lexical_thresholds}
    sem = {t: [c >= t for c in cos] for t in semantic_thresholds}
    both = {f"{lt}|{st}": [a or b for a, b in zip(lex[lt], sem[st])]
            for lt in lexical_thresholds for st in semantic_thresholds}
    same_story_other_fact = []  # bullet vs bullet about another fact of the same story: support's hard case
    for facets in STORIES.values():
        for i, (_, bullets) in enumerate(facets):
            for j, (_, others) in enumerate(facets):
                if j > i:
                    same_story_other_fact += [float(vecs[a] @ vecs[b]) for a in bullets for b in others]
    pos = [c for c, y in zip(cos, labels) if y]
    hard = [c for c, p in zip(cos, ps) if p.hard]
    return {
        "pairs": len(ps), "positives": sum(labels), "hard_negatives": sum(p.hard for p in ps),
        "cosine_positive_mean": round(sum(pos) / len(pos), 3), "cosine_positive_min": round(min(pos), 3),
        "cosine_hard_negative_mean": round(sum(hard) / len(hard), 3),
        "cosine_hard_negative_max": round(max(hard), 3),
        "support_hard_negative_cosine_mean": round(sum(same_story_other_fact) / len(same_story_other_fact), 3),
        "support_hard_negative_cosine_max": round(max(same_story_other_fact), 3),
        "lexical": {str(t): _prf(d, labels) for t, d in lex.items()},
        "semantic": {str(t): _prf(d, labels) for t, d in sem.items()},
        "lexical_or_semantic": {k: _prf(d, labels) for k, d in both.items()},
        "model": getattr(embedder, "model_id", None),
    }
