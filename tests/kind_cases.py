"""The question-kind contract's table: for each kind, three questions it answers and one near
miss that another kind answers, on the small book of tests/fixtures/kb_kinds (chapters 7–11, a
campaign 发配沧州 in its profile). One row a kind; a new kind adds its row."""

from __future__ import annotations

KIND_CASES: dict[str, tuple[tuple[str, str, str], str]] = {
    "refusal": (("他后来呢？", "hello?", "谁的武艺最高？"), "林冲的武艺怎么样"),
    "false_premise": (("林冲为什么杀了鲁智深？", "鲁智深打死了林冲吗", "林冲和柴进比武了吗"),
                      "林冲为什么杀了陆谦"),
    "unnamed": (("洪教头叫什么名字", "洪教头姓名是什么", "洪教头的全名"), "洪教头是什么人"),
    "chapter_story": (("第九回讲了什么", "第9回的主要内容是什么", "第九回说的是什么"),
                      "第九回林冲去了哪里"),
    "arc_deaths": (("发配沧州期间谁死了", "发配沧州时有谁死了", "发配沧州的时候谁阵亡了"),
                   "发配沧州时谁救了林冲"),
    "arc_story": (("讲讲发配沧州", "发配沧州的经过", "发配沧州是怎么回事"), "发配沧州时林冲打了哪些仗"),
    "named_event": (("野猪林里发生了什么", "大闹野猪林是怎么回事", "山神庙那一晚发生了什么"),
                    "鲁智深在野猪林做了什么"),
    "weapon": (("林冲用什么兵器", "林冲的武器是什么", "林冲和鲁智深用什么兵器"), "林冲用什么办法"),
    "attribute": (("林冲是哪里人", "林冲长什么样", "林冲有什么本事"), "林冲和鲁智深是哪里人"),
    "times": (("林冲一共打了几次洪教头", "林冲打过几次洪教头", "林冲和洪教头打了几次"), "林冲去了几次沧州"),
    "pair_meeting": (("林冲在哪里遇到鲁智深", "林冲和鲁智深在哪里认识的", "林冲和鲁智深是在第几回相识的"),
                     "林冲和鲁智深是什么关系"),
    "pair_chapter": (("鲁智深救林冲是哪一回", "林冲和洪教头比棒是第几回", "林冲棒打洪教头是在哪一回"),
                     "林冲和鲁智深是在第几回相识的"),
    "pair_why": (("高俅为什么要害林冲", "鲁智深为什么救林冲", "林冲为什么投奔柴进"), "鲁智深怎么救的林冲"),
    "pair_fate": (("林冲和鲁智深最后怎么样了", "林冲和陆谦的结局如何", "鲁智深和林冲的下场"),
                  "林冲和鲁智深最早是怎么认识的"),
    "pair_act": (("鲁智深在哪里救了林冲", "林冲在哪里打洪教头", "鲁智深什么时候救的林冲"),
                 "林冲和鲁智深在哪里喝酒"),
    "pair_fact": (("林冲和鲁智深在哪里喝酒", "柴进给了林冲多少银子", "林冲和洪教头在什么地方交手"),
                  "鲁智深在哪里救了林冲"),
    "pair_whether": (("林冲有没有拜鲁智深为兄", "鲁智深是否救过林冲", "林冲和鲁智深有没有结拜"),
                     "林冲和鲁智深是什么关系"),
    "pair": (("林冲和鲁智深是什么关系", "高俅和林冲", "柴进与王伦有什么交情"), "林冲是什么人"),
    "joining": (("林冲是怎么上梁山的", "林冲为什么落草", "林冲是怎么入伙梁山泊的"), "林冲上梁山以后做了什么"),
    "journey_fate": (("林冲的结局", "林冲的下场如何", "豹子头的结局是什么"), "林冲的经历"),
    "journey": (("林冲的经历", "按阶段讲讲豹子头的一生", "鲁智深后来怎么样了"), "林冲的结局"),
    "owned": (("林冲的刀叫什么", "林冲的枪叫什么", "林冲的刀是什么"), "林冲用什么兵器"),
    "identity": (("洪教头是什么人", "林冲是谁", "小旋风叫什么名字"), "林冲是哪里人"),
    "last_words": (("陆谦死前说了什么", "陆谦临死说了什么", "陆虞候临终留下什么话"), "陆谦死前做了什么"),
    "death": (("陆谦是什么时候死的", "陆谦是哪一回死的", "陆谦死于第几回"), "陆谦是怎么死的"),
    "chapter": (("花和尚倒拔垂杨柳是在第几回", "林冲误入白虎堂是第几回", "风雪山神庙是第几回"),
                "林冲棒打洪教头是在哪一回"),
    "rank": (("林冲在梁山坐第几位", "林冲在梁山泊坐第几位", "豹子头上梁山后坐第几位"), "林冲排第几位"),
    "fate": (("陆谦是怎么死的", "陆谦是怎样死的", "陆虞候是怎么死的"), "陆谦的结局"),
    "began": (("林冲最初怎么样", "鲁智深最初做什么", "柴进起初做了什么"), "林冲最早是做什么的"),
    "death_manner": (("陆谦是被谁毒死的", "陆谦是被淹死的吗", "陆虞候是怎么被烧死的"), "陆谦是被谁杀死的"),
    "killer": (("陆谦是被谁杀死的", "谁杀了陆谦", "陆虞候被谁杀了"), "林冲杀了谁"),
    "whom": (("林冲杀了谁", "鲁智深救了谁", "发配沧州时林冲杀了哪些人"), "谁杀了陆谦"),
    "in_arc": (("发配沧州时林冲打了哪些仗", "发配沧州期间林冲遇到什么事", "发配沧州时鲁智深有何作为"),
               "发配沧州时林冲做了什么"),
    "place_scenes": (("林冲在野猪林做了什么", "鲁智深在野猪林做了什么", "林冲在大相国寺菜园做了什么"),
                     "林冲在沧州做了什么"),
    "deeds": (("林冲杀了什么", "鲁智深救了什么", "林冲打了什么"), "林冲在野猪林做了什么"),
    "fact": (("林冲在沧州做了什么", "林冲在哪里买的刀", "董超是谁派来的"), "林冲和鲁智深是什么关系"),
}
NOT_ON_THE_FIXTURE = {
    "after_band": "needs events after the joining (the small book ends in the chapter he joins): "
                  "tests/test_ask_offline.py asks it of the whole book",
    "succession": "needs two holders of one post (the small book has no title states): "
                  "tests/test_ask_offline.py asks it of the whole book",
    "passages_read": "reads only a book built from its text alone (the small book is curated): "
                     "tests/test_passage_reading.py",
    "untold_act": "refuses only on a book built from its text alone (the small book is "
                  "curated): tests/test_passage_words.py",
}
"""Kinds the small book cannot show, and where they are tested instead."""
