"""Whether a forum sentence *informs* (states a reason, rule, number, instruction, outcome) or only chats.

Real forum threads are full of sentences that share the query's words without answering it:
greetings, thanks, sign-offs, personal history, rants, hedges. Relevance models cannot tell them
apart (they are *on the subject*); these rules, written for forum English in general and never
for one board's phrases, give each sentence a prior in (0, 1] that multiplies its relevance:

- *social formulae* (a greeting, thanks, good wishes, laughter) at the start, with little said after
  them, or thanks anywhere: chatter;
- *personal history* ("I have been selling for years"): a first-person statement with nothing
  specific in it;
- *links*: a sentence that is little more than a URL;
- *rant marks*: several exclamation marks, shouting in capitals, a row of dots;
- *hedges* ("not sure", "I don't know"): the writer says they cannot answer;
- *a yes or no that answers*: "No, Half doesn't take PayPal." opens with a word that is a social
  formula elsewhere ("Yes!", "No problem"), but followed by a clause of three or more words it is a
  direct answer to a yes/no question (an outcome), so it is specific content, not a greeting (unless
  the clause is about the writer: "Yes, I agree with you." stays chatter);
- *specific content* raises the prior: a number or amount, a modal or rule word (can, must,
  only, allowed, required), a condition (if, unless, as long as), a cause (because, since), or an
  instruction (second-person advice, an imperative verb at the start, a menu path ``A > B``).

Arabic and Chinese sentences get the neutral prior (1.0) except for laughter and rant marks:
the lexical rules are English.
"""
from __future__ import annotations

import re

# Conversation formulae of English in general (greeting, thanks, wishes, laughter, assent).
SOCIAL_START = re.compile(
    r"^(?:hi+|hello|hey+|hiya|greetings|dear|welcome|thanks?|thank\s+you|thx|ty|ok(?:ay)?|yes|yeah|yep|no|nope|"
    r"well|oh|ah|wow|lol|haha+|hehe+|lmao|ditto|amen|congrats?|congratulations|cheers|sorry|good\s+luck|"
    r"best\s+of\s+luck|best\s+wishes|good\s+morning|good\s+evening|bye|goodbye|peace|hugs?|agreed?|exactly|"
    r"same\s+here|me\s+too|true|so\s+true|great|awesome|cool|nice|bump)\b[\s,.!:;~\-]*",
    re.IGNORECASE)
THANKS = re.compile(r"\b(?:thanks|thank\s+you|thx|appreciated?|grateful)\b", re.IGNORECASE)
WISHES = re.compile(r"\b(?:good\s+luck|best\s+of\s+luck|best\s+wishes|hope\s+(?:this|that|it)\s+helps|"
                    r"hope\s+you|wishing\s+you|welcome\s+to|glad\s+to\s+(?:help|hear))\b", re.IGNORECASE)
LAUGH = re.compile(r"\b(?:lol|rofl|lmao|haha+|hehe+)\b|[:;]-?[)(DPp]|\^_\^|哈哈|呵呵|ههه+", re.IGNORECASE)
HEDGE = re.compile(r"\b(?:not\s+sure|i\s+don'?t\s+know|no\s+idea|i\s+have\s+no\s+advice|just\s+a\s+guess|"
                   r"i\s+could\s+be\s+wrong|i\s+wonder)\b", re.IGNORECASE)
FIRST_PERSON_START = re.compile(r"^(?:i|i'm|i've|i'd|i'll|im|ive|my|me|we|we're|we've|our)\b", re.IGNORECASE)
NUMBER = re.compile(r"\d|[$€£%]")
RULE = re.compile(r"\b(?:can|can'?t|cannot|could|must|should|shouldn'?t|need\s+to|needs\s+to|have\s+to|has\s+to|"
                  r"will|won'?t|only|allowed|not\s+allowed|required?|requires|policy|rule|never|always|unless|"
                  r"until|within|before|after|expires?|limit)\b", re.IGNORECASE)
CONDITION = re.compile(r"\b(?:if|unless|as\s+long\s+as|once|otherwise|whenever|in\s+case)\b", re.IGNORECASE)
CAUSE = re.compile(r"\b(?:because|since|so\s+that|due\s+to|the\s+reason|that'?s\s+why|which\s+is\s+why|"
                   r"means?|causes?|result)\b", re.IGNORECASE)
ADVICE = re.compile(r"\b(?:you\s+(?:can|could|should|must|need|have\s+to|will|might|may)|"
                    r"(?:i|we)\s+(?:suggest|recommend|advise)|try\s+to|make\s+sure|be\s+sure|the\s+best\s+way|"
                    r"the\s+only\s+way)\b", re.IGNORECASE)
