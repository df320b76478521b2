"""The question planner on a table of readers' questions (either script, aliases, follow-ups)."""

from __future__ import annotations

import pytest

from core.settings import DEFAULT_BUNDLE
from kb.answering.people_index import PeopleIndex
from kb.answering.planner import plan_for_question
from kb.knowledge.bundle import KnowledgeBundle
from kb.knowledge.profile import read_profile


@pytest.fixture(scope="module")
def index(kb_curated_bundle: KnowledgeBundle) -> PeopleIndex:
    return PeopleIndex.build(kb_curated_bundle.people)


TABLE = [
    ("鲁智深和林冲怎么认识？", "pair", ["lu_zhishen", "lin_chong"]),
    ("魯智深和林沖是怎麼認識的？", "pair", ["lu_zhishen", "lin_chong"]),
    ("花和尚与豹子头是什么关系", "pair", ["lu_zhishen", "lin_chong"]),
    ("鲁达和林教头结拜了吗", "pair", ["lu_zhishen", "lin_chong"]),
    ("陆谦为什么要害林冲", "pair", ["lu_qian", "lin_chong"]),
    ("陆虞候和林冲原来是朋友吗", "pair", ["lu_qian", "lin_chong"]),
    ("高衙内和林冲娘子", "pair", ["gao_yanei", "lin_niangzi"]),
    ("林冲和柴进是怎么认识的", "pair", ["lin_chong", "chai_jin"]),
    ("柴大官人为什么帮林冲", "pair", ["chai_jin", "lin_chong"]),
    ("林冲和洪教头比武谁赢了", "pair", ["lin_chong", "hong_jiaotou"]),
    ("王伦为什么不肯收留林冲", "pair", ["wang_lun", "lin_chong"]),
    ("董超、薛霸对林冲做了什么", "pair", ["dong_chao", "lin_chong"]),  # one from each side
    ("李小二和林冲有什么交情", "pair", ["li_xiaoer", "lin_chong"]),
    ("张教头与林冲", "pair", ["zhang_jiaotou", "lin_chong"]),
    ("林冲后来怎么样了", "journey", ["lin_chong"]),
    ("豹子头的经历", "journey", ["lin_chong"]),
    ("林沖是怎麼上梁山的", "journey", ["lin_chong"]),
    ("林冲从东京到梁山泊一路经过哪些地方", "journey", ["lin_chong"]),
    ("鲁智深在这几回里的行踪", "journey", ["lu_zhishen"]),
    ("陆虞候最后是什么下场", "journey", ["lu_qian"]),
    ("林教头的遭遇", "journey", ["lin_chong"]),
    ("林冲的生日是哪一天", "open", ["lin_chong"]),
    ("林冲买的宝刀花了多少钱", "open", ["lin_chong"]),
    ("白虎节堂是什么地方", "open", []),
    ("野猪林里发生了什么", "open", []),
    ("草料场为什么着火", "open", []),
    ("谁在山神庙外放的火", "open", []),
    ("梁山泊在哪里", "open", []),
    ("高俅为什么恨林冲", "pair", ["gao_qiu", "lin_chong"]),
    ("林冲在野猪林被董超绑了，是谁救了他", "open", ["lin_chong", "dong_chao"]),  # a third one
    ("富安干了什么坏事", "open", ["fu_an"]),
    ("林冲在沧州牢城营做什么差事", "open", ["lin_chong"]),
    ("武松做了什么？", "journey", ["wu_song"]),
    ("李逵都干了哪些事", "journey", ["li_kui"]),
    ("武松在景阳冈做了什么？", "open", ["wu_song"]),
    ("林冲在野猪林干了什么", "open", ["lin_chong"]),
]


@pytest.mark.parametrize("question,kind,people", TABLE)
def test_plan_table(index: PeopleIndex, question: str, kind: str, people: list[str]) -> None:
    plan = plan_for_question(question, index, place_chars=read_profile(DEFAULT_BUNDLE).place_chars)
    assert plan.kind == kind
    assert plan.person_ids == people


