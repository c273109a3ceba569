#!/usr/bin/env python3
"""Render the bundled sample collection and its topics from the content below (deterministic).

The threads are written here as Python data in a light markup, never as XML by hand, so every
nugget offset is computed from the rendered text:

- ``[[key|text]]`` marks a nugget: ``text`` is rendered as is and its raw offset recorded
  under ``key`` (topics refer to nuggets by key);
- ``{Q:author}`` ... ``{/Q}`` is a ``<quote orig_author="author">``, ``{Q}`` a quote without
  ``orig_author`` (quotes nest); ``{A:url|text}`` a link; ``{IMG:src}`` an image.
- Everything else is text, XML-escaped when rendered (``&`` becomes ``&amp;``).

Outputs (by default, in the repository): ``bolt/data/sample_corpus/`` (LDC layout: concatenated
``bolt-<lang>-DF-*`` files, one gzipped, and one-thread ``<LANG>_DF_*`` files with an XML
declaration, one of them with CRLF line ends), ``topics/sample.xml``, ``topics/sample.queries.xml``
and ``topics/sample.votes.tsv``. Run: ``python scripts/make_sample.py``; ``tests/test_sample.py``
regenerates into a temporary folder and compares byte for byte. See ``docs/sample.md``.
"""
from __future__ import annotations

import argparse
import datetime as dt
import gzip
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bolt.formats.topics import Facet, Nugget, Topic, TopicProperties, write_topics, write_votes  # noqa: E402

XML_DECL = '<?xml version="1.0" encoding="utf-8"?>\n'


@dataclass(frozen=True)
class T:
    """A thread as written: id, headline, start time, and posts as ``(author, body)``."""

    id: str
    headline: str
    start: str
    posts: tuple[tuple[str, str], ...]


# ======================================================================== English

ENG_CONCAT = [  # bolt-eng-DF-901.xml: concatenated, no declaration, attribute order author/datetime/id
    T("bolt-eng-DF-901-210001-7100001", "Cairo metro fares going up again?", "2023-02-20T09:12", (
        ("cairo_mike", "Heard from my office driver that the metro is going up. Anyone know the details? "
                       "I ride from Maadi to Sadat every day."),
        ("nile_expat", "[[m.price.eng|From 1 March a single ticket for up to 9 stations goes from 5 to 8 pounds]], "
                       "according to the announcement on the ministry page. "
                       "{A:http://transport.example.gov.eg/metro-fares|Here's the link}."),
        ("sandra_k", "That's a 60% jump. Ouch.\nIs it 10 for the longer trips?"),
        ("cairo_mike", "My colleague said it's going to 10 pounds flat for everyone. Who's right?"),
        ("nile_expat", "{Q:cairo_mike}\nMy colleague said it's going to 10 pounds flat for everyone.\n{/Q}\n"
                       "No, [[m.long.eng|the 10 pound ticket is only for trips longer than 16 stations]]. "
                       "The flat-fare thing was an old rumour from last year."),
        ("omar_in_maadi", "[[m.reason.eng|The ministry says the metro loses about 1.2 billion pounds a year because "
                          "of electricity and maintenance costs]], so they had to do something. Still, it hurts "
                          "people on daily wages."),
        ("sandra_k", "[[m.student.eng|Student subscriptions stay at the old price until the end of the school "
                     "year]], that's what the poster at Dokki station said."),
    )),
    T("bolt-eng-DF-901-210001-7100002", "Lumina X5 recall - is my phone affected?", "2023-04-03T18:40", (
        ("techgran", "Got an email from Lumina about a recall of the X5. My phone gets hot when charging. "
                     "How do I know if mine is one of them?"),
        ("circuit_sam", "[[r.batch.eng|Only X5 units with a serial number starting with LX5-22 are affected]]. "
                        "Look under Settings > About phone > Serial."),
        ("techgran", "Mine starts with LX5-23. Phew?"),
        ("circuit_sam", "{Q:techgran}\nMine starts with LX5-23. Phew?\n{/Q}\n"
                        "Yep, LX5-23 is the later batch with the new battery supplier."),
        ("batterybob", "[[r.cause.eng|Lumina says the battery cells from one supplier can swell and overheat when "
                       "charged above 80 percent]]. There were two small fires reported in Europe."),
        ("techgran", "What do they offer if it is one of the bad ones?"),
        ("circuit_sam", "[[r.remedy.eng|You can take it to any authorised service centre for a free replacement "
                        "phone or a full refund, until 30 June]]. Back up first, they keep the old device."),
        ("pro_user_22", "FWIW [[r.pro.eng|the X5 Pro uses a different battery and is not part of the recall]]. "
                        "Mine is fine & cool. {IMG:http://forums.example.com/images/emoticons/cool.gif}"),
    )),
    T("bolt-eng-DF-901-210001-7100003", "Weird text about a parcel held at customs", "2023-05-11T07:55", (
        ("jenny_w", "Got an SMS: \"Speedy Express: your parcel is held at customs, pay the 2.99 fee here\" with a "
                    "link. I am expecting a parcel though... legit?"),
        ("scamwatch", "[[s.sms.eng|It's a scam. The text says your parcel is on hold and asks for a small customs or "
                      "redelivery fee of a few dollars]]. The fee is tiny so people don't think twice."),
        ("jenny_w", "But the link looks like speedy-express..."),
        ("scamwatch", "{Q:jenny_w}\n{Q:scamwatch}\nIt's a scam.\n{/Q}\nBut the link looks like speedy-express...\n"
                      "{/Q}\n[[s.link.eng|The link goes to a copy of the courier's website that asks for your card "
                      "number and the code the bank sends you]]. "
                      "{A:http://speedy-express-delivery.example.net/pay|speedy-express-delivery.example.net} "
                      "is not the real domain."),
        ("dad_of_three", "My neighbour lost 400 dollars this way. [[s.todo.eng|If you entered your card, call your "
                         "bank right away and block the card]]."),
        ("jenny_w", "Thanks all, deleted it. {IMG:images/emoticons/thumbsup.gif}"),
        ("courier_insider", "I work in logistics. [[s.real.eng|Speedy Express never asks for payment by text message; "
                            "customs fees are paid at the door or in the official app]]."),
    )),
    T("bolt-eng-DF-901-210002-7100004", "Sugar in tomato and egg stir fry??", "2023-03-02T20:05", (
        ("wokstar", "My Chinese roommate put sugar in the tomato egg stir fry and I almost fainted. Is that normal?"),
        ("shanghai_dave", "[[t.region.eng|In Shanghai and the south people add sugar, up north most people use salt "
                          "only]]. Both are \"correct\" haha."),
        ("wokstar", "Why though?"),
        ("shanghai_dave", "[[t.acid.eng|A bit of sugar takes the sour edge off the tomatoes]], especially winter "
                          "tomatoes which are sour and hard."),
        ("beijing_lily", "As a northerner: [[t.oppose.eng|it's a dish, not a dessert. Sweet eggs are wrong]]. lol"),
        ("wokstar", "{Q:beijing_lily}\nit's a dish, not a dessert\n{/Q}\nHaha this is going to be a flame war."),
        ("neutral_nancy", "[[t.pinch.eng|Just use half a teaspoon, you can't taste it as sweet but the sauce gets "
                          "rounder]]. Peace & love."),
    )),
    T("bolt-eng-DF-901-210002-7100005", "Exam leak in Egypt again", "2023-06-19T13:30", (
        ("teacher_abroad", "My nephew in Cairo says the physics exam of the Thanaweya Amma was all over Telegram "
                           "before it ended. Anybody following this?"),
        ("cairo_mum", "[[x.leak.eng|The physics paper was posted on a Telegram channel about half an hour after the "
                      "exam started]], with the answers a bit later."),
        ("teacher_abroad", "Are they going to redo it?"),
        ("cairo_mum", "[[x.redo.eng|The ministry says the physics exam will be held again on 3 July for all "
                      "students]]. Kids are furious."),
        ("realist99", "Last year it was the Arabic exam in Alexandria, and they never repeated that one."),
        ("cairo_mum", "[[x.arrest.eng|Police arrested four people, including a teacher and an exam supervisor in "
                      "Sohag]]."),
        ("teacher_abroad", "Four people cheat and half a million students pay. Sad."),
    )),
    T("bolt-eng-DF-901-210003-7100006", "Omar Fathy to China? confirmed?", "2023-01-14T22:10", (
        ("footy_fan", "Saw on twitter that Omar Fathy signed for a Chinese club. Real?"),
        ("africa_scout", "Yes, Shanghai Harbour. English sources only say the fee is \"eight figures\"."),
        ("footy_fan", "Isn't he the one who went to Saudi?"),
        ("africa_scout", "No, that's Omar Fawzy, the winger, who joined Al Nakheel for 5 million. Different guy."),
        ("gooner_eg", "Fathy scored 19 goals last season, he'll do fine over there."),
        ("footy_fan", "The Chinese league pays crazy money. Good for him I guess."),
    )),
    T("bolt-eng-DF-901-210003-7100007", "Moving to Shanghai - tips?", "2023-02-08T11:00", (
        ("newbie_lara", "Moving to Shanghai for work in April. Visa, phone, metro, anything I should know?"),
        ("shanghai_dave", "Get the work visa sorted before you fly, there's no visa on arrival for that."),
        ("newbie_lara", "And the metro? Is it expensive?"),
        ("shanghai_dave", "Cheap, 3 to 10 yuan a ride. Way better than the Cairo metro I used years ago."),
        ("expat_jo", "Install the payment apps before you arrive & link a card, cash is rare now."),
        ("newbie_lara", "Thanks! <3"),
    )),
    T("bolt-eng-DF-901-210003-7100008", "Giza power cuts schedule", "2023-07-25T16:45", (
        ("dokki_dan", "Power went off again in Dokki for two hours. Is there a schedule?"),
        ("nile_expat", "The electricity company posts the load-shedding hours on their page, usually 2 hours a day."),
        ("dokki_dan", "Two hours in July with no AC is brutal."),
        ("sandra_k", "Buy a small UPS for the router at least."),
        ("dokki_dan", "Good idea. And the water pump needs power too, so no water upstairs either."),
    )),
]

