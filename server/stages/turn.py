"""One turn as code read it (time and slots), and what that reading says about routing.

`Turn` is the frozen output of reading a text; the router's questions — is this talk rather
than a command, does code alone read a whole command — are answered from it here, so the
pipeline only wires.
"""

from __future__ import annotations

from dataclasses import dataclass

from notillm_local import lexicon
from notillm_local.contract.validate import RuleDraft, TimeStatus
from notillm_local.stages.reading import SlotReading
from notillm_local.stages.timeparse import TimeOutcome, TimeResult

_TIME_STATUS = {
    TimeOutcome.OK: TimeStatus.OK,
    TimeOutcome.NO_TIME: TimeStatus.MISSING,
    TimeOutcome.UNCLEAR: TimeStatus.UNCLEAR,
    TimeOutcome.CONFLICT: TimeStatus.CONFLICT,
    TimeOutcome.INVALID_TIME: TimeStatus.INVALID,
}
_PAST = ("어제", "그제", "그저께", "엊그제", "작년", "지난", "전부터", "전에", "전까지")


@dataclass(frozen=True)
class Turn:
    """Everything code (and, where asked, the model) read from one turn's text."""

    text: str
    time: TimeResult
    slots: SlotReading
    llm_calls: int = 0

    @property
    def has_time(self) -> bool:
        return self.time.outcome is not TimeOutcome.NO_TIME

    @property
    def names_all(self) -> bool:
        """"모든 알림", "알림 다": every notification is the target."""
        return bool(lexicon.pattern("markers", "all_target").search(self.text))

    @property
    def _asks_for_an_alarm(self) -> bool:
        """The only notification word is 알람, said as an alarm to set."""
        alarm = lexicon.pattern("markers", "alarm_request")
        rest = alarm.sub(" ", self.text)
        return rest != self.text and not lexicon.pattern("markers", "notification_words").search(rest)

    @property
    def names_notifications(self) -> bool:
        return bool(lexicon.pattern("markers", "notification_words").search(self.text))

    @property
    def time_status(self) -> TimeStatus:
        status = _TIME_STATUS[self.time.outcome]
        residue = self.slots.time_residue
        if residue and status in (TimeStatus.OK, TimeStatus.MISSING):
            # Time-like words the parser could not use: a past word means a time that cannot
            # be honoured; anything else is asked about rather than dropped.
            past = any(w.startswith(_PAST) for w in residue)
            return TimeStatus.INVALID if past else TimeStatus.UNCLEAR
        return status

    def draft(self) -> RuleDraft:
        s = self.slots
        return RuleDraft(
            mute=s.mute,
            apps=tuple(s.app_refs()),
            # Words nobody could place (no model in rules mode, or a model that could not
            # either) are asked about as apps we could not find — never dropped.
            unresolved=tuple(u.word for u in s.unresolved) + s.unknown_words,
            content=s.content,
            condition=self.time.condition if self.time.outcome is TimeOutcome.OK else None,
            time=self.time_status,
            conflict=s.contradicts,
            activity=s.activity,
            location=s.location,
            why=self.time.reason,
        )

    # -- routing ----------------------------------------------------------------------------
    @property
    def reads_as_command(self) -> bool:
        """Code reads every part of a command: an intent verb, a usable time and a target.

        The gate is least sure on near misses; when code independently finds all of these, a
        wasted model call is cheaper than refusing a real command.
        """
        s = self.slots
        if s.asks_about:
            return False
        # A word code could not read standing where a target does, with an intent verb
        # ("새벽세시까지냇플디코꺼줘"): a command about something unread, asked about, not refused.
        unread_target = any(s.intent_cues) and bool(set(s.unknown_words) - set(s.loose_words))
        if not (s.has_target or self.names_notifications or unread_target):
            return False
        if self.time.outcome is not TimeOutcome.OK:
            # Without a time, only an intent verb on something the user named counts
            # ("'할인' 들어간 알림 안 보고 싶어", "모든 알림 막아줘" will ask "how long?").
            return any(s.intent_cues) and (s.has_target or self.names_notifications)
        # "카톡 2시간": a fragment of only target and time is an elliptical command; with any
        # other verb ("유튜브 3시간 봤어") it is talk about apps, not a command.
        fragment = not (s.unknown_words or s.predicates)
        return any(s.intent_cues) or fragment

    @property
    def names_nothing(self) -> bool:
        """No rule was asked for: talk, a question about settings, or no target at all.

        A time or a topic alone ("오늘 날씨 어때?") is not a command; guessing a rule from it
        would silence notifications the user never mentioned.
        """
        s = self.slots
        no_time = self.time.outcome is TimeOutcome.NO_TIME
        if s.asks_about and not (any(s.intent_cues) and not _is_question(self.text)):
            # "알림 끄면 배터리 덜 닳아?", "카톡 알림 꺼져 있어?": asks about notifications.
            return True
        if no_time and lexicon.pattern("markers", "how_to").search(self.text):
            # "카톡 알림 소리 바꾸는 법 알려줘": a question about settings, whatever its verbs.
            return True
        if not any(s.intent_cues) and (s.predicates or (no_time and _is_question(self.text))):
            # "카톡 알림음 너무 시끄럽네", "유튜브 알림 켜져 있어?", "내일 2시에 회의 일정 잡아줘":
            # a verb that is no notification verb: talk, or a request for something else.
            return True
        if not any(s.intent_cues) and not s.has_target and self._asks_for_an_alarm:
            # "낼 새벽 5시 40분에 알람 하나만": an alarm clock, not a rule about notifications.
            return True
        if s.devices and not (s.has_target or self.names_notifications):
            # "와이파이 꺼줘": a phone setting, not a notification rule.
            return True
        return not (any(s.intent_cues) or s.apps or s.unresolved or self.names_notifications)


def _is_question(text: str) -> bool:
    """A question mark, or a question whether something is so ("…꺼지는 거 맞지"), typed with or
    without one."""
    return text.rstrip().endswith(("?", "？")) or bool(
        lexicon.pattern("reading", "question_not_request.asks_whether").search(text.strip())
    )