def test_follow_up_inherits_the_previous_people(index: PeopleIndex) -> None:
    plan = plan_for_question("那他后来呢？", index, previous=["lin_chong"])
    assert plan.follow_up and plan.kind == "journey" and plan.person_ids == ["lin_chong"]
    assert plan_for_question("那他后来呢？", index).person_ids == []


def test_question_words_are_cleaned(index: PeopleIndex) -> None:
    assert "怎么" not in plan_for_question("林冲怎么上山", index).cleaned


ASKS = [
    ("智取生辰纲有哪些人参与？", "who", None),
    ("林冲为什么要火并王伦？", "why", None),
    ("戴宗第一次见到李逵是在哪里？", "where", "began"),
    ("花和尚倒拔垂杨柳是在第几回？", "chapter", None),
    ("武松过景阳冈之前在酒店里一共喝了几碗酒？", "how_many", None),
    ("把宝刀卖给林冲的那个汉子叫什么名字？", "name", None),
    ("武松打虎用的哨棒是什么木头做的？", "made_of", None),
    ("介绍一下宋江", "identity", None),
    ("燕青后来有没有娶李师师为妻？", "whether", None),
    ("鲁智深最后是怎么圆寂的？", "how", "ended"),
    ("鲁智深和林冲是什么关系？", "relation", None),
    ("按阶段讲讲九纹龙史进的经历", "stages", None),
    ("宋江后来被发配去了哪里？", "where", None),
]


@pytest.mark.parametrize("question,asks,moment", ASKS)
def test_what_is_asked_is_decided_once_in_the_plan(index: PeopleIndex, question: str, asks: str,
                                                   moment: str | None) -> None:
    plan = plan_for_question(question, index, place_chars=read_profile(DEFAULT_BUNDLE).place_chars)
    assert (plan.asks, plan.moment) == (asks, moment)


def test_the_plan_carries_what_the_answer_needs(index: PeopleIndex) -> None:
    made = plan_for_question("武松打虎用的哨棒是什么木头做的？", index)
    assert (made.detail.thing, made.detail.material) == ("哨棒", "木头")
    count = plan_for_question("黑旋风在沂岭一共杀了几只老虎？", index)
    assert count.detail.unit == "只" and "老虎" in count.focus and count.detail.total
    assert not plan_for_question("鲁智深那条禅杖有多重？", index).detail.total
    named = plan_for_question("把宝刀卖给林冲的那个汉子叫什么名字？", index)
    assert named.detail.role == "汉子"


@pytest.mark.parametrize("question", ["按阶段讲讲九纹龙史进的经历", "黑旋风李逵经历了什么？按阶段讲讲"])
def test_names_nicknames_and_frame_words_are_never_focus(index: PeopleIndex, question: str) -> None:
    plan = plan_for_question(question, index)
    assert plan.kind == "journey" and plan.focus == ()


def test_words_are_cut_in_a_fixed_order() -> None:
    """Same-length words used to come in a set's order, which changes from one process to the
    next: 是什么人 lost 什么人 or 是什么 depending on the run."""
    from kb.answering.wording import strip_words

    assert strip_words("是什么人", ["什么人", "是什么"]) == strip_words("是什么人", ["是什么", "什么人"])


@pytest.mark.parametrize(("question", "flag"), [
    ("林冲在哪里遇到鲁智深？", "meeting"), ("李逵杀了谁？", "whom"), ("林冲杀了哪些人？", "whom"),
    ("晁盖死前说了什么？", "last_words"), ("晁盖是什么时候死的？", "death"),
])
def test_kinds_answered_their_own_way_are_decided_in_the_plan(index: PeopleIndex, question: str,
                                                               flag: str) -> None:
    detail = plan_for_question(question, index).detail
    assert getattr(detail, flag), detail
    others = {"meeting", "whom", "last_words", "death"} - {flag}
    assert not any(getattr(detail, f) for f in others), detail


