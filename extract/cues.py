"""The curated cue map of the offline extractor: which words signal which relation, state or place.

Every pattern is a regular expression matched on the simplified text of one segment (a sentence or
a piece of quoted speech). A relation cue pairs the people named next to it:

* `forward`: the person named before the cue is the relation's source, the one after its target
  (甲杀了乙 → killed: 甲 → 乙). The passive 被/吃/遭 and the 把/将 constructions swap the roles
  (乙被甲杀了, 甲把乙杀了).
* `backward`: the person after the cue is the source (甲拜乙为兄 is symmetric, but
  乙的主人甲 → servant: 乙 → 甲 is `backward` for a noun such as 主人).
* `none`: undirected; two people joined before the cue also pair up (甲与乙结义).

`gap_before` / `gap_after` bound the characters between the names and the cue: relational nouns
(浑家, 哥哥, 伴当) only count when they sit right between the names (甲的浑家乙). Confidence
is the cue's base value, lowered by the gaps (see `offline.relation_confidence`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Direction = Literal["forward", "backward", "none"]
StateKind = Literal["status", "place", "title", "possession"]


@dataclass(frozen=True)
class RelationCue:
    """A cue word pattern and the relation it signals between the people named around it."""

    type: str
    pattern: re.Pattern[str]
    direction: Direction
    confidence: float
    gap_before: int = 8
    gap_after: int = 2
    """characters allowed between the cue and the next name; −1: only names before the cue pair"""
    note: str = ""


def _cue(type_: str, pattern: str, direction: Direction, confidence: float, gap_before: int = 8,
         gap_after: int = 2, note: str = "") -> RelationCue:
    return RelationCue(type_, re.compile(pattern), direction, confidence, gap_before, gap_after, note)


RELATION_CUES: tuple[RelationCue, ...] = (
    _cue("sworn_brothers", r"结义|结拜|结为兄弟|结为弟兄|结做弟兄|结识为兄弟|八拜为交|认义|义兄|义弟|"
         r"拜为兄|拜做哥哥|拜为哥哥|认做兄弟|拜.{0,3}为(?:义)?兄|拜.{0,3}为哥哥",
         "none", 0.8, note="结义/结拜/拜…为兄; in speech the speaker and the listener (see offline)"),
    _cue("master_disciple", r"拜(?=[^，、：]{1,8}为师)", "backward", 0.8, gap_after=1,
         note="A拜B为师: B is the master (source)"),
    _cue("master_disciple", r"(?:点拨|指点|指教|传授|教)(?=[^，、：]{0,6}(?:武艺|枪棒|枪法|棒法|本事|法术))",
         "forward", 0.6, gap_before=3, gap_after=1, note="A教B武艺/枪棒"),
    _cue("master_disciple", r"师父|徒弟", "none", 0.5, gap_before=2, gap_after=1),
    _cue("spouse", r"浑家|娘子|老婆|妻子|之妻|的妻|大娘子|丈夫|老公|夫人", "none", 0.6, gap_before=2,
         gap_after=0, note="A的浑家B, A娘子B"),
    _cue("spouse", r"娶了?|纳了?|嫁(?:与|给|了)?", "none", 0.55, gap_before=3, gap_after=1),
    _cue("spouse", r"典与|嫁与|嫁给|许与|许配", "none", 0.6, gap_before=6, gap_after=0,
         note="A典与B做外宅 / A嫁与B: the woman before the cue, the man right after"),
    _cue("spouse", r"外宅|为妾|做妾|小妾|偏房", "none", 0.55, gap_before=2, gap_after=0,
         note="A的外宅B"),
    _cue("family", r"亲兄弟|嫡亲|胞弟|兄弟两个|弟兄两个|兄弟二人|弟兄二人|之子|的儿子|孩儿|之父|"
         r"的父亲|老父|父亲|母亲|老母|叔叔|嫂嫂|哥哥|兄长|侄儿|叔父|表兄|表弟|之女|的女儿|兄弟|孙子",
         "none", 0.55, gap_before=1, gap_after=0, note="relational nouns right between the names"),
    _cue("father_in_law", r"丈人|岳父|泰山|岳丈", "backward", 0.6, gap_before=2, gap_after=0,
         note="A的丈人B: B is the father-in-law (source)"),
    _cue("father_in_law", r"女婿|贤婿", "forward", 0.6, gap_before=2, gap_after=0),
    _cue("rescuer", r"救了|救得|救出|救起|救下|相救|搭救|救护|救了性命|劫了法场|救", "forward", 0.6,
         gap_before=8, gap_after=2, note="A救了B; 被A救了"),
    _cue("killed", r"杀了|杀死|杀却|杀翻|杀倒|搠死|搠翻|搠倒|砍死|砍翻|砍倒|剁翻|剁了|斩了|斩首|斩讫|斩于|"
         r"打死|射死|刺死|勒死|结果了|割了.{0,2}头|害了.{0,2}性命|割下|剜出|剜了|勒死|杀翻|一刀.{0,4}死",
         "forward", 0.65,
         gap_before=8, gap_after=2, note="杀/搠/斩 … with the victim after the cue"),
    _cue("killed", r"(?<![厮混])(?:杀|搠|斩|砍|剁)(?![奔入出将进退散败气伐人戮来去过上下回到])",
         "forward", 0.55, gap_before=3, gap_after=0, note="bare 杀/搠/斩 right before the victim"),
    _cue("fought", r"厮杀|交锋|交战|交手|大战|斗了|相斗|斗到|战了|战到|迎敌|对敌|争斗|厮打|厮并|相持|比试|"
         r"斗敌|力战|独战|夹攻|合战|鏖战",
         "none", 0.55, gap_before=6, gap_after=2, note="A与B斗了五十合"),
    _cue("fought", r"(?:战|斗|迎住|拦住|敌住)(?![船马鼓书袍法场阵表])", "none", 0.5, gap_before=1,
         gap_after=0, note="A战B"),
    _cue("fought", r"捉了|捉得|活捉|擒了|生擒|拿了|拿住|捉住|擒住|活拿", "forward", 0.5, gap_before=3,
         gap_after=1, note="A活捉B: capture in a fight"),
    _cue("fought", r"揪倒|揪住|打倒|推倒|踢倒|踢翻|按倒|按住|打翻|劈|一拳|一脚|踢", "forward", 0.45,
         gap_before=3, gap_after=1, note="A打翻B; 被A揪倒: blows"),
    _cue("benefactor", r"赍发|资助|周济|接济|送与|赠与|赠|举荐|荐|修书", "forward", 0.5, gap_before=6,
         gap_after=2, note="A赍发B盘缠"),
    _cue("superior", r"差遣|差|遣|调遣|着令|传令|吩咐|分付|令(?![尊爱郎堂兄弟嫒箭人旗])", "forward", 0.45,
         gap_before=6, gap_after=1, note="A差B去…"),
    _cue("superior", r"手下|部下|麾下|帐下|帐前|属下", "forward", 0.5, gap_before=2, gap_after=3),
    _cue("servant", r"伴当|家人|仆人|小厮|心腹|管家|从人|养娘|女使|使女|丫鬟|随从|主人", "backward", 0.5,
         gap_before=2, gap_after=0, note="A的伴当B: B serves A (source B)"),
    _cue("host_guest", r"管待|款待|相待|置酒|接风|设宴|安排筵席|安排酒食|留在庄上|留住", "forward", 0.5,
         gap_before=8, gap_after=2),
    _cue("enemy", r"仇人|冤仇|冤家|有仇|结仇|仇恨|对头", "none", 0.5, gap_before=4, gap_after=2),
    _cue("persecutor", r"陷害|谋害|加害|暗算|诬告|诬陷|算计|设计|谋了|害了|害", "forward", 0.55,
         gap_before=6, gap_after=1, note="A陷害B; 被A陷害"),
    _cue("friend", r"相识|故交|旧交|旧识|相交|知己|好友|朋友|故人|至交|交好|交厚|相好", "none", 0.5,
         gap_before=6, gap_after=2),
    _cue("ally", r"商议|商量|计议|合伙|一伙|同谋|约会|聚义|相助|帮助|助战|救应", "none", 0.45,
         gap_before=6, gap_after=-1, note="A与B商议 (names before the cue only)"),
    _cue("colleague", r"两个|二人|两位|二位|两人|二个", "none", 0.4, gap_before=1, gap_after=-1,
         note="A、B两个: two people acting together"),
    _cue("colleague", r"一同|一齐|同行|一处|同来|同去|齐来|并马|并力", "none", 0.4, gap_before=2,
         gap_after=-1, note="A与B一同…: two people joined by 与/和 acting together"),
    _cue("host_guest", r"投奔|投托|去投|来投|投靠|寄居", "backward", 0.5, gap_before=6, gap_after=1,
         note="A投奔B: B is the host (source)"),
    _cue("acquaintance", r"相见|相会|认得|拜见|参见|拜识|结识|来见|去见|会见|投见|厮见|相识", "none", 0.4,
         gap_before=6, gap_after=1, note="A与B相见 / A拜见B: the two meet; no fallback on bare verbs"),
    _cue("host_guest", r"请|邀|陪|迎接|接着|接见|留", "forward", 0.4, gap_before=2, gap_after=0,
         note="A请B / A迎接B: A is the host (names right next to the verb)"),
    _cue("acquaintance", r"问|对|向|叫|唤|劝|谢|拜谢|称谢|说与|告诉|扶起|辞别|别了|拜辞|投见|会见|寻|访|"
         r"见了|遇见|撞见|迎着|赶上",
         "none", 0.4, gap_before=2, gap_after=0,
         note="A问B / A辞别B: the two speak face to face (names right next to the verb)"),
)
"""Relation cues, strongest first; one sentence may signal several types for the same pair."""

NEGATION = re.compile(r"[不没休莫未勿]|要|欲|想|待要|若|只怕|恐")
"""Between a name and its cue, these mark a negated, intended or feared act: no relation."""
HEARSAY = re.compile(r"闻|听|见|知|说|道|报")
"""Between the first name and a directed cue: the first person only hears of the act (甲闻朝廷遣乙)."""
PASSIVE = ("被", "吃", "遭", "喫")
"""Right before the agent: 甲被乙陷害 → persecutor: 乙 → 甲."""
DISPOSAL = ("把", "将")
"""Right before the patient: 甲把乙杀了 → killed: 甲 → 乙."""
PAIR_CONNECTORS = frozenset({"与", "和", "同", "跟"})
"""Two names joined by one of these before an undirected cue pair up (甲与乙结义); a 、 list
(甲、乙、丙都来相见) names co-agents, not the two sides."""
PATIENT_TAIL = re.compile(
    r"(?:的|之)?(?:老小|家小|一门|家眷|一家|老母|手下|部下|军马|人马|兵马|大军|寨|庄|军|家|阵|营)")
"""After the second name, these mean its people or camp are meant (杀甲老小), not the person."""
CLAUSE_OPENERS = ("且说", "却说", "话说", "再说", "当下", "只见", "原来", "次日", "当时", "随即", "当日")
"""A name right after one of these, or at a clause start, is the subject of the following clauses."""
CONNECTORS = frozenset({"", "、", "和", "与", "同", "并", "及", "跟", "共", "、和"})
"""What may join two names into one list (甲、乙 / 甲与乙)."""


@dataclass(frozen=True)
class StateCue:
    """A cue that gives a person a status, title or place from this chapter on."""

    kind: StateKind
    pattern: re.Pattern[str]
    value: str = ""
    """fixed value; empty: the pattern's first group (or `{0}`-formatted) is the value"""
    side: Literal["before", "after"] = "before"
    gap: int = 4
    confidence: float = 0.5
    note: str = ""