ENG_SINGLE = [  # ENG_DF_*.xml: one thread per file, XML declaration, attribute order id/author/datetime
    T("ENG_DF_000902_20230301_G00A0B001", "Visa on arrival in Egypt for a Chinese tour group", "2023-03-01T08:20", (
        ("tourleader_ken", "Bringing a group of Chinese tourists to Egypt in May. Can they get the visa at the "
                           "airport?"),
        ("luxor_guide", "Last time I checked it was 20 dollars, but that was before Covid."),
        ("tourleader_ken", "Do they need anything else?"),
        ("luxor_guide", "Better ask the embassy, rules changed a few times."),
        ("redsea_rick", "Hurghada airport was doing it for my Chinese guests last winter, no issues."),
    )),
    T("ENG_DF_000902_20230405_G00A0B002", "Anyone got the Lumina X5 replacement yet?", "2023-04-05T12:00", (
        ("techgran", "Went to the service centre in the mall with my LX5-22 phone. Took 40 minutes."),
        ("circuit_sam", "Did you take the refund or the new phone?"),
        ("techgran", "New phone. It's the same model with the new battery."),
        ("batterybob", "Good. Remember the deadline, don't leave it in a drawer."),
        ("pro_user_22", "Mine's a Pro so nothing to do. Still gets warm when gaming though."),
    )),
    T("ENG_DF_000902_20230520_G00A0B003", "Parcel scam round 2: now on WhatsApp", "2023-05-20T19:25", (
        ("scamwatch", "Same parcel trick, now on WhatsApp with a fake courier logo. Don't click."),
        ("jenny_w", "My mum got one in Arabic from \"Nile Express\"."),
        ("scamwatch", "{Q}\nfrom \"Nile Express\"\n{/Q}\nYes, the Egyptian version asks for 35 pounds."),
        ("dad_of_three", "Report the number to the bank's fraud line & to WhatsApp."),
        ("jenny_w", "Done. Thanks."),
    )),
    T("ENG_DF_000902_20230610_G00A0B004", "Cairo metro vs Shanghai metro", "2023-06-10T10:10", (
        ("shanghai_dave", "Funny comparison: Shanghai metro is 3 yuan for short rides, Cairo just went to 8 pounds."),
        ("cairo_mike", "Still cheaper in Cairo in dollars though."),
        ("shanghai_dave", "Sure, but try getting on line 1 at Sadat at 8 am."),
        ("omar_in_maadi", "Line 3 is nicer, the new trains have AC."),
        ("cairo_mike", "Agreed, line 3 is the best one."),
    )),
    T("ENG_DF_000902_20230715_G00A0B005", "Water outage in Dokki this Friday?", "2023-07-15T21:00", (
        ("dokki_dan", "Someone in my building says no water Saturday. Anyone know?"),
        ("nile_expat", "I heard Friday, not Saturday, check the Arabic groups, they have the details."),
        ("dokki_dan", "Fill the bathtub just in case I guess."),
        ("sandra_k", "Buy bottled water today, the shops run out."),
        ("dokki_dan", "Will do."),
    )),
    T("ENG_DF_000902_20230118_G00A0B006", "Koshari at home & the vinegar question", "2023-01-18T14:35", (
        ("foodie_amr", "Making koshari at home: rice, lentils & pasta, then the tomato sauce and the da'a."),
        ("wokstar", "What goes in the da'a?"),
        ("foodie_amr", "Garlic, vinegar, cumin and water. Add the vinegar \u0096 not too much \u0096 at the end."),
        ("cairo_mike", "Abou Tarek puts more chili, fight me."),
        ("foodie_amr", "Ha. Fried onions on top are the real secret."),
    )),
    T("ENG_DF_000902_20230625_G00A0B007", "Is the Thanaweya Amma system worth it?", "2023-06-25T17:50", (
        ("teacher_abroad", "One exam decides which university you enter. Is that fair?"),
        ("realist99", "It's fair on paper, but private lessons decide everything."),
        ("cairo_mum", "And leaks. This year it was physics."),
        ("teacher_abroad", "Other countries use continuous assessment. Egypt should too."),
        ("realist99", "Good luck changing that."),
    )),
    T("ENG_DF_000902_20230805_G00A0B008", "Nile Stars FC new season kits", "2023-08-05T09:00", (
        ("gooner_eg", "Nile Stars released the new home kit, blue with a gold stripe."),
        ("footy_fan", "Who wears number 9 now that Fathy left?"),
        ("gooner_eg", "Nobody yet. The coach is trying the youngster from the academy."),
        ("africa_scout", "They really need a striker before the league starts."),
        ("footy_fan", "Kit is nice though."),
    )),
]
CRLF_IDS = {"ARZ_DF_000904_20230222_A00B0C001"}  # rendered with CRLF line ends (offsets count the \r)