# Imperative verbs of instructions in general (how-to English, not one site's vocabulary).
IMPERATIVE = frozenset("""
add allow ask avoid be beware block call cancel change check choose click contact copy call delete do don't
email enter file fill find follow get give go keep leave let list look make never note open pay post print put
read remember report request return search select send set ship sign start stop take tell try turn update
use wait watch write always
""".split())
# "Yes, you can." / "No, Half doesn't take PayPal.": a yes or no followed by a clause answers.
ANSWER_START = re.compile(r"^(?:yes|yep|yeah|no|nope)\b\s*[,.:;!\-]+\s*(?=\S)", re.IGNORECASE)
MENU_PATH = re.compile(r"\w\s*(?:>|->|→|»)\s*\w")
SHOUT = re.compile(r"\b[A-Z]{3,}\b")
URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)


QUESTION_MARKS = ("?", "؟", "？")
# what may follow a sentence's last word: closing quotes and brackets, and (forum habit) stray dots or
# exclamation marks after a question mark ("Am I suspended forever?.")
_CLOSERS = " \"'”»)]"
_TRAILING = _CLOSERS + ".!~"


def is_question(text: str) -> bool:
    """A sentence that ends with a question mark, whatever closing quotes, brackets or stray dots
    follow it: it asks, it does not state (``drop_questions``)."""
    return text.rstrip(_TRAILING).endswith(QUESTION_MARKS)


# The prior of a sentence that states something specific and is not personal history (one specific
# mark without a first-person start gives 0.85): such a sentence is a *statement* of its post, and the
# answer position (bolt.pipeline.forum) counts the statements before a sentence.
SPECIFIC = 0.85


def subject_words(query: str) -> frozenset[str]:
    """The query's words, lower-cased: what the asker wants to know about is not chatter."""
    return frozenset(w.lower() for w in WORD.findall(query))


def informativeness(text: str, lang: str = "eng", subject: frozenset[str] = frozenset()) -> float:
    """A prior in (0, 1]: 1 for a sentence that states something specific, lower for chatter.

    ``subject``: the query's words (:func:`subject_words`); laughter or capitals that are one of them
    are the subject, not chatter ("When you see LOL it means laughing out loud" answers "what does
    LOL mean?"; "BUMP" in capitals is the word asked about, not shouting). A leading formula is
    still stripped ("LOL means ..." is judged by what follows it)."""
    t = " ".join(text.split())
    if not t:
        return 0.0
    prior = 1.0
    if URL.search(t):  # a link says where, not what: judge the words around it
        t = URL.sub(" ", t).strip()
        if len(WORD.findall(t)) < 4:
            return 0.05
    if any(m.group(0).lower() not in subject for m in LAUGH.finditer(t)):
        prior *= 0.6
    if t.count("!") >= 2 or "?!" in t or "!?" in t:
        prior *= 0.6
    if re.search(r"\.{4,}|…{2,}", t):
        prior *= 0.8
    if lang != "eng":
        return prior
    words = WORD.findall(t)
    n = len(words) or 1
    caps = sum(1 for w in SHOUT.findall(t) if w.lower() not in subject)
    if caps >= 3 and caps / n > 0.3:
        prior *= 0.6
    # a yes or no followed by a clause is an answer: judge the clause, and count the answer as specific
    answer = ANSWER_START.match(t)
    if answer and len(WORD.findall(t[answer.end():])) >= 3 and not FIRST_PERSON_START.match(t[answer.end():]):
        t = t[answer.end():]
    else:
        answer = None
    # strip leading social formulae ("Hi,", "Thanks!", "Well,"), then judge what is left
    rest, stripped = t, 0
    while True:
        m = SOCIAL_START.match(rest)
        if not m or not m.group(0):
            break
        rest = rest[m.end():]
        stripped += 1
    rest_words = WORD.findall(rest)
    if stripped and len(rest_words) < 6:
        prior *= 0.25
    if THANKS.search(t) or WISHES.search(t):
        prior *= 0.35
    if HEDGE.search(t):
        prior *= 0.6
    specific = sum((
        answer is not None,
        bool(NUMBER.search(rest)),
        bool(RULE.search(rest)),
        bool(CONDITION.search(rest)),
        bool(CAUSE.search(rest)),
        bool(ADVICE.search(rest)),
        bool(rest_words) and rest_words[0].lower() in IMPERATIVE,
        bool(MENU_PATH.search(rest)),
    ))
    if specific == 0:
        prior *= 0.45 if FIRST_PERSON_START.match(rest) else 0.6
    elif specific == 1:
        prior *= 0.85 if not FIRST_PERSON_START.match(rest) else 0.7
    return max(0.02, min(1.0, prior))