def _state(kind: StateKind, pattern: str, value: str = "",
           side: Literal["before", "after"] = "before", gap: int = 4, confidence: float = 0.5,
           note: str = "") -> StateCue:
    return StateCue(kind, re.compile(pattern), value, side, gap, confidence, note)


STATE_CUES: tuple[StateCue, ...] = (
    _state("status", r"上梁山|投梁山|上山入伙|梁山泊入伙|梁山入伙|投奔梁山", "上梁山入伙", gap=6,
           confidence=0.6),
    _state("status", r"落草|入伙|占山为王|聚众", "落草入伙", gap=4, confidence=0.55),
    _state("status", r"刺配(?:到|去|在)?((?:[\u4e00-\u9fff]{1,2})(?:州|府))", "刺配{0}", gap=6,
           confidence=0.6, note="刺配沧州 → status 刺配沧州"),
    _state("status", r"刺配|发配|迭配", "刺配", gap=6, confidence=0.5),
    _state("status", r"自缢身死|自缢身亡|自缢而死|自缢", "自缢身亡", gap=16, confidence=0.6,
           note="甲被乙威逼，自缢身死: the subject, not the one after 被"),
    _state("status", r"(?<![打杀搠砍射斩害药勒毒])(?:身死|身亡|丧命|殒命|阵亡|气绝|死了|死于|归天|自缢|身故)",
           "身亡", gap=2, confidence=0.5),
    _state("status", r"受了招安|受招安|归顺朝廷|招安", "受招安", gap=6, confidence=0.45),
    _state("status", r"下在牢里|监在牢里|下在大牢|下了大牢|监禁|收监|押入牢|推入牢", "下狱", gap=6,
           confidence=0.5),
    _state("title",
           r"(?:做了|充(?:做|当)?|当了|升做|升为|授|封为|拜为|补|参(?=[^案]))"
           r"((?:[马步兵军正副总大小左右前后中][\u4e00-\u9fff]{0,2})?(?:都头|提辖|知寨|制使|押司|头领|"
           r"寨主|教头|团练|总管|指挥使|太守|知府|知县|节级|牌头|孔目|军师|先锋|都统制|统制|防御使|元帅|将军|都监))",
           gap=8, confidence=0.55, note="做了步兵都头 → title 步兵都头"),
)
"""State cues; `side` says whether the person is named before or after the cue."""

