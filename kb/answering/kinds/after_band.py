"""What came after someone joined a band (甲上某山以后做了什么): their scenes after the joining."""

from __future__ import annotations

from kb.answering.compose_person import compose_after_band
from kb.answering.drafting import Ctx, Draft
from kb.answering.kinds import Kind
from kb.answering.plan import Plan


def detect(plan: Plan) -> bool:
    return plan.detail.after_band is not None


def compose(ctx: Ctx) -> Draft | None:
    return compose_after_band(ctx)


KIND = Kind("after_band", 110, detect, compose)