# ======================================================================== Egyptian Arabic

ARZ_CONCAT = [  # bolt-arz-DF-903.xml.gz: concatenated and gzip-compressed
    T("bolt-arz-DF-903-310001-8200001", "التذكرة هتبقى بكام يا جماعة؟", "2023-02-19T20:30", (
        ("حمادة_المصري", "حد يعرف تذكرة المترو هتبقى بكام من الشهر الجاي؟ سامع كلام كتير ومش فاهم حاجة"),
        ("ام_يوسف", "[[m.price.arz|التذكرة لحد 9 محطات بقت ب 8 جنيه بدل 5 من أول مارس]] ، الوزارة نزلت البيان امبارح"),
        ("كابتن_شريف", "بجد؟ ده احنا لسه ماخدناش على ال 5 جنيه"),
        ("حمادة_المصري", "{Q:ام_يوسف}\nالتذكرة لحد 9 محطات بقت ب 8 جنيه بدل 5\n{/Q}\nطب واللي بيركب من حلوان للمرج؟"),
        ("ام_يوسف", "[[m.long.arz|اللي فوق 16 محطة هيدفع 10 جنيه]]"),
        ("ابو_مالك", "[[m.effect.arz|انا بروح الشغل وبرجع كل يوم يعني 16 جنيه في اليوم، كده هركب ميكروباص أرخص]]"),
        ("كابتن_شريف", "ربنا يستر، مفيش حاجة بترخص في البلد دي"),
    )),
    T("bolt-arz-DF-903-310001-8200002", "عمر فتحي رايح الصين!!", "2023-01-13T23:05", (
        ("نجماوي_أصلي", "خلاص عمر فتحي مضى لنادي شنغهاي هاربور الصيني، مش مصدق"),
        ("كورة_نيوز", "[[f.fee.arz|الصفقة ب 12 مليون دولار]] و[[f.years.arz|عقده 3 سنين]] حسب المركز الإعلامي للنادي"),
        ("نجماوي_أصلي", "[[f.angry.arz|يبيعوه قبل كاس أفريقيا بشهرين؟ ده هداف الفرقة]]"),
        ("ابو_حميد", "{Q:كورة_نيوز}\nالصفقة ب 12 مليون دولار\n{/Q}\nفي ناس بتقول 20 مليون، مين الصح؟"),
        ("كورة_نيوز", "ال 20 مليون دي كانت إشاعة من الصيف اللي فات، الرقم الرسمي 12"),
        ("تيتو", "[[f.money.arz|الإدارة باعت أحسن لاعب عشان الفلوس وخلاص، مش فارق معاهم البطولة]]"),
        ("نجماوي_أصلي", "[[f.promise.arz|وهو اللي كان قايل في الفيديو إنه مش هيسيب النادي غير لأوروبا]] ، بجد خذلنا"),
    )),
    T("bolt-arz-DF-903-310002-8200003", "قطع المياه في الدقي يوم الجمعة", "2023-07-16T10:00", (
        ("سكان_الدقي", "حد عارف المية هتتقطع امتى بالظبط؟ عايزين نستعد"),
        ("مهندس_حسام", "[[w.time.arz|المية هتتقطع يوم الجمعة من 9 الصبح لمدة 18 ساعة]]"),
        ("ام_ندى", "[[w.areas.arz|القطع في الدقي والمهندسين والعجوزة]] ، وبولاق كمان؟"),
        ("مهندس_حسام", "لأ بولاق مش معاهم المرة دي"),
        ("مهندس_حسام", "[[w.reason.arz|السبب تصليح الماسورة الرئيسية في شارع التحرير]]"),
        ("ام_ندى", "يارب مايطولوش زي المرة اللي فاتت في الهرم، قعدنا يومين من غير مية"),
        ("سكان_الدقي", "[[w.tanker.arz|الشركة قالت هيبقى فيه عربيات مية، واللي محتاج حاجة يكلم 125]]"),
    )),
    T("bolt-arz-DF-903-310002-8200004", "تسريب امتحان الفيزيا", "2023-06-18T12:40", (
        ("طالب_ثانوية", "الامتحان اتسرب على تليجرام والله، الناس كلها معاها الأسئلة"),
        ("ام_احمد", "[[x.leak.arz|الامتحان نزل على قناة تليجرام بعد نص ساعة من بداية اللجنة]]"),
        ("طالب_ثانوية", "طب هيعيدوه؟"),
        ("ام_احمد", "[[x.redo.arz|الوزارة قالت إن امتحان الفيزيا هيتعاد يوم 3 يوليو لكل الطلبة]]"),
        ("مستر_سامح", "[[x.unfair.arz|ده ظلم للي ذاكر وتعب، ليه ندفع تمن غلطة الوزارة]]"),
        ("طالب_ثانوية", "{Q:مستر_سامح}\nده ظلم للي ذاكر وتعب\n{/Q}\nبالظبط، انا ماكنتش بنام طول الأسبوع"),
    )),
    T("bolt-arz-DF-903-310003-8200005", "زحمة المترو الصبح", "2023-01-09T08:15", (
        ("حمادة_المصري", "الخط الأول الصبح بقى مستحيل، الناس فوق بعض"),
        ("كابتن_شريف", "والتذكرة ب 5 جنيه ومفيش تكييف، على الأقل يصلحوا التكييف"),
        ("ابو_مالك", "الخط التالت أحسن بكتير"),
        ("حمادة_المصري", "بس مش بيوصل عندي"),
        ("كابتن_شريف", "ربنا يعين الكل"),
    )),
    T("bolt-arz-DF-903-310003-8200006", "أحسن كشري في وسط البلد", "2023-01-20T15:00", (
        ("اكيل_مصري", "مين أحسن كشري في وسط البلد؟ أبو طارق ولا التحرير؟"),
        ("بنت_البلد", "أبو طارق طبعا، الدقة بتاعته حكاية"),
        ("اكيل_مصري", "التحرير أرخص & أسرع"),
        ("ابو_حميد", "الاتنين حلوين بس الزحمة عند أبو طارق مش طبيعية"),
        ("بنت_البلد", "خلاص نعمل خروجة ونجرب الاتنين {IMG:images/smilies/yum.gif}"),
    )),
]