PLACE_TO = re.compile(r"(?:来到|到了|到得|投|前往|奔|回到|径投|径奔|直奔|去|上|入|在)$")
"""A place right after one of these verbs is where the person named before goes or is."""
PLACE_MOVE = re.compile(r"(?:来到|到了|到得|前往|回到|径投|径奔|直奔|投奔|奔)$")
"""Verbs of arriving: a place state after one of these is a move (a stage can open on it)."""
RETROSPECTIVE = re.compile(r"当初|昔日|向日|往日|旧日|那时|曾在|曾经|原是|原来|想起|记得|说起|因为|只因")
"""In a segment holding one of these, a place is remembered, not reached: no place state."""

ACTIONS: tuple[tuple[str, str], ...] = (
    ("打虎", "打虎"), ("大虫", "斗虎"), ("结义", "结义"), ("结拜", "结义"), ("劫法场", "劫法场"),
    ("劫了法场", "劫法场"),
    ("放火", "放火"), ("杀", "厮杀"), ("搠", "厮杀"), ("斩", "斩杀"), ("救", "相救"), ("捉", "擒拿"),
    ("擒", "擒拿"), ("拿住", "擒拿"), ("厮杀", "厮杀"), ("交锋", "交锋"), ("交战", "交战"), ("斗", "相斗"),
    ("比试", "比试"), ("商议", "商议"), ("商量", "商议"), ("计议", "商议"), ("投奔", "投奔"),
    ("入伙", "入伙"), ("落草", "落草"), ("招安", "招安"), ("上梁山", "上梁山"), ("饮酒", "饮酒"),
    ("吃酒", "饮酒"), ("筵席", "设宴"), ("管待", "款待"), ("相见", "相见"), ("拜见", "拜见"),
    ("下书", "下书"), ("追赶", "追赶"), ("逃", "逃走"), ("埋伏", "埋伏"), ("攻打", "攻打"),
    ("刺配", "刺配"), ("审问", "审问"), ("告", "告状"), ("送", "相送"), ("请", "相请"),
)
"""(word, label): the first word found in an event's quote (else its block) names its action."""

