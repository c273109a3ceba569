"""Whether an Arabic or Chinese comment sentence states something or only reacts.

Reader comments under news and posts on social boards are mostly reactions that share the
subject's words without answering anything: prayers and invocations, praise and thanks, jeers and
insults, laughter, guesses at someone's motives. The English rules of
:mod:`bolt.pipeline.informative` cannot read them. These cues are the everyday formulae of Arabic
(Modern Standard and the dialects) and of written Chinese in general, never one site's phrases;
Arabic is matched after the index's spelling folds, Chinese after folding to Simplified script.

A sentence *states* when it holds a specific mark, as in English: a number, a cause, a condition,
or a rule or modal word. As with an English greeting, a formula with a statement after it is judged
by the statement: only a sentence with little said besides its cues (fewer than ``REST_WORDS``
words once every cue is removed) and no specific mark is a reaction. The prior (multiplying the
sentence's relevance) is

- a reaction (a prayer, praise, a jeer, laughter): ``REACTS`` (as an English thanks);
- a guess or hedge: ``GUESS`` (as an English hedge);
- anything else: 1.0 (a plain statement is not marked down: these languages' statements carry few
  function words the lists could count on; a long comment that opens with a prayer and goes on
  to argue is an argument).
"""
from __future__ import annotations

import re

from bolt.pipeline.text import length_estimate, normalize_arabic
from indexing.script_fold import fold_chinese

REACTS = 0.35
GUESS = 0.6
REST_WORDS = 6
PLAIN = 0.6


def _words(*alternatives: str) -> re.Pattern:
    """An Arabic pattern of whole words or phrases (written in the folded spelling)."""
    return re.compile(r"(?<![\w])(?:" + "|".join(alternatives) + r")(?![\w])")


# Arabic, in normalize_arabic's spelling (ا for أإآ, ه for ة, ي for ى, و/ي for ؤ/ئ)
ARZ_REACT = _words(
    # prayers and invocations: God with a verb of the imperfect (may God ...), a verb with a pronoun
    # and God (God keep you, God have mercy on them), and the set formulae
    "الله ي\\w+", "\\w+(?:ك|ه|ها|هم|كم|نا) الله",
    "الله يرحم\\w*", "رحمه الله", "رحمها الله", "حسبي الله", "حسبنا الله", "لا حول ولا قوه الا بالله",
    "لا حول ولا قوه", "الله يهدي\\w*", "الله يحفظ\\w*", "حفظه الله", "الله يعين\\w*", "الله يوفق\\w*",
    "جزاك الله", "جزاه الله", "بارك الله", "ما شاء الله", "ماشاء الله", "سبحان الله", "الله اكبر", "اللهم",
    "يا رب", "يارب", "امين", "الحمد لله", "الحمدلله", "الله المستعان", "استغفر الله", "الله ينتقم\\w*",
    "الله لا يوفق\\w*", "الله يسامح\\w*", "الله يكون في عون\\w*",
    # praise and thanks
    "شكرا", "مشكور", "احسنت", "برافو", "مبروك", "الف مبروك", "يعطيك العافيه", "صح لسانك", "كفو",
    "تسلم", "تسلم ايدك", "كلام جميل", "كلام رائع", "كلام سليم", "رائع", "ممتاز",
    # jeers and insults
    "حرامي\\w*", "كذاب\\w*", "غبي", "اغبياء", "حمار", "حمير", "خونه", "خاين", "خائن", "تافه", "منافق\\w*",
    "فاشل\\w*", "مهزله", "مسخره", "عيب عليك\\w*", "حرام عليك\\w*", "يا حسره", "تفو", "ه{3,}", "لول")
ARZ_GUESS = _words("ربما", "اكيد", "اظن", "اعتقد", "شكله", "شكلهم", "باين", "يبدو", "يمكن يكون")
ARZ_SPECIFIC = _words(
    # cause
    "لان\\w*", "بسبب", "سبب", "اسباب", "لذلك", "لهذا", "علشان", "عشان", "حيث ان", "نتيجه", "والسبب", "السبب",
    # condition
    "اذا", "لو", "الا اذا", "بشرط", "طالما", "في حال",
    # rule or modal
    "يجب", "لازم", "لابد", "لا بد", "ممنوع", "مسموح", "قانون\\w*", "القانون", "نظام", "النظام", "الزامي",
    "يحق", "لا يجوز", "يجوز", "يستطيع", "يقدر", "ممكن")

# Chinese, Simplified (text is folded first, so Traditional writing matches too)
CMN_REACT = re.compile(
    # praise, thanks, wishes
    "谢谢|感谢|辛苦了|支持|加油|点赞|厉害|牛逼|好样的|祝福|平安|保重|致敬|心疼|感动|威武|赞|"
    # jeers, insults, laughter
    "傻逼|傻b|垃圾|滚|恶心|可笑|活该|笑死|呵呵|哈哈|卧槽|我靠|无语|服了|脑残|智障|废物|人渣|畜生|"
    "狗官|走狗|丢人|耻辱|作秀|演戏|吃瓜|呸|sb(?![a-z])", re.IGNORECASE)
CMN_GUESS = re.compile("估计|大概|也许|恐怕|肯定是|八成|我猜|难道")
CMN_SPECIFIC = re.compile(
    "因为|所以|由于|因此|导致|原因|造成|"            # cause
    "如果|要是|只要|除非|假如|一旦|"                  # condition
    "应该|必须|可以|不能|需要|规定|要求|禁止|不得|只能|法律|政策")  # rule or modal
NUMBER = re.compile(r"\d|[%％]")


def reaction_prior(text: str, lang: str) -> float:
    """The prior of an Arabic (``arz``) or Chinese (``cmn``) sentence: ``REACTS`` when it only
    reacts, ``GUESS`` when it only guesses (a cue, no specific mark, fewer than ``REST_WORDS``
    words besides the cues), else 1.0; 1.0 for any other language."""
    if lang == "arz":
        t, react, guess, specific = normalize_arabic(text), ARZ_REACT, ARZ_GUESS, ARZ_SPECIFIC
    elif lang == "cmn":
        t, react, guess, specific = fold_chinese(text).lower(), CMN_REACT, CMN_GUESS, CMN_SPECIFIC
    else:
        return 1.0
    if NUMBER.search(t) or specific.search(t):
        return 1.0
    if length_estimate(guess.sub(" ", react.sub(" ", t)), lang) >= REST_WORDS:
        return PLAIN
    if react.search(t):
        return REACTS
    if guess.search(t):
        return GUESS
    return PLAIN
