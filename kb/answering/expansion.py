"""Query expansion for wording gaps: aliases of the people named, and a curated map from the words
readers use to the words the novel uses (报仇 → 杀/搠/剜 …). Switchable by `KBX_QUERY_EXPANSION`."""

from __future__ import annotations

from collections.abc import Iterable

from core.text import normalize, to_simplified
from kb.knowledge.models import Person

WORDINGS: dict[str, tuple[str, ...]] = {
    "报仇": ("杀", "搠", "剜", "仇"),
    "杀死": ("杀", "搠", "砍", "剁"),
    "杀了": ("杀", "搠", "砍"),
    "杀掉": ("杀", "搠", "砍"),
    "认识": ("相识", "认得", "结义", "结拜", "拜"),
    "结识": ("相识", "结义", "结拜"),
    "相遇": ("相识", "撞见", "认得"),
    "陷害": ("害", "设计", "陷", "谋"),
    "害死": ("害", "结果", "性命"),
    "救了": ("救",),
    "救命": ("救",),
    "得救": ("救",),
    "发配": ("刺配", "配", "牢城"),
    "流放": ("刺配", "配"),
    "逃跑": ("走", "逃", "奔"),
    "逃走": ("走", "逃", "奔"),
    "投奔": ("投", "奔"),
    "妻子": ("娘子", "浑家", "妻"),
    "老婆": ("娘子", "浑家", "妻"),
    "岳父": ("丈人", "泰山"),
    "丈人": ("泰山",),
    "朋友": ("相识", "兄弟", "弟兄"),
    "兄弟": ("弟兄", "结义"),
    "喝酒": ("吃酒", "酒"),
    "吃饭": ("吃饭", "饭"),
    "钱": ("银子", "银两"),
    "骗": ("赚", "哄", "瞒"),
    "生气": ("大怒", "怒"),
    "害怕": ("慌", "惊"),
    "抓住": ("拿", "捉", "擒"),
    "抓": ("拿", "捉", "擒"),
    "打败": ("赢", "输", "打翻"),
    "比武": ("使棒", "较量", "比试", "交手"),
    "打架": ("厮打", "打", "斗"),
    "放火": ("烧", "火"),
    "着火": ("火起", "烧"),
    "皇帝": ("天子", "官家", "圣上"),
    "当官": ("做官",),
    "宝刀": ("刀",),
    "武器": ("刀", "枪", "棒", "禅杖"),
    "上梁山": ("梁山泊", "入伙", "落草"),
    "入伙": ("落草", "投托"),
    "死": ("身亡", "死"),
    "去世": ("身亡", "死"),
    "结婚": ("成亲", "娶"),
    "离婚": ("休书", "休了", "退"),
    "外号": ("绰号", "唤做", "叫做"),
    "离开": ("离了", "辞了", "别了", "去了"),
    "见面": ("相见", "见了", "拜见"),
    "认出": ("认得", "认出"),
    "帮助": ("相助", "帮", "助"),
    "帮忙": ("相助", "帮", "助"),
    "告诉": ("说知", "说与", "对"),
    "生病": ("病", "患"),
    "送给": ("送与", "赠", "送"),
    "打仗": ("厮杀", "交战", "交锋"),
    "投降": ("降", "投拜"),
    "赶走": ("赶", "逐"),
    "回家": ("回到家", "归家", "回家"),
    "胳膊": ("臂", "膊"),
    "脑袋": ("头",),
    "废掉": ("断", "折"),
    "废了": ("断", "折"),
    "偷情": ("通奸", "勾搭", "私通"),
    "偷汉": ("通奸", "私通"),
    "毒死": ("药死", "砒霜", "毒药"),
    "老虎": ("大虫",),
    "休妻": ("休书", "休了"),
    "为什么": ("因",),
    "假装": ("诈", "假意"),
    "偷听": ("听得", "窃听"),
    "坏事": ("害", "计"),
    "下场": ("结果", "死"),
    "写信": ("书", "信"),
}
"""Modern or reader wording → the novel's wording (simplified). Applied when the key occurs in the
question; the expansions join the lexical query, never replacing the question's own words."""


def wording_expansions(question: str) -> list[str]:
    text = to_simplified(question)
    return [w for key, words in WORDINGS.items() if key in text for w in words]


def alias_expansions(named: Iterable[tuple[Person, str]]) -> list[str]:
    """The canonical name of each person the question calls by another form (豹子头 → 林冲).

    Other aliases are not added: for a hub character they match nearly every block and drown the
    question's own words."""
    return [person.name for person, written in named
            if normalize(written) != normalize(person.name)]


def expansions_for(question: str, named: Iterable[tuple[Person, str]],
                   enabled: bool = True) -> list[str]:
    """Extra query phrases: canonical names for aliases, and the novel's wording for modern words."""
    if not enabled:
        return []
    return list(dict.fromkeys([*alias_expansions(named), *wording_expansions(question)]))