ARZ_SINGLE = [
    T("ARZ_DF_000904_20230222_A00B0C001", "اشتراكات الطلبة في المترو بعد الزيادة", "2023-02-22T16:10", (
        ("طالبة_هندسة", "هو اشتراك الطلبة هيزيد هو كمان؟ انا بدفع 150 في الشهر"),
        ("محمود_ع", "[[m.student.arz|لا اشتراك الطلبة زي ما هو لحد آخر السنة الدراسية]] ، اتأكدت من الشباك في محطة السادات"),
        ("طالبة_هندسة", "الحمد لله، انا كنت فاكرة هيبقى 250"),
        ("نادر2000", "[[m.reason.arz|الوزير قال إن المترو بيخسر حوالي 1.2 مليار جنيه في السنة عشان الكهربا والصيانة]]، بس احنا مالنا"),
        ("محمود_ع", "{Q:نادر2000}\nالوزير قال إن المترو بيخسر\n{/Q}\nكل سنة نفس الكلام يا عم، المهم يصلحوا التكييف"),
        ("رضوى", "[[m.effect2.arz|الموظفين الغلابة هما اللي هيدفعوا التمن، جوزي هيصرف 300 جنيه زيادة في الشهر على المواصلات]]"),
    )),
    T("ARZ_DF_000904_20230115_A00B0C002", "رأيكم في بيع عمر فتحي", "2023-01-15T19:45", (
        ("واقعي_جدا", "انا شايف إن ده حقه، عمر اللاعب في الكورة قصير"),
        ("نجماوي_أصلي", "{Q:واقعي_جدا}\n{Q}\nخلاص عمر فتحي مضى\n{/Q}\nانا شايف إن ده حقه\n{/Q}\nحقه آه بس مش قبل البطولة"),
        ("ابو_حميد", "عمر فوزي راح السعودية ب 5 مليون بس والناس ماقالتش حاجة"),
        ("تيتو", "[[f.angry2.arz|المشكلة في التوقيت، كاس أفريقيا بعد شهرين ومفيش بديل]]"),
        ("واقعي_جدا", "بجد مفيش مهاجم في الدكة خالص؟"),
        ("تيتو", "ولا واحد، الناشئين لسه صغيرين"),
    )),
    T("ARZ_DF_000904_20230110_A00B0C003", "المية قاطعة في الهرم", "2023-01-10T07:30", (
        ("ساكن_الهرم", "المية قاطعة من امبارح في الهرم، حد عنده فكرة هترجع امتى؟"),
        ("ام_ندى", "قالوا كسر في ماسورة في شارع الهرم وهتاخد 24 ساعة"),
        ("ساكن_الهرم", "24 ساعة إيه، احنا داخلين على اليوم التاني"),
        ("مهندس_حسام", "الشركة بعتت عربيات مية عند الميدان"),
        ("ساكن_الهرم", "رجعت اخيرا الحمد لله"),
    )),
    T("ARZ_DF_000904_20230620_A00B0C004", "القبض على اللي سربوا الامتحان", "2023-06-20T21:15", (
        ("متابع_الأخبار", "[[x.arrest.arz|القبض على 4 منهم مدرس ومراقب في سوهاج]]"),
        ("طالب_ثانوية", "4 بس؟ دي شبكة كبيرة"),
        ("ابو_ياسين", "[[x.ministry.arz|الوزارة دي فاشلة، كل سنة تسريب ومحدش بيتحاسب]]"),
        ("متابع_الأخبار", "[[x.jammer.arz|الوزير قال السنة الجاية هيبقى فيه أجهزة تشويش في كل اللجان]]"),
        ("ابو_ياسين", "{Q:متابع_الأخبار}\nأجهزة تشويش في كل اللجان\n{/Q}\nتشويش إيه بس، هما اللي بيسربوا من جوه"),
    )),
    T("ARZ_DF_000904_20230512_A00B0C005", "رسالة من نايل إكسبريس عايزين فلوس جمارك", "2023-05-12T13:20", (
        ("ام_كريم", "جالي رسالة واتساب إن الشحنة بتاعتي متعطلة في الجمارك وعايزين 35 جنيه، ده نصب؟"),
        ("خبير_نت", "[[s.sms.arz|أيوه نصب، بيبعتوا إن الطرد متعطل وعايزين رسوم صغيرة عشان محدش يشك]]"),
        ("خبير_نت", "[[s.link.arz|اللينك بيفتح صفحة شبه الشركة وبيطلب رقم الكارت والكود اللي بيجيلك من البنك]]"),
        ("ابو_حميد", "[[s.todo.arz|لو دخلت بيانات الكارت كلم البنك فورا واقفل الكارت]]"),
        ("ام_كريم", "شكرا يا جماعة، مسحتها وعملت بلوك"),
    )),
    T("ARZ_DF_000904_20230301_A00B0C006", "الفيزا للصينيين في المطار", "2023-03-01T11:00", (
        ("مرشد_سياحي", "حد يعرف الصينيين بياخدوا الفيزا من المطار ولا لازم قبلها؟ عندي جروب جاي الأسبوع الجاي"),
        ("شريف_الأقصر", "[[v.fee.arz|من المطار عادي والرسوم 25 دولار]]"),
        ("شريف_الأقصر", "[[v.docs.arz|بس لازم يكون معاهم حجز فندق وتذكرة رجوع، وإلا يرجعوهم]]"),
        ("سما_الغردقة", "{Q:مرشد_سياحي}\nبياخدوا الفيزا من المطار\n{/Q}\n[[v.airports.arz|من القاهرة والغردقة وبس]]، شرم لسه"),
        ("مرشد_سياحي", "تمام شكرا يا جماعة"),
    )),
    T("ARZ_DF_000904_20230404_A00B0C007", "موبايل لومينا X5 بيسخن", "2023-04-04T22:00", (
        ("عاشق_التكنولوجيا", "الموبايل بتاعي لومينا X5 بيسخن جامد وانا بشحنه، سمعت إن فيه استدعاء"),
        ("فني_موبايلات", "[[r.batch.arz|لو السيريال بيبدأ ب LX5-22 يبقى من الدفعة اللي فيها المشكلة]]"),
        ("فني_موبايلات", "[[r.remedy.arz|روح أي مركز صيانة معتمد هيغيرولك الجهاز ببلاش أو ترجع فلوسك]]"),
        ("عاشق_التكنولوجيا", "طب وال X5 Pro؟ اخويا عنده واحد"),
        ("فني_موبايلات", "البرو مالوش دعوة متقلقش"),
    )),
    T("ARZ_DF_000904_20230125_A00B0C008", "عمر فوزي في السعودية", "2023-01-25T18:00", (
        ("ابو_حميد", "عمر فوزي لعب أول ماتش مع النخيل وعمل أسيست"),
        ("واقعي_جدا", "الجناح ده سريع بجد"),
        ("تيتو", "5 مليون صفقة كويسة ليهم"),
        ("ابو_حميد", "وعقده سنتين بس"),
        ("واقعي_جدا", "ربنا يوفقه"),
    )),
    T("ARZ_DF_000904_20230726_A00B0C009", "الكهربا بتقطع كل يوم", "2023-07-26T15:30", (
        ("سكان_الدقي", "الكهربا بتقطع ساعتين كل يوم، حد عنده الجدول؟"),
        ("مهندس_حسام", "الجدول على صفحة شركة الكهربا {A:http://power.example.eg/schedule|هنا}"),
        ("ام_ندى", "والموتور بتاع المية بيقف معاها فمفيش مية في الدور العالي"),
        ("سكان_الدقي", "يعني مية وكهربا مع بعض، حلو اوي"),
        ("مهندس_حسام", "اصبروا لحد آخر الصيف"),
    )),
    T("ARZ_DF_000904_20230705_A00B0C010", "نتيجة الثانوية امتى؟", "2023-07-05T09:40", (
        ("طالب_ثانوية", "حد يعرف النتيجة هتطلع امتى بعد إعادة الفيزيا؟"),
        ("ام_احمد", "بيقولوا آخر يوليو"),
        ("مستر_سامح", "ركزوا في التنسيق دلوقتي"),
        ("طالب_ثانوية", "انا عايز هندسة بس خايف"),
        ("ام_احمد", "ربنا معاك يا حبيبي"),
    )),
]