CONTEXT_REACH = 60
"""How many characters before a context form an anchor may be named."""

VERSE_OPENERS = ("诗曰", "有诗为证", "但见", "词曰", "正是", "诗云", "有诗", "怎见得")
"""A paragraph opening with one of these quotes verse: no events or relations from it."""

ACTOR_VERBS = re.compile(
    r"^(?:便|却|又|也|早|已|都|只|就|再|先|亲|自|乃|遂|随即|当时|慌忙|连忙|大喜|大怒|听了|见了|看了|"
    r"道|说|问|叫|喝|答|笑|骂|拜|扶|来|去|到|走|奔|跳|抢|拿|取|提|把|将|与|和|同|引|领|带|请|坐|起|"
    r"杀|打|斗|战|赶|追|救|捉|擒|射|砍|搠|剁|放|投|上|下|入|出|回|辞|别|吃|喫|饮|接|送|看|寻|听|望|"
    r"收|叫|唤|教|令|差|传|谢|告|禀|应|对|向|被|吃了|喫了)")
"""What may follow a name that is the subject of an act (甲提了哨棒 / 甲道 / 甲大怒)."""
SPEECH_VERB = re.compile(r"^[^，。！？「」]{0,6}(?:道|说道|问道|答道|叫道|喝道|笑道|骂道|禀道|告道|说)")
"""A name followed by one of these within a few characters speaks: he is in the scene."""
CUE_ACTIONS = re.compile(r"打虎|打死|杀了|杀死|搠死|斩了|上山|上梁山|入伙|落草|投奔|刺配|发配|自缢|"
                         r"放火|劫|逃走|越狱|招安|出家|剃度|中箭|阵亡|大虫")
"""A block with one acting person still gives an event when one of these happens (甲打虎)."""
