"""Templated Korean messages: the confirmation, the follow-up question, or the reason.

No model call is ever spent on wording.
"""

from __future__ import annotations

from datetime import datetime

from notillm_local.contract.schemas import FailReason

_DAY_NAMES = "월화수목금토일"


def _josa(word: str, with_batchim: str, without: str) -> str:
    """Pick the particle form by the last syllable's final consonant (을/를, 이/가, 은/는)."""
    last = word[-1] if word else ""
    if "가" <= last <= "힣":
        has_final = (ord(last) - 0xAC00) % 28 != 0
        return word + (with_batchim if has_final else without)
    # Latin labels ("YouTube", "Slack") are read aloud; the plain form reads naturally.
    return word + without


def _clock(t: datetime, now: datetime) -> str:
    day = ""
    delta = (t.date() - now.date()).days
    if delta == 1:
        day = "내일 "
    elif delta == 2:
        day = "모레 "
    elif delta > 2 or delta < 0:
        day = f"{t.month}월 {t.day}일 "
    return f"{day}{t:%H:%M}"


def target_phrase(all_: bool, names: list[str], content: list[str]) -> str:
    if all_:
        return "모든 알림"
    parts: list[str] = []
    if names:
        parts.append(", ".join(names))
    if content:
        kws = ", ".join(f"'{c}'" for c in content)
        parts.append(f"{kws} 포함 알림" if not names else f"중 {kws} 포함 알림")
    text = " ".join(parts)
    return text if content else f"{text} 알림"


def confirmation(
    *,
    mute: bool,
    all_: bool,
    names: list[str],
    content: list[str],
    delivery: datetime,
    expires: datetime,
    recurrence: str,
    days_of_week: list[int],
    window_start: str | None,
    window_end: str | None,
    now: datetime,
) -> str:
    what = target_phrase(all_, names, content)
    if recurrence == "daily":
        when = f"매일 {window_start}부터 {window_end}까지"
    elif recurrence == "weekly":
        days = "".join(_DAY_NAMES[d - 1] for d in sorted(days_of_week))
        when = f"매주 {days} {window_start}부터 {window_end}까지"
    elif delivery <= now:
        when = f"{_clock(expires, now)}까지"
    else:
        when = f"{_clock(delivery, now)}부터 {_clock(expires, now)}까지"
    if mute:
        return f"{when} {_josa(what, '을', '를')} 받지 않을게요."
    return f"{when} {what}만 받을게요."


def failure(reason: FailReason, *, detail: str | None = None, words: list[str] | None = None) -> str:
    if reason is FailReason.CHITCHAT:
        return "알림 설정에 관한 말씀만 도와드릴 수 있어요. 예: '2시간 동안 카톡 알림 꺼줘'"
    if reason is FailReason.CANCELLED:
        return "알겠어요, 취소했어요."
    if reason is FailReason.APP_UNRESOLVED:
        names = ", ".join(words or []) or "말씀하신 앱"
        return f"{_josa(names, '은', '는')} 이 기기에 설치된 앱에서 찾지 못했어요."
    if reason is FailReason.CONFLICT:
        return "요청에 서로 맞지 않는 내용이 있어요. 한 가지로 다시 말씀해 주세요."
    if reason is FailReason.INVALID_TIME:
        return "그 시간으로는 설정할 수 없어요. 시작과 끝 시간을 다시 알려 주세요."
    if reason is FailReason.FALLBACK_UNAVAILABLE:
        return "지금은 요청을 처리하지 못했어요. 조금 더 간단히 다시 말씀해 주세요."
    return ask(detail or "time")


def ask(missing: str) -> str:
    """The follow-up question for an incomplete command."""
    if missing == "intent":
        return "그 알림을 끌까요, 아니면 그 알림만 받을까요?"
    if missing == "target":
        return "어떤 앱이나 알림을 말씀하시는 건가요?"
    return "얼마 동안 (또는 언제까지) 적용할까요? 예: '1시간 동안', '오후 6시까지'"