# ======================================================================== Mandarin

CMN_CONCAT = [  # bolt-cmn-DF-905.xml: concatenated, no declaration
    T("bolt-cmn-DF-905-410001-9300001", "开罗地铁涨价了", "2023-02-21T19:00", (
        ("尼罗河畔", "在开罗的同学注意，地铁要涨价了。"),
        ("埃及小李", "[[m.price.cmn|从3月1日起，9站以内的单程票从5埃镑涨到8埃镑]]。"),
        ("沙漠玫瑰", "那我每个月的交通费要多不少了。[[m.effect.cmn|我每天坐地铁去爱资哈尔上课，一个月从150埃镑变成240埃镑左右]]。"),
        ("埃及小李", "{Q:沙漠玫瑰}\n一个月从150埃镑变成240埃镑左右\n{/Q}\n你可以办学生月票啊，[[m.student.cmn|学生月票这学年不涨价]]。"),
        ("尼罗河畔", "学生月票要当地学校的证明吧？我们外国学生能办吗？"),
        ("埃及小李", "可以，拿学校开的证明去萨达特站窗口办。"),
    )),
    T("bolt-cmn-DF-905-410001-9300002", "官宣：奥马尔·法特希加盟上海港湾", "2023-01-14T10:30", (
        ("港湾铁粉", "官宣了！埃及前锋奥马尔·法特希加盟上海港湾。"),
        ("足球小报", "[[f.fee.cmn|转会费1200万美元]]，[[f.years.cmn|合同三年]]。"),
        ("港湾铁粉", "[[f.why.cmn|队里主力中锋十字韧带断裂，整个赛季报销，急需补强]]。"),
        ("老张看球", "1200万美元？亚冠都没进，花这钱干嘛。"),
        ("足球小报", "{Q:老张看球}\n亚冠都没进\n{/Q}\n[[f.acl.cmn|俱乐部说引援是为了下赛季冲击亚冠]]，董事长亲口说的。"),
        ("港湾铁粉", "[[f.medical.cmn|他昨天已经在上海通过了体检]]，下周就能随队训练。"),
        ("老张看球", "希望别又是水货。"),
    )),
    T("bolt-cmn-DF-905-410002-9300003", "召回！Lumina X5电池过热", "2023-04-03T21:15", (
        ("数码控", "Lumina官方发布召回公告了，X5有电池过热风险。"),
        ("电池工程师", "[[r.cause.cmn|原因是一家供应商的电芯在充电超过80%时可能鼓包发热]]。"),
        ("数码控", "[[r.batch.cmn|只有序列号以LX5-22开头的机器在召回范围内]]。"),
        ("小白用户", "我的是X5 Pro，要不要去换？"),
        ("电池工程师", "[[r.pro.cmn|X5 Pro用的是另一家的电池，不在召回范围]]。"),
        ("数码控", "[[r.remedy.cmn|6月30日前可以到授权维修点免费换新机或者全额退款]]。"),
    )),
    T("bolt-cmn-DF-905-410002-9300004", "西红柿炒鸡蛋到底放不放糖", "2023-03-01T12:20", (
        ("吃货一枚", "今天和室友吵起来了，西红柿炒鸡蛋到底放不放糖？"),
        ("江南小厨", "[[t.region.cmn|我们南方都放糖，北方一般只放盐]]。"),
        ("北京大妞", "[[t.oppose.cmn|放糖还叫菜吗？这是菜不是甜点]]。"),
        ("江南小厨", "[[t.acid.cmn|放一点糖可以中和西红柿的酸味]]，冬天的西红柿特别酸。"),
        ("吃货一枚", "{Q:北京大妞}\n{Q:江南小厨}\n我们南方都放糖\n{/Q}\n这是菜不是甜点\n{/Q}\n哈哈哈，每年都要吵一次。"),
        ("厨房老王", "[[t.pinch.cmn|放半勺就够了，吃不出甜味，但味道更圆润]]。"),
    )),
    T("bolt-cmn-DF-905-410003-9300005", "快递短信诈骗，大家小心", "2023-05-10T08:45", (
        ("谨慎的猫", "收到短信说我的快递因地址不详被扣留，要付2.99元重新派送费，还附了个链接。"),
        ("反诈先锋", "[[s.sms.cmn|这是诈骗，短信说包裹被扣，要你付几块钱的手续费]]。"),
        ("反诈先锋", "[[s.link.cmn|链接打开是假冒的快递网站，会让你填银行卡号和验证码]]。"),
        ("快递小哥", "[[s.real.cmn|正规快递公司从来不会用短信让你付费]]。"),
        ("谨慎的猫", "我妈差点就填了，幸好问了我。"),
    )),
    T("bolt-cmn-DF-905-410003-9300006", "埃及落地签攻略", "2023-02-27T16:00", (
        ("背包客阿杰", "下个月去埃及，听说中国护照可以落地签？"),
        ("金字塔下", "[[v.fee.cmn|可以，落地签25美元，现金支付]]。"),
        ("金字塔下", "[[v.docs.cmn|入境时要出示酒店预订和返程机票]]。"),
        ("红海潜水", "[[v.passport.cmn|护照有效期要六个月以上]]。"),
        ("背包客阿杰", "以前不是20美元吗？"),
        ("金字塔下", "{Q:背包客阿杰}\n以前不是20美元吗？\n{/Q}\n那是老黄历了，现在是25。"),
    )),
    T("bolt-cmn-DF-905-410004-9300007", "上海地铁票价问题", "2023-06-11T09:30", (
        ("申城通勤", "上海地铁起步价3元，最远多少钱？"),
        ("地铁迷", "按里程算，最贵的好像是15元。"),
        ("申城通勤", "那开罗地铁呢？听说很便宜。"),
        ("地铁迷", "不清楚，好像几埃镑吧。"),
        ("申城通勤", "好的谢谢。"),
    )),
]

