"""Who someone is, one attribute at a time (甲是哪里人, 甲长什么样, 甲有什么本事): the clauses of the
person's curated profile that tell the asked attribute. A profile is written to say who someone
is — home, trade, looks, gifts, how they got their nickname — so it answers these better than a
stray sentence of the book that happens to hold the person's name and the word 人 or 本事.

Each attribute is asked by its own words (`ASKED`) and found in a profile clause by its marks
(`MARKS`); a profile whose clauses hold none of them does not answer, and the question goes on
to the records and passages as any other."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.text import to_simplified

ASKED: dict[str, tuple[str, ...]] = {
    "home": ("哪里人", "哪儿人", "何处人", "哪的人", "哪人", "籍贯", "家乡", "老家", "祖籍", "出生地",
             "人氏"),
    "trade": ("出身", "什么身份", "做什么的", "干什么的", "什么职业", "原来是做", "以前是做", "什么人物",
              "原先是"),
    "gifts": ("本事", "本领", "特长", "擅长", "会什么", "绝活", "绝技", "拿手", "有什么能耐", "武艺怎么样",
              "水性", "箭法", "枪法", "功夫怎么样"),
    "looks": ("长什么样", "长相", "相貌", "外貌", "模样", "长得", "什么样子", "容貌", "样貌"),
    "named": ("为什么叫", "为何叫", "为啥叫", "怎么得来", "怎么来的", "由来", "为什么被称", "为什么称"),
}
"""Attribute → the words a reader asks it with (simplified)."""
MARKS: dict[str, re.Pattern[str]] = {
    "home": re.compile(r"(?:人氏|土居|[县州府村庄镇寨]人)"),
    "trade": re.compile(r"(?:出身|教头|押司|知寨|提辖|都头|员外|节级|牢子|猎户|渔户|打鱼|秀才|教授|"
                        r"学究|教学|道士|和尚|出家|军官|管营|庄主|财主|主管|家仆|军师|郎中|医|铁匠|"
                        r"裁缝|屠户|卖|开[^，。]{0,4}店|巡检|团练|制使|统制|太尉|知府)"),
    "gifts": re.compile(r"(?:善|能|会|精|擅|惯|使|无所不能|天下|绝伦|无对|无双|好武艺|水性|射|"
                        r"相扑|飞檐走壁|神行|道术|法术)"),
    "looks": re.compile(r"(?:面[黑白红紫]|面如|面皮|身材|身长|身高|身躯|身矮|生得|生的|[胡虎髭]须|"
                        r"须髯|髯|环眼|眉|皮肉|白肉|肌肤|貌|五短|年纪)"),
    "named": re.compile(r"(?:人称|称他|唤做|叫做|人都叫)"),
}
"""Attribute → what a profile clause (or a sentence introducing the person) that tells it holds."""
NAMELESS = frozenset({"looks"})
"""Attributes whose marks are specific enough that an introducing sentence may tell them without
naming the person (那官人生的豹头环眼: the man just named); others must name them."""
CLAUSE = re.compile(r"[^，。；、]+")
MAX_CLAUSES = 3
ROSTER = re.compile(r"上应|排座次|石碣|职司|绰号“")
"""The roster's own clauses in a profile (rank, star, post, nickname): never an attribute."""


def asked_attribute(simplified_question: str) -> str | None:
    """The attribute a question about one person asks for, by its longest asking word."""
    found = [(len(w), kind) for kind, words in ASKED.items() for w in words
             if w in simplified_question]
    return max(found)[1] if found else None


def telling_clauses(profiles: Sequence[str], attribute: str) -> list[str]:
    """The profile clauses that tell the attribute, in order, each once, at most `MAX_CLAUSES`
    (a person's profiles repeat each other: one written where they first appear, one from the
    roster)."""
    marks = MARKS[attribute]
    out: list[str] = []
    for profile in profiles:
        clauses = [c.strip() for c in CLAUSE.findall(to_simplified(profile))]
        for i, clause in enumerate(clauses):
            if ROSTER.search(clause) or not marks.search(clause):
                continue
            told = [clauses[i - 1], clause] if attribute == "named" and i else [clause]
            # 善射，人称某某: the clause before a nickname says why
            for c in told:
                if not ROSTER.search(c) and not any(c in o or o in c for o in out):
                    out.append(c)
    return out[:MAX_CLAUSES]