def test_the_actor_asked_is_not_whom() -> None:
    """谁杀了甲 and 甲被谁杀 ask who acted; only 甲杀了谁 asks whom 甲 acted on."""
    from kb.answering.details import _asks_whom
    from kb.knowledge.language import language
    lang = language()
    assert _asks_whom("李逵杀了谁", ["李逵"], lang)
    assert not _asks_whom("谁杀了李逵", ["李逵"], lang) and not _asks_whom("李逵被谁杀了", ["李逵"], lang)


@pytest.mark.parametrize(("question", "band"), [
    ("林冲是怎么上梁山的？", "梁山"), ("宋江为什么上了梁山泊", "梁山"), ("武松怎么上的二龙山", "二龙山"),
    ("武松怎么落草的", ""), ("呼延灼怎么投降的？", ""), ("秦明是怎么歸順梁山的", "梁山"),
])
def test_how_someone_came_to_a_band_is_decided_in_the_plan(index: PeopleIndex, question: str,
                                                           band: str) -> None:
    assert plan_for_question(question, index).detail.joining == band


@pytest.mark.parametrize("question", [
    "林冲上梁山以后做了什么", "谁引林冲上梁山的", "林冲上京做什么", "宋江投宿在哪里",
    "林冲和鲁智深怎么认识的",
])
def test_other_questions_with_such_words_do_not_ask_the_road(index: PeopleIndex,
                                                             question: str) -> None:
    assert plan_for_question(question, index).detail.joining is None


def test_a_rank_is_not_a_count(index: PeopleIndex) -> None:
    assert plan_for_question("宋江坐第几位", index).detail.ordinal
    assert not plan_for_question("梁山泊有几位好汉", index).detail.ordinal
    assert plan_for_question("杨志卖刀卖了多少钱", index).detail.act == "卖"


@pytest.mark.parametrize(("question", "weapon"), [
    ("李逵用什么兵器？", True), ("关胜的兵器叫什么", True), ("林冲使的是什么武器", True),
    ("呼延灼用什么兵器打仗", True), ("鲁智深和李逵各用什么兵器", True),
    ("李逵杀了谁", False), ("武松打虎用的哨棒是什么木头做的？", False), ("林冲的宝刀卖了多少钱", False),
])
def test_a_weapon_question_is_decided_in_the_plan(index: PeopleIndex, question: str,
                                                  weapon: bool) -> None:
    assert plan_for_question(question, index).detail.weapon is weapon


@pytest.mark.parametrize(("question", "chapter"), [
    ("第二十三回讲了什么", 23), ("第7回的主要内容是什么", 7), ("第一百二十回说的是什么", 120),
    ("武松打虎是第几回", None), ("第23回里武松喝了几碗酒", None),
])
def test_a_chapter_story_is_decided_in_the_plan(index: PeopleIndex, question: str,
                                                chapter: int | None) -> None:
    assert plan_for_question(question, index).detail.chapter_told == chapter


@pytest.mark.parametrize(("question", "pair"), [
    ("解珍解宝和顾大嫂是什么亲戚", ["解珍", "顾大嫂"]),  # it asked about the two brothers
    ("董超薛霸为什么要害林冲", ["董超", "林冲"]),
    ("林冲和鲁智深是怎么认识的", ["林冲", "鲁智深"]),
])
def test_of_three_people_the_pair_is_one_from_each_side(index: PeopleIndex, question: str,
                                                        pair: list[str]) -> None:
    assert plan_for_question(question, index).names == pair


@pytest.mark.parametrize(("question", "attribute"), [
    ("李逵是哪里人", "home"), ("林冲长什么样", "looks"), ("燕青有什么本事", "gifts"),
    ("林冲和鲁智深是哪里人", None),  # of one person only
])
def test_an_attribute_is_decided_in_the_plan(index: PeopleIndex, question: str,
                                             attribute: str | None) -> None:
    assert plan_for_question(question, index).detail.attribute == attribute