CMN_SINGLE = [
    T("CMN_DF_000906_20230116_F0000D001", "法特希到底怎么样", "2023-01-16T20:10", (
        ("港湾铁粉", "有没有人看过法特希踢球？"),
        ("球探老刘", "[[f.scout.cmn|主教练去年在迪拜的热身赛上亲眼看过他，据说当场就点名要他]]。"),
        ("老张看球", "上赛季埃及联赛19个进球，效率还可以。"),
        ("球探老刘", "别和那个奥马尔·法齐搞混了，法齐是边锋，去了沙特。"),
        ("足球小报", "[[f.fee2.cmn|网上说2000万美元的是去年夏天的假消息，实际是1200万美元]]。"),
    )),
    T("CMN_DF_000906_20230410_F0000D002", "X5召回换机经历", "2023-04-10T14:00", (
        ("小白用户", "今天去维修点换了机，排队一个小时。"),
        ("数码控", "给的是新机还是翻新机？"),
        ("小白用户", "新机，包装都没拆过。"),
        ("电池工程师", "记得先备份，旧机他们要收走的。"),
        ("小白用户", "嗯，已经备份了 &lt;3"),
    )),
    T("CMN_DF_000906_20230305_F0000D003", "番茄炒蛋放糖派 vs 放盐派", "2023-03-05T18:30", (
        ("吃货一枚", "投票：放糖还是放盐？"),
        ("北京大妞", "放盐！甜的没法下饭。"),
        ("江南小厨", "放糖！不接受反驳。"),
        ("厨房老王", "都放，先放盐后放一点糖。"),
        ("吃货一枚", "看来还是要看地区 {IMG:images/smilies/laugh.gif}"),
    )),
    T("CMN_DF_000906_20230302_F0000D004", "埃及哪些机场可以办落地签", "2023-03-02T07:50", (
        ("背包客阿杰", "赫尔格达可以落地签吗？"),
        ("红海潜水", "[[v.airports.cmn|目前只有开罗和赫尔格达机场可以办落地签]]，沙姆沙伊赫还不行。"),
        ("背包客阿杰", "好的，那我从开罗入境。"),
        ("金字塔下", "记得带好美元现金。"),
        ("背包客阿杰", "谢谢各位！"),
    )),
    T("CMN_DF_000906_20230915_F0000D005", "在开罗留学的生活", "2023-09-15T21:00", (
        ("沙漠玫瑰", "来开罗一年了，分享一下生活。"),
        ("尼罗河畔", "最不习惯的是什么？"),
        ("沙漠玫瑰", "交通，还有夏天停电停水。"),
        ("埃及小李", "停水那次整整一天，只能买桶装水。"),
        ("沙漠玫瑰", "不过人都很热情。"),
    )),
    T("CMN_DF_000906_20230801_F0000D006", "港湾队新赛季球衣", "2023-08-01T10:00", (
        ("港湾铁粉", "新球衣发布了，红白配色。"),
        ("老张看球", "法特希穿几号？"),
        ("港湾铁粉", "9号。"),
        ("足球小报", "球衣&amp;围巾下周开卖。"),
        ("老张看球", "买一件支持一下。"),
    )),
    T("CMN_DF_000906_20230505_F0000D007", "手机充电发烫正常吗", "2023-05-05T23:10", (
        ("夜猫子", "我的手机充电的时候很烫，正常吗？"),
        ("电池工程师", "什么型号？如果是Lumina X5要看一下序列号。"),
        ("夜猫子", "不是，是别的牌子。"),
        ("电池工程师", "那边充边玩游戏发烫是正常的，别盖着被子充电。"),
        ("夜猫子", "明白了。"),
    )),
    T("CMN_DF_000906_20230608_F0000D008", "高考泄题传闻是真的吗", "2023-06-08T15:00", (
        ("高三家长", "网上说今年高考数学泄题了，是真的吗？"),
        ("教育观察", "官方已经辟谣了，是假消息。"),
        ("高三家长", "吓死我了。"),
        ("教育观察", "倒是埃及那边今年物理考试真的泄题了，要重考。"),
        ("高三家长", "那边的学生太惨了。"),
    )),
    T("CMN_DF_000906_20230716_F0000D009", "开罗周五要停水？", "2023-07-16T18:40", (
        ("尼罗河畔", "楼下保安说周五停水，有人知道吗？"),
        ("埃及小李", "好像是多基那一片，具体看阿拉伯语的群。"),
        ("沙漠玫瑰", "提前接好水吧。"),
        ("尼罗河畔", "好的，谢谢。"),
        ("埃及小李", "买点桶装水备用。"),
    )),
]

# ======================================================================== topics

P = TopicProperties


def F(fid, importance, desc, keys, votes):
    """A facet as written: its nugget keys and four assessors' votes (v = vital, o = okay)."""
    return (fid, importance, desc, keys, votes)