@pytest.mark.parametrize(("question", "act", "agent", "patient"), [
    ("武松为什么要杀宋江？", "kill", "wu_song", "song_jiang"),
    ("宋江是怎么亲手生擒史文恭的？", "capture", "song_jiang", "shi_wengong"),
    ("扈三娘是怎么活捉王英的", "capture", "hu_sanniang", "wang_ying"),
    ("鲁智深为啥在野猪林把董超、薛霸两个公人打死了？", "kill", "lu_zhishen", "dong_chao"),
    ("林冲被谁陷害", None, None, None),                    # no one named does it
    ("李小二是怎么察觉有人要暗害林冲的？", None, None, None),  # an unnamed doer
    ("武松为什么不要杀威棒？", None, None, None),             # 杀 of no one
    ("王伦是被晁盖杀掉的吗？", "kill", "chao_gai", "wang_lun"),
    ("王伦是被晁盖派谁杀掉的？", "kill", None, "wang_lun"),      # 晁盖 sent the one asked
    ("鲁智深为什么在五台山把智真长老打伤了？", "beat", "lu_zhishen", "zhizhen_zhanglao"),
    ("王英想活捉扈三娘，后来怎么样了？", None, None, None),    # a plan, not a deed
    ("宋江被高俅围住，李逵杀出重围去搬谁来救？", None, None, None),  # 杀 of no one; 高俅 in another clause
    ("宋江在江州劫法场以后，是怎么被高俅陷害的？", "persecute", "gao_qiu", "song_jiang"),  # subject carried
    ("阎婆惜是被唐牛儿失手打死的吗？", "kill", "tang_niuer", "yan_poxi"),
    ("呼延灼在跟高俅的头一仗里被太尉宋江一刀砍下马，是谁救的？", "kill", "song_jiang", "huyan_zhuo"),
])
def test_the_act_a_question_asserts_is_read_the_right_way_round(
        index: PeopleIndex, question: str, act: str | None, agent: str | None,
        patient: str | None) -> None:
    premises = plan_for_question(question, index).detail.premises
    if act is None:
        assert premises == (), premises
    else:
        assert [(p.act, p.agent, p.patient) for p in premises] == [(act, agent, patient)]


@pytest.mark.parametrize(("question", "people"), [
    ("卢俊义被吴用骗上梁山之后，结局如何？", ["lu_junyi"]),      # 卢俊义's end, 吴用 in a clause
    ("卢俊义和吴用最后怎么样了？", ["lu_junyi", "wu_yong"]),        # both, joined by 和
    ("宋江临死前为什么要把李逵也毒死？", ["song_jiang", "li_kui"]),  # a why stays the pair's
    ("打完方腊回京，顾大嫂被封了个啥？", ["gu_dasao"]),           # the campaign is the when
    ("征方腊时阮小二是怎么死的？", ["ruan_xiaoer"]),
    ("宋江打方腊的时候，阮小二是怎么死的？", ["ruan_xiaoer"]),  # the whole clause is the when
    ("武松为什么打蒋门神？", ["wu_song", "jiang_menshen"]),       # an attack, not a when
    ("宋江、卢俊义、吴用各有官职，其中卢俊义封的是什么官？", ["lu_junyi"]),
])
def test_intent_before_the_number_of_names(index: PeopleIndex, question: str,
                                           people: list[str]) -> None:
    assert plan_for_question(question, index).person_ids == people


@pytest.mark.parametrize(("question", "passive"), [
    ("生擒扈三娘的是谁？", True),        # 扈三娘 was captured: the captor is asked
    ("杀死西门庆的是谁", True),
    ("扈三娘生擒了谁？", False),          # 扈三娘 captured someone: whom is asked
    ("官府头一个抓到的是谁？", False),    # no name before 的是谁: the one caught is asked
])
def test_a_name_before_de_shi_shui_is_the_one_acted_on(index: PeopleIndex, question: str,
                                                      passive: bool) -> None:
    assert plan_for_question(question, index).detail.passive is passive



def test_whom_is_not_asked_across_a_time_clause(index: PeopleIndex) -> None:
    assert plan_for_question("宋江杀了谁？", index).detail.whom
    assert not plan_for_question("宋江杀了阎婆惜以后先去投奔了谁？", index).detail.whom