TOPICS = [
    ("1.001", "What are the new Cairo Metro ticket prices?",
     "The user rides the Cairo Metro and wants the new fares: what a ticket costs now, for short and long "
     "trips, and whether student subscriptions change.",
     P("event", "information-about", frozenset({"eng", "arz", "cmn"}), True),
     [F("1", "vital", "A ticket for up to 9 stations rises from 5 to 8 pounds from 1 March.",
        ["m.price.eng", "m.price.arz", "m.price.cmn"], "vvvv"),
      F("2", "vital", "Trips longer than 16 stations cost 10 pounds.", ["m.long.eng", "m.long.arz"], "vvvo"),
      F("3", "okay", "Student subscriptions keep their old price this school year.",
        ["m.student.eng", "m.student.arz", "m.student.cmn"], "ovoo")],
     "Outdated prices (5 pounds) or the rumoured flat 10-pound fare do not count."),
    ("1.002", "Why were Cairo Metro fares raised and how does the rise affect commuters?",
     "The user wants the official reason for the fare rise and what it means for people who ride every day.",
     P("event", "effects", frozenset({"eng", "arz", "cmn"}), True),
     [F("1", "vital", "The ministry cites losses of about 1.2 billion pounds a year (electricity, maintenance).",
        ["m.reason.eng", "m.reason.arz"], "vvvv"),
      F("2", "vital", "Daily commuters pay much more and some switch to cheaper microbuses.",
        ["m.effect.arz"], "vvov"),
      F("3", "okay", "A worker's family expects to spend about 300 pounds more a month on transport.",
        ["m.effect2.arz"], "oovo"),
      F("4", "okay", "A foreign student's monthly metro cost rises from about 150 to 240 pounds.",
        ["m.effect.cmn"], "oooo")],
     None),
    ("1.003", "What are the terms of Omar Fathy's transfer to Shanghai Harbour?",
     "The user follows Egyptian football and wants the fee, contract length and status of the striker's move.",
     P("person", "information-about", frozenset({"arz", "cmn"}), True),
     [F("1", "vital", "The fee is 12 million dollars (the 20 million figure was a rumour).",
        ["f.fee.arz", "f.fee.cmn", "f.fee2.cmn"], "vvvv"),
      F("2", "vital", "The contract runs for three years.", ["f.years.arz", "f.years.cmn"], "vvov"),
      F("3", "okay", "He passed the medical in Shanghai.", ["f.medical.cmn"], "oooo")],
     "Omar Fawzy's move to Saudi Arabia is a different player and does not count."),
    ("1.004", "Why are Nile Stars FC fans angry about Omar Fathy's sale?",
     "The user wants the reasons fans give for opposing the sale of their striker.",
     P("person", "reasons", frozenset({"arz"}), True),
     [F("1", "vital", "He was sold two months before the Africa Cup with no replacement.",
        ["f.angry.arz", "f.angry2.arz"], "vvvv"),
      F("2", "vital", "The board sold the best player for money and does not care about titles.",
        ["f.money.arz"], "vvov"),
      F("3", "okay", "He had promised to leave only for a European club.", ["f.promise.arz"], "ooov")],
     None),
    ("1.005", "Which Lumina X5 phones are being recalled and what should owners do?",
     "The user owns a Lumina phone and wants to know whether it is affected, why, and what remedy is offered.",
     P("organization", "information-about", frozenset({"eng", "arz", "cmn"}), True),
     [F("1", "vital", "Cells from one battery supplier can swell and overheat when charged above 80 percent.",
        ["r.cause.eng", "r.cause.cmn"], "vvvo"),
      F("2", "vital", "Only X5 phones whose serial number starts with LX5-22 are affected.",
        ["r.batch.eng", "r.batch.cmn", "r.batch.arz"], "vvvv"),
      F("3", "vital", "Authorised service centres replace the phone or refund it free of charge until 30 June.",
        ["r.remedy.eng", "r.remedy.cmn", "r.remedy.arz"], "vvvv"),
      F("4", "okay", "The X5 Pro uses another battery and is not recalled.", ["r.pro.eng", "r.pro.cmn"], "oovo")],
     None),
    ("1.006", "When and where will the water be cut in Giza, and why?",
     "The user lives in Giza and wants the time, duration, areas and reason of the announced water cut.",
     P("event", "information-about", frozenset({"arz"}), False),
     [F("1", "vital", "Water is cut on Friday from 9 am for 18 hours.", ["w.time.arz"], "vvvv"),
      F("2", "vital", "The cut covers Dokki, Mohandessin and Agouza.", ["w.areas.arz"], "vvvv"),
      F("3", "okay", "The reason is the repair of the main pipe on Tahrir Street.", ["w.reason.arz"], "vooo"),
      F("4", "okay", "Water tankers are provided and the hotline is 125.", ["w.tanker.arz"], "oooo")],
     "The January water cut in Haram is a different event."),
    ("1.007", "What do people think about putting sugar in tomato and egg stir-fry?",
     "The user wants the opinions people hold in the sugar-or-salt dispute over tomato and egg stir-fry.",
     P("abstract-entity", "statements/opinions", frozenset({"eng", "cmn"}), True),
     [F("1", "vital", "Southerners (e.g. Shanghai) add sugar, northerners use salt.",
        ["t.region.eng", "t.region.cmn"], "vvvv"),
      F("2", "vital", "A little sugar balances the sourness of the tomatoes.", ["t.acid.eng", "t.acid.cmn"], "vvov"),
      F("3", "okay", "Opponents say it is a dish, not a dessert.", ["t.oppose.eng", "t.oppose.cmn"], "oovo"),
      F("4", "okay", "A compromise: only a pinch (half a spoon) of sugar.", ["t.pinch.eng", "t.pinch.cmn"], "oooo")],
     None),
    ("1.008", "How was the Thanaweya Amma physics exam leaked and what happened afterwards?",
     "The user wants how the exam leaked and what the authorities did about it.",
     P("event", "information-about", frozenset({"eng", "arz"}), True),
     [F("1", "vital", "The paper appeared on a Telegram channel about 30 minutes after the exam started.",
        ["x.leak.eng", "x.leak.arz"], "vvvv"),
      F("2", "vital", "The physics exam is repeated on 3 July for all students.",
        ["x.redo.eng", "x.redo.arz"], "vvvv"),
      F("3", "vital", "Four people, including a teacher and a supervisor in Sohag, were arrested.",
        ["x.arrest.eng", "x.arrest.arz"], "vvvo")],
     "Last year's Arabic exam leak in Alexandria and the Chinese gaokao rumour do not count."),
    ("1.009", "What do Egyptians say about the Ministry of Education's handling of the exam leak?",
     "The user wants opinions and statements about the ministry after the physics exam leak.",
     P("organization", "statements/opinions", frozenset({"arz"}), True),
     [F("1", "vital", "Repeating the exam is unfair to students who studied.", ["x.unfair.arz"], "vvvv"),
      F("2", "vital", "The ministry fails every year and nobody is held accountable.", ["x.ministry.arz"], "vvov"),
      F("3", "okay", "The minister promised signal jammers in every exam hall next year.",
        ["x.jammer.arz"], "ovoo")],
     None),
    ("1.010", "How does the fake parcel delivery message scam work?",
     "The user received a message about a held parcel and wants to know how the scam works and what to do.",
     P("abstract-entity", "information-about", frozenset({"eng", "arz", "cmn"}), True),
     [F("1", "vital", "A message says a parcel is held and asks for a small customs or delivery fee.",
        ["s.sms.eng", "s.sms.arz", "s.sms.cmn"], "vvvv"),
      F("2", "vital", "The link leads to a fake courier site that takes card numbers and bank codes.",
        ["s.link.eng", "s.link.arz", "s.link.cmn"], "vvvv"),
      F("3", "okay", "Victims should call their bank and block the card.", ["s.todo.eng", "s.todo.arz"], "ovoo"),
      F("4", "okay", "Real couriers never ask for payment by text message.", ["s.real.eng", "s.real.cmn"], "oooo")],
     None),
    ("1.011", "What do Chinese tourists need for an Egyptian visa on arrival?",
     "The user travels to Egypt on a Chinese passport and wants the visa-on-arrival fee, documents and airports.",
     P("location", "information-about", frozenset({"arz", "cmn"}), True),
     [F("1", "vital", "The visa on arrival costs 25 dollars.", ["v.fee.arz", "v.fee.cmn"], "vvvv"),
      F("2", "vital", "A hotel booking and a return ticket must be shown.", ["v.docs.arz", "v.docs.cmn"], "vvvo"),
      F("3", "okay", "The passport must be valid for more than six months.", ["v.passport.cmn"], "oooo"),
      F("4", "okay", "Only Cairo and Hurghada airports issue it.", ["v.airports.arz", "v.airports.cmn"], "ovoo")],
     "The old 20-dollar fee is outdated."),
    ("1.012", "Why did Shanghai Harbour FC sign Omar Fathy?",
     "The user wants the club's reasons for signing the Egyptian striker.",
     P("organization", "reasons", frozenset({"cmn"}), True),
     [F("1", "vital", "The first-choice striker tore a cruciate ligament and is out for the season.",
        ["f.why.cmn"], "vvvv"),
      F("2", "vital", "The club wants to compete for the AFC Champions League next season.", ["f.acl.cmn"], "vvov"),
      F("3", "okay", "The head coach saw him in a friendly in Dubai and asked for him.", ["f.scout.cmn"], "oovo")],
     None),
]
ASSESSORS = ("A1", "A2", "A3", "A4")

# ======================================================================== rendering

_TOKEN = re.compile(r"\{Q(?::([^}]*))?\}|\{/Q\}|\{A:([^|}]+)\|([^}]*)\}|\{IMG:([^}]+)\}|\[\[([^|\]]+)\|([^\]]+)\]\]")


def esc(text: str) -> str:
    """XML-escape text as the LDC files do (``&amp;``, ``&lt;``, ``&gt;``); ``&lt;`` typed in content stays."""
    text = re.sub(r"&(?!(?:amp|lt|gt|quot|apos);)", "&amp;", text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def esc_attr(text: str) -> str:
    return esc(text).replace('"', "&quot;")


def render_body(body: str, base: int, nuggets: dict[str, tuple[int, str]]) -> str:
    """Render a post body at raw offset ``base``; record each nugget's (raw offset, decoded text)."""
    out: list[str] = []
    pos = 0
    n = base

    def emit(s: str) -> None:
        nonlocal n
        out.append(s)
        n += len(s)

    for m in _TOKEN.finditer(body):
        emit(esc(body[pos:m.start()]))
        tok = m.group(0)
        if tok.startswith("{Q"):
            emit(f'<quote orig_author="{esc_attr(m.group(1))}">' if m.group(1) is not None else "<quote>")
        elif tok == "{/Q}":
            emit("</quote>")
        elif tok.startswith("{A:"):
            emit(f'<a href="{esc_attr(m.group(2))}">{esc(m.group(3))}</a>')
        elif tok.startswith("{IMG:"):
            emit(f'<img src="{esc_attr(m.group(4))}"/>')
        else:
            key, text = m.group(5), m.group(6)
            if key in nuggets:
                raise ValueError(f"nugget key {key} used twice")
            nuggets[key] = (n, text)
            emit(esc(text))
        pos = m.end()
    emit(esc(body[pos:]))
    return "".join(out)


def render_thread(t: T, base: int, order: str, nuggets: dict[str, tuple[str, int, str]]) -> str:
    """The ``<doc>`` element of a thread starting at raw offset ``base`` (offsets count from there)."""
    parts = [f'<doc id="{t.id}">\n<headline>\n{esc(t.headline)}\n</headline>\n']
    when = dt.datetime.fromisoformat(t.start)
    for i, (author, body) in enumerate(t.posts, 1):
        stamp = (when + dt.timedelta(minutes=47 * (i - 1) + 13 * (i * i % 5))).strftime("%Y-%m-%dT%H:%M:00")
        attrs = {"author": esc_attr(author), "datetime": stamp, "id": f"p{i}"}
        names = ("author", "datetime", "id") if order == "old" else ("id", "author", "datetime")
        parts.append("<post " + " ".join(f'{k}="{attrs[k]}"' for k in names) + ">\n")
        at = base + sum(len(p) for p in parts)
        local: dict[str, tuple[int, str]] = {}
        parts.append(render_body(body, at, local) + "\n</post>\n")
        for key, (off, text) in local.items():
            if key in nuggets:
                raise ValueError(f"nugget key {key} used twice")
            nuggets[key] = (t.id, off, text)
    parts.append("</doc>\n")
    return "".join(parts)


def to_crlf(text: str, nuggets: dict[str, tuple[str, int, str]], tid: str) -> str:
    """CRLF line ends; shift the thread's nugget offsets by the ``\\r`` added before them."""
    for key, (thread, off, txt) in list(nuggets.items()):
        if thread == tid:
            nuggets[key] = (thread, off + text.count("\n", 0, off), txt)
    return text.replace("\n", "\r\n")


def gzip_bytes(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return buf.getvalue()


def build() -> tuple[dict[str, bytes], dict[str, tuple[str, int, str]]]:
    """All corpus files (relative path -> bytes) and the nuggets (key -> thread, offset, text)."""
    files: dict[str, bytes] = {}
    nuggets: dict[str, tuple[str, int, str]] = {}
    for lang, concat, single, concat_name, gz in (
        ("eng", ENG_CONCAT, ENG_SINGLE, "bolt-eng-DF-901.xml", False),
        ("arz", ARZ_CONCAT, ARZ_SINGLE, "bolt-arz-DF-903.xml.gz", True),
        ("cmn", CMN_CONCAT, CMN_SINGLE, "bolt-cmn-DF-905.xml", False),
    ):
        # concatenated <doc> elements: each thread's offsets count from the '<' of its '<doc'
        text = "".join(render_thread(t, 0, "old", nuggets) for t in concat)
        data = text.encode("utf-8")
        files[f"{lang}/{concat_name}"] = gzip_bytes(data) if gz else data
        # one thread per file after an XML declaration: offsets count from the start of the file
        for t in single:
            text = XML_DECL + render_thread(t, len(XML_DECL), "new", nuggets)
            if t.id in CRLF_IDS:
                text = to_crlf(text, nuggets, t.id)
            files[f"{lang}/{t.id}.xml"] = text.encode("utf-8")
    return files, nuggets


def build_topics(nuggets: dict[str, tuple[str, int, str]]) -> tuple[list[Topic], list[tuple[str, str, str, str]]]:
    topics: list[Topic] = []
    votes: list[tuple[str, str, str, str]] = []
    used: set[str] = set()
    for number, query, desc, props, facets, rules in TOPICS:
        fs = []
        for fid, importance, fdesc, keys, fvotes in facets:
            ns = []
            for key in keys:
                thread, off, text = nuggets[key]
                ns.append(Nugget(text, thread, off))
                used.add(key)
            fs.append(Facet(fid, importance, fdesc, tuple(ns)))
            if len(fvotes) != len(ASSESSORS):
                raise ValueError(f"topic {number} facet {fid}: one vote per assessor")
            votes.extend((number, fid, a, "vital" if v == "v" else "okay") for a, v in zip(ASSESSORS, fvotes))
        topics.append(Topic(number, query, desc, props, tuple(fs), rules))
    unused = sorted(set(nuggets) - used)
    if unused:
        raise ValueError(f"nuggets marked but not used by any topic: {unused}")
    return topics, votes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus-out", type=Path, default=REPO / "bolt" / "data" / "sample_corpus")
    parser.add_argument("--topics-out", type=Path, default=REPO / "topics")
    args = parser.parse_args(argv)
    files, nuggets = build()
    for rel, data in sorted(files.items()):
        path = args.corpus_out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    topics, votes = build_topics(nuggets)
    args.topics_out.mkdir(parents=True, exist_ok=True)
    write_topics(topics, args.topics_out / "sample.xml")
    write_topics(topics, args.topics_out / "sample.queries.xml", queries_only=True)
    write_votes(votes, args.topics_out / "sample.votes.tsv")
    threads = sum(len(x) for x in (ENG_CONCAT, ENG_SINGLE, ARZ_CONCAT, ARZ_SINGLE, CMN_CONCAT, CMN_SINGLE))
    size = sum(len(d) for d in files.values())
    print(f"{threads} threads in {len(files)} files ({size} bytes), {len(topics)} topics, "
          f"{len(nuggets)} nuggets -> {args.corpus_out}, {args.topics_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
