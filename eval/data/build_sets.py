"""Writes dev.jsonl and train.jsonl from the hand-written cases below.

Every expected time in DEV is a literal worked out by hand from CONTRACT.md's time semantics
(durations are plain additions, done with `plus`). Nothing here imports the service: the sets
must stay independent of the code they score. TRAIN uses a few tiny helpers (`at_next`,
`window`) for template variety; each is simple enough to check by eye and is spot-checked
below against hand-computed values.

Run: python eval/data/build_sets.py   (rewrites dev.jsonl and train.jsonl next to this file)
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CATALOG_PATH = HERE.parents[1] / "models" / "apps_galaxy_ko.json"
CATALOG = {a["name"]: a["packageName"] for a in json.loads(CATALOG_PATH.read_text("utf-8"))}

# "now" values: weekday noted by hand (ISO: 1 = Monday).
A = "2026-08-14T21:30:00+09:00"  # Fri evening
B = "2026-08-31T23:50:00+09:00"  # Mon, month end, late night
C = "2026-09-05T10:15:00+09:00"  # Sat morning
D = "2026-12-31T22:40:00+09:00"  # Thu, year end
E = "2026-10-04T02:20:00+09:00"  # Sun, small hours
F = "2026-09-16T13:05:00+09:00"  # Wed lunchtime
G = "2026-11-30T07:45:00+09:00"  # Mon morning, month end
H = "2026-02-28T18:10:00+09:00"  # Sat, end of February (2026 is not a leap year)
I = "2026-08-20T16:00:00+09:00"  # noqa: E741  Thu afternoon
U = "2026-08-14T12:30:00+00:00"  # Fri, UTC clock
W = "2026-07-03T20:00:00-04:00"  # Fri, US Eastern clock


def plus(now: str, minutes: int) -> str:
    return (datetime.fromisoformat(now) + timedelta(minutes=minutes)).isoformat()


def tgt(mute: bool, *labels: str, content: tuple[str, ...] = ()) -> dict:
    for label in labels:
        assert label in CATALOG, label
    everything = not labels and not content
    return {
        "mute": mute,
        "all": everything,
        "name": list(labels),
        "content": list(content),
        "packages": [CATALOG[x] for x in labels],
    }


def cond(delivery: str, expires: str, rec: str = "none", days: list[int] | None = None,
         ws: str | None = None, we: str | None = None, activity: str | None = None,
         location: str | None = None) -> dict:
    out: dict = {"delivery": delivery, "expires": expires, "recurrence": rec}
    if rec != "none":
        out.update(window_start=ws, window_end=we)
    if rec == "weekly":
        out["days_of_week"] = days
    if activity:
        out["activity"] = activity
    if location:
        out["location"] = location
    return out


def _inp(prompt: str, now: str, original: str | None = None, apps: list | None = None) -> dict:
    inp: dict = {"prompt": prompt, "currentTime": now, "pending": original is not None,
                 "pendingOriginal": original}
    if apps is not None:
        inp["installedApps"] = apps
    return inp


def _tags(intent: str | None, time: str | None, target: str | None, **extra: str) -> dict:
    tags = {"intent": intent, "time": time, "target": target, **extra}
    return {k: v for k, v in tags.items() if v is not None}


def ok(cid: str, prompt: str, now: str, target: dict, condition: dict, time: str, shape: str,
       *, original: str | None = None, action: str | None = None, apps: list | None = None,
       focus: str | None = None) -> dict:
    exp: dict = {"ok": True, "dialogIntent": "pending" if original else "extract"}
    if action:
        exp["pendingAction"] = action
    exp.update(targetFixed=target, condition=condition)
    intent = "mute" if target["mute"] else "allow"
    extra = {"pending": action} if action else {}
    if focus:
        extra["focus"] = focus
    return {"id": cid, "input": _inp(prompt, now, original, apps), "expected": exp,
            "tags": _tags(intent, time, shape, **extra)}


def fail(cid: str, prompt: str, now: str, reason: str, *, intent: str | None = None,
         time: str | None = None, shape: str | None = None, original: str | None = None,
         action: str | None = None, apps: list | None = None, focus: str | None = None) -> dict:
    exp: dict = {"ok": False}
    if reason == "chitchat" and not original:
        exp["dialogIntent"] = "reject"
    else:
        exp["dialogIntent"] = "pending" if original else "extract"
    if action:
        exp["pendingAction"] = action
    exp["failReason"] = reason
    if reason in ("incomplete", "cancelled"):
        exp["needsSupplement"] = reason == "incomplete"
    extra = {"pending": action} if action else {}
    extra["focus"] = focus or reason
    return {"id": cid, "input": _inp(prompt, now, original, apps), "expected": exp,
            "tags": _tags(intent, time, shape, **extra)}


def chat(cid: str, prompt: str, now: str, focus: str = "chitchat") -> dict:
    return fail(cid, prompt, now, "chitchat", intent="reject", focus=focus)


# --------------------------------------------------------------------------- DEV

DEV: list[dict] = [
    # ---- duration, mute
    ok("dev-dur-001", "카톡 알림 2시간 동안 꺼줘", A, tgt(True, "카카오톡"), cond(A, plus(A, 120)), "duration", "single_app", focus="alias"),
    ok("dev-dur-002", "유튜브 알림 30분만 꺼줘", C, tgt(True, "YouTube"), cond(C, plus(C, 30)), "duration", "single_app", focus="alias"),
    ok("dev-dur-003", "1시간 반 동안 인스타 알림 받지마", F, tgt(True, "Instagram"), cond(F, plus(F, 90)), "duration", "single_app"),
    ok("dev-dur-004", "디코 알림 45분 동안 무음으로 해줘", B, tgt(True, "Discord"), cond(B, "2026-09-01T00:35:00+09:00"), "duration", "single_app", focus="month_end"),
    ok("dev-dur-005", "슬랙 3시간만 조용히 시켜줘", G, tgt(True, "Slack"), cond(G, plus(G, 180)), "duration", "single_app"),
    ok("dev-dur-006", "토스 알림 20분 동안 막아줘", D, tgt(True, "토스"), cond(D, "2026-12-31T23:00:00+09:00"), "duration", "single_app"),
    ok("dev-dur-007", "한 시간 동안 배민 알림 꺼", H, tgt(True, "배달의민족"), cond(H, "2026-02-28T19:10:00+09:00"), "duration", "single_app", focus="alias"),
    ok("dev-dur-008", "넷플 알림 90분 꺼줘", E, tgt(True, "Netflix"), cond(E, "2026-10-04T03:50:00+09:00"), "duration", "single_app", focus="alias"),
    ok("dev-dur-009", "10분만 당근 알림 받지 마", I, tgt(True, "당근"), cond(I, "2026-08-20T16:10:00+09:00"), "duration", "single_app"),
    ok("dev-dur-010", "앞으로 4시간 동안 모든 알림 꺼줘", A, tgt(True), cond(A, "2026-08-15T01:30:00+09:00"), "duration", "all"),
    ok("dev-dur-011", "알림 전부 90분 동안 꺼줘", D, tgt(True), cond(D, "2027-01-01T00:10:00+09:00"), "duration", "all", focus="year_end"),
    ok("dev-dur-012", "30분 동안 조용히 해줘", C, tgt(True), cond(C, "2026-09-05T10:45:00+09:00"), "duration", "all"),
    ok("dev-dur-013", "지금부터 2시간 반 동안 에타 알림 받지마", F, tgt(True, "에브리타임"), cond(F, "2026-09-16T15:35:00+09:00"), "duration", "single_app", focus="alias"),
    ok("dev-dur-014", "하루 동안 쿠팡 알림 끄기", C, tgt(True, "쿠팡"), cond(C, "2026-09-06T10:15:00+09:00"), "duration", "single_app"),
    ok("dev-dur-015", "15분 동안 팀즈 알림 울리지 않게 해줘", U, tgt(True, "Microsoft Teams"), cond(U, "2026-08-14T12:45:00+00:00"), "duration", "single_app", focus="offset"),
    ok("dev-dur-016", "5시간 동안 밴드 알림 차단", W, tgt(True, "밴드"), cond(W, "2026-07-04T01:00:00-04:00"), "duration", "single_app", focus="offset"),
    # ---- duration, allow
    ok("dev-alw-001", "앞으로 1시간은 전화만 울리게 해줘", A, tgt(False, "전화"), cond(A, "2026-08-14T22:30:00+09:00"), "duration", "single_app"),
    ok("dev-alw-002", "2시간 동안 카톡만 받아줘", C, tgt(False, "카카오톡"), cond(C, "2026-09-05T12:15:00+09:00"), "duration", "single_app"),
    ok("dev-alw-003", "40분 동안 슬랙 알림만 받을게", F, tgt(False, "Slack"), cond(F, "2026-09-16T13:45:00+09:00"), "duration", "single_app"),
    ok("dev-alw-004", "3시간 동안 문자랑 전화만 받게 해줘", G, tgt(False, "메시지", "전화"), cond(G, "2026-11-30T10:45:00+09:00"), "duration", "multi_app", focus="alias"),
    ok("dev-alw-005", "30분 동안 카톡 빼고 다 꺼줘", I, tgt(False, "카카오톡"), cond(I, "2026-08-20T16:30:00+09:00"), "duration", "single_app", focus="except"),
    ok("dev-alw-006", "한 시간 동안 팀즈랑 줌 알림만 받아줘", U, tgt(False, "Microsoft Teams", "Zoom"), cond(U, "2026-08-14T13:30:00+00:00"), "duration", "multi_app", focus="offset"),
    ok("dev-alw-007", "1시간 동안 '긴급' 들어간 알림만 받아줘", B, tgt(False, content=("긴급",)), cond(B, "2026-09-01T00:50:00+09:00"), "duration", "content"),
    # ---- until an absolute time
    ok("dev-abs-001", "오후 6시까지 카톡 알림 꺼줘", F, tgt(True, "카카오톡"), cond(F, "2026-09-16T18:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-002", "자정까지 모든 알림 꺼줘", A, tgt(True), cond(A, "2026-08-15T00:00:00+09:00"), "until_absolute", "all", focus="midnight"),
    ok("dev-abs-003", "밤 12시까지 유튜브 알림 받지마", I, tgt(True, "YouTube"), cond(I, "2026-08-21T00:00:00+09:00"), "until_absolute", "single_app", focus="midnight"),
    ok("dev-abs-004", "내일 아침 9시까지 알림 다 꺼줘", D, tgt(True), cond(D, "2027-01-01T09:00:00+09:00"), "until_absolute", "all", focus="year_end"),
    ok("dev-abs-005", "3시까지 인스타 알림 꺼줘", A, tgt(True, "Instagram"), cond(A, "2026-08-15T03:00:00+09:00"), "until_absolute", "single_app", focus="bare_hour"),
    ok("dev-abs-006", "5시까지 슬랙 꺼줘", F, tgt(True, "Slack"), cond(F, "2026-09-16T17:00:00+09:00"), "until_absolute", "single_app", focus="bare_hour"),
    ok("dev-abs-007", "정오까지 카톡 알림 받지마", G, tgt(True, "카카오톡"), cond(G, "2026-11-30T12:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-008", "새벽 2시까지 디코 알림 꺼줘", B, tgt(True, "Discord"), cond(B, "2026-09-01T02:00:00+09:00"), "until_absolute", "single_app", focus="month_end"),
    ok("dev-abs-009", "저녁 7시까지 쿠팡 알림 꺼줘", C, tgt(True, "쿠팡"), cond(C, "2026-09-05T19:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-010", "밤 1시까지 알림 꺼줘", I, tgt(True), cond(I, "2026-08-21T01:00:00+09:00"), "until_absolute", "all"),
    ok("dev-abs-011", "점심 1시까지 팀즈 알림 끄기", G, tgt(True, "Microsoft Teams"), cond(G, "2026-11-30T13:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-012", "오전 11시까지 지메일 알림 꺼줘", E, tgt(True, "Gmail"), cond(E, "2026-10-04T11:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-013", "10시 반까지 카톡 꺼줘", F, tgt(True, "카카오톡"), cond(F, "2026-09-16T22:30:00+09:00"), "until_absolute", "single_app", focus="bare_hour"),
    ok("dev-abs-014", "오후 2시 30분까지 토스 알림 받지마", H, tgt(True, "토스"), cond(H, "2026-03-01T14:30:00+09:00"), "until_absolute", "single_app", focus="month_end"),
    ok("dev-abs-015", "아침 8시까지 알림 모두 꺼줘", E, tgt(True), cond(E, "2026-10-04T08:00:00+09:00"), "until_absolute", "all"),
    ok("dev-abs-016", "9시까지 넷플 알림 꺼줘", W, tgt(True, "Netflix"), cond(W, "2026-07-03T21:00:00-04:00"), "until_absolute", "single_app", focus="offset"),
    ok("dev-abs-017", "낮 3시까지 밴드 알림 받지 마", C, tgt(True, "밴드"), cond(C, "2026-09-05T15:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-018", "내일 오후 5시까지 에타 알림 꺼줘", B, tgt(True, "에브리타임"), cond(B, "2026-09-01T17:00:00+09:00"), "until_absolute", "single_app", focus="month_end"),
    ok("dev-abs-019", "12시까지 배민 알림 꺼줘", I, tgt(True, "배달의민족"), cond(I, "2026-08-21T00:00:00+09:00"), "until_absolute", "single_app", focus="bare_hour"),
    ok("dev-abs-020", "오늘 밤 11시까지 카톡 받지마", F, tgt(True, "카카오톡"), cond(F, "2026-09-16T23:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-021", "모레 아침 10시까지 슬랙 알림 꺼줘", I, tgt(True, "Slack"), cond(I, "2026-08-22T10:00:00+09:00"), "until_absolute", "single_app"),
    ok("dev-abs-022", "저녁 6시까지 전화 빼고 다 꺼줘", G, tgt(False, "전화"), cond(G, "2026-11-30T18:00:00+09:00"), "until_absolute", "single_app", focus="except"),
    ok("dev-abs-023", "오후 4시까지 문자만 받을게", U, tgt(False, "메시지"), cond(U, "2026-08-14T16:00:00+00:00"), "until_absolute", "single_app", focus="offset"),
    # ---- one-off windows (recurrence none; tagged until_absolute)
    ok("dev-win-001", "오후 3시부터 5시까지 카톡 알림 꺼줘", F, tgt(True, "카카오톡"), cond("2026-09-16T15:00:00+09:00", "2026-09-16T17:00:00+09:00"), "until_absolute", "single_app", focus="window"),
    ok("dev-win-002", "오늘 밤 10시부터 내일 아침 7시까지 알림 다 꺼줘", A, tgt(True), cond("2026-08-14T22:00:00+09:00", "2026-08-15T07:00:00+09:00"), "until_absolute", "all", focus="window"),
    ok("dev-win-003", "오전 9시부터 12시까지 슬랙 알림 받지마", C, tgt(True, "Slack"), cond("2026-09-05T09:00:00+09:00", "2026-09-05T12:00:00+09:00"), "until_absolute", "single_app", focus="window_in_force"),
    ok("dev-win-004", "내일 오후 2시부터 4시까지 줌 알림 꺼줘", I, tgt(True, "Zoom"), cond("2026-08-21T14:00:00+09:00", "2026-08-21T16:00:00+09:00"), "until_absolute", "single_app", focus="window"),
    ok("dev-win-005", "저녁 7시부터 10시까지 인스타 알림 꺼줘", G, tgt(True, "Instagram"), cond("2026-11-30T19:00:00+09:00", "2026-11-30T22:00:00+09:00"), "until_absolute", "single_app", focus="window"),
    # ---- relative delay
    ok("dev-rel-001", "30분 뒤부터 1시간 동안 카톡 알림 꺼줘", F, tgt(True, "카카오톡"), cond("2026-09-16T13:35:00+09:00", "2026-09-16T14:35:00+09:00"), "relative_delay", "single_app"),
    ok("dev-rel-002", "10분 후에 오후 5시까지 알림 다 꺼줘", I, tgt(True), cond("2026-08-20T16:10:00+09:00", "2026-08-20T17:00:00+09:00"), "relative_delay", "all"),
    ok("dev-rel-003", "1시간 뒤부터 2시간 동안 슬랙 꺼줘", B, tgt(True, "Slack"), cond("2026-09-01T00:50:00+09:00", "2026-09-01T02:50:00+09:00"), "relative_delay", "single_app", focus="month_end"),
    ok("dev-rel-004", "20분 있다가 30분 동안 유튜브 알림 받지마", C, tgt(True, "YouTube"), cond("2026-09-05T10:35:00+09:00", "2026-09-05T11:05:00+09:00"), "relative_delay", "single_app"),
    ok("dev-rel-005", "2시간 후부터 자정까지 모든 알림 꺼줘", A, tgt(True), cond("2026-08-14T23:30:00+09:00", "2026-08-15T00:00:00+09:00"), "relative_delay", "all"),
    ok("dev-rel-006", "5분 뒤부터 10분만 조용히", G, tgt(True), cond("2026-11-30T07:50:00+09:00", "2026-11-30T08:00:00+09:00"), "relative_delay", "all"),
    ok("dev-rel-007", "한 시간 뒤부터 전화만 3시간 받을래", F, tgt(False, "전화"), cond("2026-09-16T14:05:00+09:00", "2026-09-16T17:05:00+09:00"), "relative_delay", "single_app"),
    ok("dev-rel-008", "40분 후부터 1시간 반 동안 인스타랑 틱톡 알림 꺼줘", D, tgt(True, "Instagram", "TikTok"), cond("2026-12-31T23:20:00+09:00", "2027-01-01T00:50:00+09:00"), "relative_delay", "multi_app", focus="year_end"),
    ok("dev-rel-009", "15분 뒤부터 밤 11시까지 카톡 꺼줘", A, tgt(True, "카카오톡"), cond("2026-08-14T21:45:00+09:00", "2026-08-14T23:00:00+09:00"), "relative_delay", "single_app"),
    ok("dev-rel-010", "30분 후에 1시간 동안 '광고' 알림 막아줘", E, tgt(True, content=("광고",)), cond("2026-10-04T02:50:00+09:00", "2026-10-04T03:50:00+09:00"), "relative_delay", "content"),
    ok("dev-rel-011", "3시간 뒤부터 새벽 3시까지 디코 알림 꺼줘", I, tgt(True, "Discord"), cond("2026-08-20T19:00:00+09:00", "2026-08-21T03:00:00+09:00"), "relative_delay", "single_app"),
    # ---- daily
    ok("dev-day-001", "매일 밤 11시부터 아침 7시까지 알림 다 꺼줘", F, tgt(True), cond("2026-09-16T23:00:00+09:00", "2026-09-17T07:00:00+09:00", "daily", ws="23:00", we="07:00"), "daily", "all"),
    ok("dev-day-002", "매일 오후 1시부터 2시까지 카톡 알림 꺼줘", F, tgt(True, "카카오톡"), cond("2026-09-16T13:00:00+09:00", "2026-09-16T14:00:00+09:00", "daily", ws="13:00", we="14:00"), "daily", "single_app", focus="window_in_force"),
    ok("dev-day-003", "매일 새벽 1시부터 6시까지 모든 알림 무음", E, tgt(True), cond("2026-10-04T01:00:00+09:00", "2026-10-04T06:00:00+09:00", "daily", ws="01:00", we="06:00"), "daily", "all", focus="window_in_force"),
    ok("dev-day-004", "매일 밤 10시부터 새벽 2시까지 인스타 알림 꺼줘", E, tgt(True, "Instagram"), cond("2026-10-04T22:00:00+09:00", "2026-10-05T02:00:00+09:00", "daily", ws="22:00", we="02:00"), "daily", "single_app", focus="window_just_ended"),
    ok("dev-day-005", "매일 아침 9시부터 오후 6시까지 유튜브 알림 받지마", B, tgt(True, "YouTube"), cond("2026-09-01T09:00:00+09:00", "2026-09-01T18:00:00+09:00", "daily", ws="09:00", we="18:00"), "daily", "single_app", focus="month_end"),
    ok("dev-day-006", "매일 자정부터 아침 6시까지 조용히 해줘", A, tgt(True), cond("2026-08-15T00:00:00+09:00", "2026-08-15T06:00:00+09:00", "daily", ws="00:00", we="06:00"), "daily", "all", focus="midnight"),
    ok("dev-day-007", "매일 저녁 6시부터 9시까지 슬랙 알림 꺼줘", I, tgt(True, "Slack"), cond("2026-08-20T18:00:00+09:00", "2026-08-20T21:00:00+09:00", "daily", ws="18:00", we="21:00"), "daily", "single_app"),
    ok("dev-day-008", "매일 점심 12시부터 1시까지 카톡만 받을래", G, tgt(False, "카카오톡"), cond("2026-11-30T12:00:00+09:00", "2026-11-30T13:00:00+09:00", "daily", ws="12:00", we="13:00"), "daily", "single_app"),
    ok("dev-day-009", "날마다 밤 9시부터 11시까지 디코 알림 꺼줘", H, tgt(True, "Discord"), cond("2026-02-28T21:00:00+09:00", "2026-02-28T23:00:00+09:00", "daily", ws="21:00", we="23:00"), "daily", "single_app"),
    ok("dev-day-010", "매일 오후 11시부터 오전 8시까지 카톡이랑 문자 빼고 다 꺼줘", D, tgt(False, "카카오톡", "메시지"), cond("2026-12-31T23:00:00+09:00", "2027-01-01T08:00:00+09:00", "daily", ws="23:00", we="08:00"), "daily", "multi_app", focus="except"),
    ok("dev-day-011", "매일 아침 7시부터 8시까지 '광고' 들어간 알림 꺼줘", G, tgt(True, content=("광고",)), cond("2026-11-30T07:00:00+09:00", "2026-11-30T08:00:00+09:00", "daily", ws="07:00", we="08:00"), "daily", "content", focus="window_in_force"),
    ok("dev-day-012", "매일 밤 10시부터 아침 6시까지 쿠팡 광고 알림 꺼줘", C, tgt(True, "쿠팡", content=("광고",)), cond("2026-09-05T22:00:00+09:00", "2026-09-06T06:00:00+09:00", "daily", ws="22:00", we="06:00"), "daily", "app_and_content"),
    # ---- weekly
    ok("dev-wk-001", "평일 오전 9시부터 오후 6시까지 카톡 알림 꺼줘", C, tgt(True, "카카오톡"), cond("2026-09-07T09:00:00+09:00", "2026-09-07T18:00:00+09:00", "weekly", [1, 2, 3, 4, 5], "09:00", "18:00"), "weekly", "single_app", focus="weekend_now"),
    ok("dev-wk-002", "주말 밤 11시부터 아침 9시까지 알림 다 꺼줘", F, tgt(True), cond("2026-09-19T23:00:00+09:00", "2026-09-20T09:00:00+09:00", "weekly", [6, 7], "23:00", "09:00"), "weekly", "all"),
    ok("dev-wk-003", "매주 월수금 오후 2시부터 4시까지 슬랙 알림 받지마", I, tgt(True, "Slack"), cond("2026-08-21T14:00:00+09:00", "2026-08-21T16:00:00+09:00", "weekly", [1, 3, 5], "14:00", "16:00"), "weekly", "single_app"),
    ok("dev-wk-004", "매주 화요일 밤 9시부터 10시까지 인스타 꺼줘", G, tgt(True, "Instagram"), cond("2026-12-01T21:00:00+09:00", "2026-12-01T22:00:00+09:00", "weekly", [2], "21:00", "22:00"), "weekly", "single_app", focus="month_end"),
    ok("dev-wk-005", "매주 일요일 오전 10시부터 12시까지 모든 알림 꺼줘", E, tgt(True), cond("2026-10-04T10:00:00+09:00", "2026-10-04T12:00:00+09:00", "weekly", [7], "10:00", "12:00"), "weekly", "all"),
    ok("dev-wk-006", "평일 밤 10시부터 아침 7시까지 팀즈 알림 꺼줘", A, tgt(True, "Microsoft Teams"), cond("2026-08-14T22:00:00+09:00", "2026-08-15T07:00:00+09:00", "weekly", [1, 2, 3, 4, 5], "22:00", "07:00"), "weekly", "single_app", focus="overnight_friday"),
    ok("dev-wk-007", "토요일마다 오후 1시부터 6시까지 카톡 알림 받지마", C, tgt(True, "카카오톡"), cond("2026-09-05T13:00:00+09:00", "2026-09-05T18:00:00+09:00", "weekly", [6], "13:00", "18:00"), "weekly", "single_app"),
    ok("dev-wk-008", "매주 목요일 저녁 7시부터 9시까지 전화만 받아줘", I, tgt(False, "전화"), cond("2026-08-20T19:00:00+09:00", "2026-08-20T21:00:00+09:00", "weekly", [4], "19:00", "21:00"), "weekly", "single_app"),
    ok("dev-wk-009", "평일 점심 12시부터 1시까지 유튜브 알림 꺼줘", H, tgt(True, "YouTube"), cond("2026-03-02T12:00:00+09:00", "2026-03-02T13:00:00+09:00", "weekly", [1, 2, 3, 4, 5], "12:00", "13:00"), "weekly", "single_app", focus="month_end"),
    ok("dev-wk-010", "매주 금요일 밤 11시부터 새벽 1시까지 디코 꺼줘", W, tgt(True, "Discord"), cond("2026-07-03T23:00:00-04:00", "2026-07-04T01:00:00-04:00", "weekly", [5], "23:00", "01:00"), "weekly", "single_app", focus="offset"),
    ok("dev-wk-011", "주말 오전 8시부터 오후 12시까지 슬랙이랑 팀즈 알림 꺼줘", A, tgt(True, "Slack", "Microsoft Teams"), cond("2026-08-15T08:00:00+09:00", "2026-08-15T12:00:00+09:00", "weekly", [6, 7], "08:00", "12:00"), "weekly", "multi_app"),
    ok("dev-wk-012", "매주 수요일 오후 3시부터 5시까지 '회의' 들어간 알림 꺼줘", F, tgt(True, content=("회의",)), cond("2026-09-16T15:00:00+09:00", "2026-09-16T17:00:00+09:00", "weekly", [3], "15:00", "17:00"), "weekly", "content"),
    ok("dev-wk-013", "매주 월요일이랑 목요일 아침 6시부터 8시까지 알림 다 꺼줘", G, tgt(True), cond("2026-11-30T06:00:00+09:00", "2026-11-30T08:00:00+09:00", "weekly", [1, 4], "06:00", "08:00"), "weekly", "all", focus="window_in_force"),
    ok("dev-wk-014", "평일 오후 6시부터 밤 11시까지 슬랙 알림 꺼줘", D, tgt(True, "Slack"), cond("2026-12-31T18:00:00+09:00", "2026-12-31T23:00:00+09:00", "weekly", [1, 2, 3, 4, 5], "18:00", "23:00"), "weekly", "single_app", focus="window_in_force"),
    ok("dev-wk-015", "매일 월화수목 오후 9시부터 10시까지 넷플 알림 꺼줘", E, tgt(True, "Netflix"), cond("2026-10-05T21:00:00+09:00", "2026-10-05T22:00:00+09:00", "weekly", [1, 2, 3, 4], "21:00", "22:00"), "weekly", "single_app", focus="daily_with_days"),
    # ---- multi-app
    ok("dev-multi-001", "2시간 동안 카톡이랑 문자 알림 꺼줘", H, tgt(True, "카카오톡", "메시지"), cond(H, "2026-02-28T20:10:00+09:00"), "duration", "multi_app"),
    ok("dev-multi-002", "유튜브, 넷플, 틱톡 알림 1시간만 꺼줘", E, tgt(True, "YouTube", "Netflix", "TikTok"), cond(E, "2026-10-04T03:20:00+09:00"), "duration", "multi_app"),
    ok("dev-multi-003", "밤 11시까지 배민이랑 쿠팡이츠 알림 받지마", I, tgt(True, "배달의민족", "쿠팡이츠"), cond(I, "2026-08-20T23:00:00+09:00"), "until_absolute", "multi_app"),
    ok("dev-multi-004", "30분 동안 토스랑 카카오뱅크 알림 꺼", C, tgt(True, "토스", "카카오뱅크"), cond(C, "2026-09-05T10:45:00+09:00"), "duration", "multi_app"),
    ok("dev-multi-005", "오후 5시까지 페북이랑 트위터 알림 꺼줘", F, tgt(True, "Facebook", "X"), cond(F, "2026-09-16T17:00:00+09:00"), "until_absolute", "multi_app", focus="alias"),
    ok("dev-multi-006", "인스타, 스레드 알림 3시간 동안 받지마", A, tgt(True, "Instagram", "Threads"), cond(A, "2026-08-15T00:30:00+09:00"), "duration", "multi_app"),
    # ---- content keywords
    ok("dev-cnt-001", "'택배'라는 단어 들어간 알림 2시간 동안 꺼줘", F, tgt(True, content=("택배",)), cond(F, "2026-09-16T15:05:00+09:00"), "duration", "content"),
    ok("dev-cnt-002", "광고라는 말 들어간 알림 30분 동안 받지마", C, tgt(True, content=("광고",)), cond(C, "2026-09-05T10:45:00+09:00"), "duration", "content"),
    ok("dev-cnt-003", "'할인' 들어간 알림 오후 6시까지 꺼줘", G, tgt(True, content=("할인",)), cond(G, "2026-11-30T18:00:00+09:00"), "until_absolute", "content"),
    ok("dev-cnt-004", "1시간 동안 '인증번호' 들어간 알림만 받아줘", A, tgt(False, content=("인증번호",)), cond(A, "2026-08-14T22:30:00+09:00"), "duration", "content"),
    ok("dev-cnt-005", "스팸이라고 적힌 알림 자정까지 막아줘", D, tgt(True, content=("스팸",)), cond(D, "2027-01-01T00:00:00+09:00"), "until_absolute", "content", focus="year_end"),
    ok("dev-cnt-006", "'이벤트'나 '쿠폰' 들어간 알림 3시간 동안 꺼줘", I, tgt(True, content=("이벤트", "쿠폰")), cond(I, "2026-08-20T19:00:00+09:00"), "duration", "content"),
    # ---- app and content
    ok("dev-ac-001", "카톡에서 '회식' 들어간 알림 1시간 동안 꺼줘", F, tgt(True, "카카오톡", content=("회식",)), cond(F, "2026-09-16T14:05:00+09:00"), "duration", "app_and_content"),
    ok("dev-ac-002", "인스타 광고 알림 2시간 동안 받지마", C, tgt(True, "Instagram", content=("광고",)), cond(C, "2026-09-05T12:15:00+09:00"), "duration", "app_and_content"),
    ok("dev-ac-003", "문자 중에 '대출' 들어간 거 오늘 밤 12시까지 막아줘", A, tgt(True, "메시지", content=("대출",)), cond(A, "2026-08-15T00:00:00+09:00"), "until_absolute", "app_and_content"),
    ok("dev-ac-004", "슬랙에서 '긴급' 들어간 알림만 2시간 받을게", G, tgt(False, "Slack", content=("긴급",)), cond(G, "2026-11-30T09:45:00+09:00"), "duration", "app_and_content"),
    ok("dev-ac-005", "유튜브 '라이브' 알림 30분만 꺼줘", H, tgt(True, "YouTube", content=("라이브",)), cond(H, "2026-02-28T18:40:00+09:00"), "duration", "app_and_content"),
    ok("dev-ac-006", "쿠팡 배송 알림만 오후 3시까지 받아줘", E, tgt(False, "쿠팡", content=("배송",)), cond(E, "2026-10-04T15:00:00+09:00"), "until_absolute", "app_and_content"),
    ok("dev-ac-007", "배민 쿠폰 알림 1시간 꺼줘", B, tgt(True, "배달의민족", content=("쿠폰",)), cond(B, "2026-09-01T00:50:00+09:00"), "duration", "app_and_content", focus="month_end"),
    ok("dev-ac-008", "토스에서 '이체' 들어간 알림만 받아줘 40분 동안", I, tgt(False, "토스", content=("이체",)), cond(I, "2026-08-20T16:40:00+09:00"), "duration", "app_and_content"),
    # ---- activity / location (they never replace a time)
    ok("dev-act-001", "운전 중에 1시간 동안 카톡 알림 꺼줘", A, tgt(True, "카카오톡"), cond(A, "2026-08-14T22:30:00+09:00", activity="driving"), "duration", "single_app", focus="activity"),
    ok("dev-act-002", "회사에서 오후 6시까지 인스타 알림 받지마", F, tgt(True, "Instagram"), cond(F, "2026-09-16T18:00:00+09:00", location="work"), "until_absolute", "single_app", focus="location"),
    ok("dev-act-003", "자는 동안 아침 7시까지 알림 다 꺼줘", D, tgt(True), cond(D, "2027-01-01T07:00:00+09:00", activity="sleeping"), "until_absolute", "all", focus="activity"),
    ok("dev-act-004", "회의 중이니까 30분 동안 전화만 받을게", G, tgt(False, "전화"), cond(G, "2026-11-30T08:15:00+09:00", activity="meeting"), "duration", "single_app", focus="activity"),
    ok("dev-act-005", "운동하는 동안 1시간 반 카톡이랑 슬랙 꺼줘", C, tgt(True, "카카오톡", "Slack"), cond(C, "2026-09-05T11:45:00+09:00", activity="exercising"), "duration", "multi_app", focus="activity"),
    ok("dev-act-006", "학교에서 매일 오전 9시부터 오후 3시까지 인스타 알림 꺼줘", C, tgt(True, "Instagram"), cond("2026-09-05T09:00:00+09:00", "2026-09-05T15:00:00+09:00", "daily", ws="09:00", we="15:00", location="school"), "daily", "single_app", focus="location"),
    ok("dev-act-007", "집에서는 매일 밤 10시부터 아침 7시까지 슬랙 알림 꺼줘", F, tgt(True, "Slack"), cond("2026-09-16T22:00:00+09:00", "2026-09-17T07:00:00+09:00", "daily", ws="22:00", we="07:00", location="home"), "daily", "single_app", focus="location"),
    fail("dev-act-008", "운전할 때 알림 꺼줘", I, "incomplete", intent="mute", shape="all", focus="activity_no_time"),
    # ---- no time → incomplete
    fail("dev-inc-001", "인스타 알림 꺼줘", F, "incomplete", intent="mute", shape="single_app"),
    fail("dev-inc-002", "카톡 알림 받지마", C, "incomplete", intent="mute", shape="single_app"),
    fail("dev-inc-003", "문자만 받고 싶어", A, "incomplete", intent="allow", shape="single_app"),
    fail("dev-inc-004", "슬랙 알림 좀 꺼줄래?", G, "incomplete", intent="mute", shape="single_app"),
    fail("dev-inc-005", "모든 알림 꺼줘", B, "incomplete", intent="mute", shape="all"),
    fail("dev-inc-006", "'광고' 들어간 알림 막아줘", E, "incomplete", intent="mute", shape="content"),
    fail("dev-inc-007", "유튜브랑 넷플 알림 끄기", H, "incomplete", intent="mute", shape="multi_app"),
    fail("dev-inc-008", "회사에서 팀즈만 울리게 해줘", I, "incomplete", intent="allow", shape="single_app", focus="location_no_time"),
    fail("dev-inc-009", "알림 좀 조용히 해줘", D, "incomplete", intent="mute", shape="all"),
    # ---- apps that are not installed → app_unresolved
    fail("dev-unres-001", "텔레그램 알림 1시간 꺼줘", A, "app_unresolved", intent="mute", time="duration", shape="single_app"),
    fail("dev-unres-002", "위챗 알림 오후 5시까지 받지마", F, "app_unresolved", intent="mute", time="until_absolute", shape="single_app"),
    fail("dev-unres-003", "왓츠앱만 30분 동안 받아줘", C, "app_unresolved", intent="allow", time="duration", shape="single_app"),
    fail("dev-unres-004", "2시간 동안 트위치 알림 꺼줘", E, "app_unresolved", intent="mute", time="duration", shape="single_app"),
    fail("dev-unres-005", "요기요 알림 자정까지 꺼줘", I, "app_unresolved", intent="mute", time="until_absolute", shape="single_app"),
    fail("dev-unres-006", "카톡이랑 라인 알림 1시간 꺼줘", G, "app_unresolved", intent="mute", time="duration", shape="multi_app", focus="one_of_two_missing"),
    fail("dev-unres-007", "티빙 알림 매일 밤 11시부터 아침 7시까지 꺼줘", D, "app_unresolved", intent="mute", time="daily", shape="single_app"),
    fail("dev-unres-008", "카톡 알림 1시간 꺼줘", F, "app_unresolved", intent="mute", time="duration", shape="single_app",
         apps=[{"name": "메시지", "packageName": "com.samsung.android.messaging"},
               {"name": "전화", "packageName": "com.samsung.android.dialer"}], focus="custom_catalog"),
    ok("dev-unres-009", "라인 알림 40분만 꺼줘", F, {"mute": True, "all": False, "name": ["LINE"], "content": [], "packages": ["jp.naver.line.android"]},
       cond(F, "2026-09-16T13:45:00+09:00"), "duration", "single_app",
       apps=[{"name": "LINE", "packageName": "jp.naver.line.android"},
             {"name": "카카오톡", "packageName": "com.kakao.talk"}], focus="custom_catalog"),
    # ---- times that cannot be honoured → invalid_time
    fail("dev-inv-001", "25시까지 카톡 알림 꺼줘", F, "invalid_time", intent="mute", shape="single_app"),
    fail("dev-inv-002", "어제 밤 10시까지 알림 꺼줘", A, "invalid_time", intent="mute", shape="all"),
    fail("dev-inv-003", "0분 동안 슬랙 알림 꺼줘", C, "invalid_time", intent="mute", shape="single_app"),
    fail("dev-inv-004", "내일 오후 5시부터 오늘 오후 3시까지 인스타 꺼줘", G, "invalid_time", intent="mute", shape="single_app"),
    fail("dev-inv-005", "2월 30일까지 카톡 꺼줘", H, "invalid_time", intent="mute", shape="single_app"),
    fail("dev-inv-006", "오후 3시 75분까지 알림 꺼줘", I, "invalid_time", intent="mute", shape="all"),
    fail("dev-inv-007", "1시간 전부터 30분 동안 알림 꺼줘", E, "invalid_time", intent="mute", shape="all"),
    # ---- chitchat and near-misses → reject
    chat("dev-chat-001", "오늘 저녁 뭐 먹지", A),
    chat("dev-chat-002", "도와줘서 고맙다", C),
    chat("dev-chat-003", "ㅋㅋㅋㅋ 개웃기네", F),
    chat("dev-chat-004", "너 이름이 뭐야?", G),
    chat("dev-chat-005", "아 심심해 죽겠다", E),
    chat("dev-chat-006", "잘 자라 내 꿈 꿔", D),
    chat("dev-chat-007", "오늘이 무슨 요일이더라", B),
    chat("dev-chat-008", "출근하기 너무 싫다", G),
    chat("dev-chat-009", "좋은 아침이에요!", C),
    chat("dev-chat-010", "뭐하고 있어?", H),
    chat("dev-chat-011", "7 곱하기 8은?", I),
    chat("dev-chat-012", "카톡 친구 추가는 어떻게 해?", F, "near_miss"),
    chat("dev-chat-013", "유튜브에서 재밌는 영상 추천해줘", A, "near_miss"),
    chat("dev-chat-014", "3시간 뒤에 깨워줘", D, "near_miss"),
    chat("dev-chat-015", "내일 오후 2시에 회의 일정 잡아줘", F, "near_miss"),
    chat("dev-chat-016", "알림 설정은 어디서 바꿔?", C, "near_miss"),
    chat("dev-chat-017", "카톡 온 거 있어?", E, "near_miss"),
    chat("dev-chat-018", "와이파이 꺼줘", G, "near_miss"),
    chat("dev-chat-019", "블루투스 좀 켜줄래", I, "near_miss"),
    chat("dev-chat-020", "화면 밝기 낮춰줘", B, "near_miss"),
    chat("dev-chat-021", "슬랙 진짜 편하다", H, "near_miss"),
    chat("dev-chat-022", "넷플에 볼만한 거 있어?", A, "near_miss"),
    # ---- the seed's failures, reworded
    ok("dev-seed-001", "지금부터 3시간 문자 알림 받지마", A, tgt(True, "메시지"), cond(A, "2026-08-15T00:30:00+09:00"), "duration", "single_app", focus="seed_sms_label"),
    ok("dev-seed-002", "플레이스토어 알림 1시간 동안 꺼줘", F, tgt(True, "Play 스토어"), cond(F, "2026-09-16T14:05:00+09:00"), "duration", "single_app", focus="seed_playstore_label"),
    ok("dev-seed-003", "카톡 5분만 받지마", C, tgt(True, "카카오톡"), cond(C, "2026-09-05T10:20:00+09:00"), "duration", "single_app", focus="seed_short_duration"),
    ok("dev-seed-004", "카톡 메세지 알림 10분 동안 받지마", G, tgt(True, "카카오톡"), cond(G, "2026-11-30T07:55:00+09:00"), "duration", "single_app", focus="seed_no_message_keyword"),
    ok("dev-seed-005", "문자 메세지 알림 30분 꺼줘", I, tgt(True, "메시지"), cond(I, "2026-08-20T16:30:00+09:00"), "duration", "single_app", focus="seed_no_message_keyword"),
    ok("dev-seed-006", "플레이 스토어 업데이트 알림 자정까지 꺼줘", D,
       {"mute": True, "all": False, "name": ["Play 스토어"], "packages": ["com.android.vending"]},
       cond(D, "2027-01-01T00:00:00+09:00"), "until_absolute", "single_app", focus="seed_playstore_label"),
    ok("dev-seed-007", "슬랙 1분만 꺼줘", E, tgt(True, "Slack"), cond(E, "2026-10-04T02:21:00+09:00"), "duration", "single_app", focus="seed_short_duration"),
    ok("dev-seed-008", "카톡 메시지 알림 1시간 반 받지마", H, tgt(True, "카카오톡"), cond(H, "2026-02-28T19:40:00+09:00"), "duration", "single_app", focus="seed_no_message_keyword"),
    # ---- pending turns: CONTINUE (the two turns merged)
    ok("dev-pend-c01", "2시간", F, tgt(True, "Instagram"), cond(F, "2026-09-16T15:05:00+09:00"), "duration", "single_app", original="인스타 알림 꺼줘", action="CONTINUE"),
    ok("dev-pend-c02", "1시간만", C, tgt(False, "카카오톡"), cond(C, "2026-09-05T11:15:00+09:00"), "duration", "single_app", original="카톡만 받아줘", action="CONTINUE"),
    ok("dev-pend-c03", "오후 6시까지", G, tgt(True, "Slack"), cond(G, "2026-11-30T18:00:00+09:00"), "until_absolute", "single_app", original="슬랙 알림 받지마", action="CONTINUE"),
    ok("dev-pend-c04", "내일 아침 7시까지", A, tgt(True), cond(A, "2026-08-15T07:00:00+09:00"), "until_absolute", "all", original="모든 알림 꺼줘", action="CONTINUE"),
    ok("dev-pend-c05", "30분", D, tgt(True, "메시지"), cond(D, "2026-12-31T23:10:00+09:00"), "duration", "single_app", original="문자 알림 꺼줘", action="CONTINUE"),
    ok("dev-pend-c06", "자정까지", I, tgt(True, "YouTube", "Netflix"), cond(I, "2026-08-21T00:00:00+09:00"), "until_absolute", "multi_app", original="유튜브랑 넷플 알림 끄기", action="CONTINUE"),
    ok("dev-pend-c07", "한 시간 반", B, tgt(True, "Discord"), cond(B, "2026-09-01T01:20:00+09:00"), "duration", "single_app", original="디코 알림 좀 꺼줘", action="CONTINUE"),
    ok("dev-pend-c08", "매일 밤 11시부터 아침 7시까지", C, tgt(True, "카카오톡"), cond("2026-09-05T23:00:00+09:00", "2026-09-06T07:00:00+09:00", "daily", ws="23:00", we="07:00"), "daily", "single_app", original="카톡 알림 받지마", action="CONTINUE"),
    ok("dev-pend-c09", "평일 오전 9시부터 오후 6시까지", E, tgt(False, "Microsoft Teams"), cond("2026-10-05T09:00:00+09:00", "2026-10-05T18:00:00+09:00", "weekly", [1, 2, 3, 4, 5], "09:00", "18:00"), "weekly", "single_app", original="팀즈만 울리게 해줘", action="CONTINUE"),
    ok("dev-pend-c10", "3시간 동안", F, tgt(True, content=("광고",)), cond(F, "2026-09-16T16:05:00+09:00"), "duration", "content", original="'광고' 들어간 알림 막아줘", action="CONTINUE"),
    ok("dev-pend-c11", "ㅇㅇ 40분만", H, tgt(True, "Instagram"), cond(H, "2026-02-28T18:50:00+09:00"), "duration", "single_app", original="인스타 알림 꺼줘", action="CONTINUE"),
    ok("dev-pend-c12", "10분 뒤부터 1시간", G, tgt(False, "전화"), cond("2026-11-30T07:55:00+09:00", "2026-11-30T08:55:00+09:00"), "relative_delay", "single_app", original="전화만 받을래", action="CONTINUE"),
    ok("dev-pend-c13", "음 한 20분?", A, tgt(True, "카카오톡"), cond(A, "2026-08-14T21:50:00+09:00"), "duration", "single_app", original="카톡 알림 꺼줘", action="CONTINUE"),
    # "내일 아침" names no hour: only what is certain is scored (expires left out on purpose).
    {"id": "dev-pend-c14", "input": _inp("그냥 내일 아침까지", G, "슬랙 알림 꺼줘"),
     "expected": {"ok": True, "dialogIntent": "pending", "pendingAction": "CONTINUE",
                  "targetFixed": tgt(True, "Slack"), "condition": {"delivery": G, "recurrence": "none"}},
     "tags": {"intent": "mute", "time": "until_absolute", "target": "single_app", "pending": "CONTINUE",
              "focus": "vague_day_part"}},
    # ---- pending: UPDATE (merged, the new turn wins)
    fail("dev-pend-u01", "ㄴㄴ 슬랙", F, "incomplete", intent="mute", shape="single_app", original="카톡 알림 꺼줘", action="UPDATE", focus="still_no_time"),
    ok("dev-pend-u02", "아니 카톡 말고 슬랙 1시간", C, tgt(False, "Slack"), cond(C, "2026-09-05T11:15:00+09:00"), "duration", "single_app", original="카톡만 받아줘", action="UPDATE"),
    ok("dev-pend-u03", "아 인스타 말고 틱톡으로 30분", G, tgt(True, "TikTok"), cond(G, "2026-11-30T08:15:00+09:00"), "duration", "single_app", original="인스타 알림 꺼줘", action="UPDATE"),
    ok("dev-pend-u04", "아니 끄지 말고 유튜브만 받게 해줘 2시간", A, tgt(False, "YouTube"), cond(A, "2026-08-14T23:30:00+09:00"), "duration", "single_app", original="유튜브 알림 꺼줘", action="UPDATE", focus="mute_to_allow"),
    ok("dev-pend-u05", "문자 말고 전화로 해줘 1시간 동안", I, tgt(True, "전화"), cond(I, "2026-08-20T17:00:00+09:00"), "duration", "single_app", original="문자 알림 받지마", action="UPDATE"),
    ok("dev-pend-u06", "ㄴㄴ 카톡이랑 디코 둘 다 2시간", D, tgt(True, "카카오톡", "Discord"), cond(D, "2027-01-01T00:40:00+09:00"), "duration", "multi_app", original="디코 알림 꺼줘", action="UPDATE"),
    ok("dev-pend-u07", "아니다 팀즈로 바꿔줘 오후 5시까지", F, tgt(True, "Microsoft Teams"), cond(F, "2026-09-16T17:00:00+09:00"), "until_absolute", "single_app", original="슬랙 알림 꺼줘", action="UPDATE"),
    fail("dev-pend-u08", "ㄴㄴ 인스타", E, "incomplete", intent="mute", shape="single_app", original="카톡 알림 꺼줘", action="UPDATE", focus="still_no_time"),
    ok("dev-pend-u09", "넷플 말고 유튜브 자정까지", B, tgt(True, "YouTube"), cond(B, "2026-09-01T00:00:00+09:00"), "until_absolute", "single_app", original="넷플 알림 꺼줘", action="UPDATE"),
    # ---- pending: CANCEL
    fail("dev-pend-x01", "됐어", F, "cancelled", original="카톡 알림 꺼줘", action="CANCEL"),
    fail("dev-pend-x02", "아 취소", C, "cancelled", original="인스타 알림 꺼줘", action="CANCEL"),
    fail("dev-pend-x03", "취소", G, "cancelled", original="슬랙 알림 받지마", action="CANCEL"),
    fail("dev-pend-x04", "그냥 하지 마", A, "cancelled", original="모든 알림 꺼줘", action="CANCEL"),
    fail("dev-pend-x05", "ㄴㄴ 됐어", D, "cancelled", original="카톡만 받아줘", action="CANCEL"),
    fail("dev-pend-x06", "안 할래", I, "cancelled", original="유튜브 알림 끄기", action="CANCEL"),
    fail("dev-pend-x07", "없던 걸로 해줘", E, "cancelled", original="문자만 받고 싶어", action="CANCEL"),
    fail("dev-pend-x08", "됐다 그냥", B, "cancelled", original="디코 알림 꺼줘", action="CANCEL"),
    fail("dev-pend-x09", "필요 없어", H, "cancelled", original="팀즈 알림 꺼줘", action="CANCEL"),
    # ---- pending: UNRESOLVED
    fail("dev-pend-r01", "음...", F, "incomplete", original="카톡 알림 꺼줘", action="UNRESOLVED"),
    fail("dev-pend-r02", "글쎄", C, "incomplete", original="인스타 알림 꺼줘", action="UNRESOLVED"),
    fail("dev-pend-r03", "잘 모르겠어", G, "incomplete", original="슬랙 알림 받지마", action="UNRESOLVED"),
    fail("dev-pend-r04", "응?", A, "incomplete", original="모든 알림 꺼줘", action="UNRESOLVED"),
    fail("dev-pend-r05", "어?", D, "incomplete", original="카톡만 받아줘", action="UNRESOLVED"),
    fail("dev-pend-r06", "흐음", I, "incomplete", original="유튜브 알림 끄기", action="UNRESOLVED"),
    fail("dev-pend-r07", "몰라", E, "incomplete", original="문자만 받고 싶어", action="UNRESOLVED"),
    fail("dev-pend-r08", "잠깐만", B, "incomplete", original="디코 알림 꺼줘", action="UNRESOLVED"),
    # ---- pending: NEW_REQUEST (a complete, unrelated command: extracted alone)
    ok("dev-pend-n01", "모든 알림 30분 동안 꺼줘", F, tgt(True), cond(F, "2026-09-16T13:35:00+09:00"), "duration", "all", original="카톡만 받아줘", action="NEW_REQUEST"),
    ok("dev-pend-n02", "매일 밤 11시부터 아침 7시까지 슬랙 알림 꺼줘", C, tgt(True, "Slack"), cond("2026-09-05T23:00:00+09:00", "2026-09-06T07:00:00+09:00", "daily", ws="23:00", we="07:00"), "daily", "single_app", original="인스타 알림 꺼줘", action="NEW_REQUEST"),
    ok("dev-pend-n03", "1시간 동안 전화만 받을게", A, tgt(False, "전화"), cond(A, "2026-08-14T22:30:00+09:00"), "duration", "single_app", original="슬랙 알림 받지마", action="NEW_REQUEST"),
    ok("dev-pend-n04", "'택배' 들어간 알림 자정까지 꺼줘", I, tgt(True, content=("택배",)), cond(I, "2026-08-21T00:00:00+09:00"), "until_absolute", "content", original="유튜브 알림 끄기", action="NEW_REQUEST"),
    ok("dev-pend-n05", "평일 오전 9시부터 오후 6시까지 인스타 꺼줘", G, tgt(True, "Instagram"), cond("2026-11-30T09:00:00+09:00", "2026-11-30T18:00:00+09:00", "weekly", [1, 2, 3, 4, 5], "09:00", "18:00"), "weekly", "single_app", original="카톡 알림 꺼줘", action="NEW_REQUEST"),
    ok("dev-pend-n06", "10분 뒤부터 30분 동안 문자만 받을래", E, tgt(False, "메시지"), cond("2026-10-04T02:30:00+09:00", "2026-10-04T03:00:00+09:00"), "relative_delay", "single_app", original="넷플 알림 꺼줘", action="NEW_REQUEST"),
    ok("dev-pend-n07", "매주 토요일 오전 10시부터 12시까지 모든 알림 꺼줘", H, tgt(True), cond("2026-03-07T10:00:00+09:00", "2026-03-07T12:00:00+09:00", "weekly", [6], "10:00", "12:00"), "weekly", "all", original="카톡 알림 꺼줘", action="NEW_REQUEST"),
    ok("dev-pend-n08", "쿠팡 광고 알림 1시간 동안 꺼줘", B, tgt(True, "쿠팡", content=("광고",)), cond(B, "2026-09-01T00:50:00+09:00"), "duration", "app_and_content", original="인스타만 받아줘", action="NEW_REQUEST"),
]


# --------------------------------------------------------------------------- TRAIN helpers


def at_next(now: str, hour: int, minute: int = 0) -> str:
    """The first hh:mm strictly after now (an explicit 오전/오후 time)."""
    n = datetime.fromisoformat(now)
    t = n.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if t <= n:
        t += timedelta(days=1)
    return t.isoformat()


def window(now: str, sh: int, sm: int, eh: int, em: int, days: list[int] | None = None
           ) -> tuple[str, str]:
    """The daily (or weekly, on `days`) occurrence in force at now, else the next one."""
    n = datetime.fromisoformat(now)
    base = n.replace(hour=sh, minute=sm, second=0, microsecond=0)
    length = (timedelta(hours=eh, minutes=em) - timedelta(hours=sh, minutes=sm)) % timedelta(days=1)
    for offset in range(-1, 9):
        start = base + timedelta(days=offset)
        if days and start.isoweekday() not in days:
            continue
        if start + length > n:
            return start.isoformat(), (start + length).isoformat()
    raise AssertionError("no occurrence")


# The helpers must agree with the hand-computed dev literals.
assert window(F, 23, 0, 7, 0) == ("2026-09-16T23:00:00+09:00", "2026-09-17T07:00:00+09:00")
assert window(E, 22, 0, 2, 0) == ("2026-10-04T22:00:00+09:00", "2026-10-05T02:00:00+09:00")
assert window(E, 1, 0, 6, 0) == ("2026-10-04T01:00:00+09:00", "2026-10-04T06:00:00+09:00")
assert window(C, 9, 0, 18, 0, [1, 2, 3, 4, 5]) == ("2026-09-07T09:00:00+09:00",
                                                  "2026-09-07T18:00:00+09:00")
assert window(A, 22, 0, 7, 0, [1, 2, 3, 4, 5]) == ("2026-08-14T22:00:00+09:00",
                                                  "2026-08-15T07:00:00+09:00")
assert window(H, 10, 0, 12, 0, [6]) == ("2026-03-07T10:00:00+09:00", "2026-03-07T12:00:00+09:00")
assert at_next(H, 14, 30) == "2026-03-01T14:30:00+09:00"
assert at_next(F, 18) == "2026-09-16T18:00:00+09:00"

T_NOWS = [
    "2026-03-09T08:20:00+09:00",  # Mon
    "2026-05-05T14:40:00+09:00",  # Tue (holiday)
    "2026-06-30T23:15:00+09:00",  # Tue, month end
    "2026-04-18T01:05:00+09:00",  # Sat small hours
    "2026-10-21T19:30:00+09:00",  # Wed evening
    "2026-01-31T11:55:00+09:00",  # Sat, month end
    "2026-07-26T06:10:00+09:00",  # Sun early
    "2026-11-13T17:45:00+09:00",  # Fri
]
T_APPS = [("카톡", "카카오톡"), ("카카오톡", "카카오톡"), ("문자", "메시지"), ("인스타", "Instagram"),
          ("인스타그램", "Instagram"), ("유튜브", "YouTube"), ("슬랙", "Slack"), ("디스코드", "Discord"),
          ("줌", "Zoom"), ("노션", "Notion"), ("배민", "배달의민족"), ("쿠팡이츠", "쿠팡이츠"),
          ("당근마켓", "당근"), ("토스", "토스"), ("카뱅", "카카오뱅크"), ("네이버", "네이버"),
          ("밴드", "밴드"), ("지메일", "Gmail"), ("캘린더", "캘린더"), ("멜론", "멜론"),
          ("스포티파이", "Spotify"), ("틱톡", "TikTok"), ("트위터", "X"), ("페이스북", "Facebook"),
          ("링크드인", "LinkedIn"), ("티맵", "TMAP"), ("카카오택시", "카카오 T"), ("무신사", "무신사"),
          ("지마켓", "G마켓"), ("네이버 웹툰", "네이버 웹툰"), ("카카오페이지", "카카오페이지"),
          ("삼성헬스", "Samsung Health"), ("플레이스토어", "Play 스토어"), ("전화", "전화")]
T_DURS = [("10분", 10), ("25분", 25), ("1시간", 60), ("2시간", 120), ("3시간 반", 210), ("45분", 45),
          ("6시간", 360), ("한 시간 반", 90), ("50분", 50), ("4시간", 240)]
T_MUTE_VERBS = ["꺼줘", "받지마", "막아줘", "무음으로 해줘", "차단해줘", "울리지 않게 해줘",
                "끄고 싶어", "좀 꺼줄래"]
T_ALLOW = ["만 받아줘", "만 울리게 해줘", "만 받을래", " 알림만 받고 싶어"]
T_KEYWORDS = ["주문", "결제", "마감", "과제", "세일", "당첨", "배달", "로그인"]
T_CHAT = ["배터리 몇 퍼센트야", "오늘 기분 어때", "노래 한 곡 불러줘", "점심 메뉴 골라줘",
          "지금 몇 시야?", "사랑해", "주말에 뭐 하지", "카톡 테마 바꾸는 법", "인스타 팔로워 늘리는 법",
          "알림 소리 너무 커", "유튜브 프리미엄 가격 알려줘", "슬랙이랑 팀즈 중에 뭐가 나아?",
          "내일 비 와?", "운동하기 싫다", "ㅠㅠ"]
T_CANCEL = ["취소할게", "아냐 됐어", "그만", "하지마 그냥", "관둘래"]
T_UNRES = ["음", "어...", "글쎄다", "방금 뭐라 했지", "ㅇ"]


def build_train(dev_prompts: set[str]) -> list[dict]:
    out: list[dict] = []
    seen = set(dev_prompts) | {k.split(" || ")[-1] for k in dev_prompts}

    def add(case: dict) -> None:
        key = case["input"]["prompt"]
        if case["input"]["pending"]:
            key = f"{case['input']['pendingOriginal']} || {key}"
        if key in seen or case["input"]["prompt"] in seen:
            return
        seen.add(key)
        case["id"] = f"train-{len(out) + 1:03d}"
        out.append(case)

    k = 0
    for i, (alias, label) in enumerate(T_APPS):  # duration, mute, single app
        for j in range(2):
            now = T_NOWS[(i + j) % len(T_NOWS)]
            d_txt, d_min = T_DURS[(i * 3 + j) % len(T_DURS)]
            verb = T_MUTE_VERBS[(i + 2 * j) % len(T_MUTE_VERBS)]
            prompt = f"{alias} 알림 {d_txt} 동안 {verb}" if j == 0 else f"{d_txt}만 {alias} {verb}"
            add(ok("", prompt, now, tgt(True, label), cond(now, plus(now, d_min)), "duration",
                   "single_app"))
            k += 1
    for i, (alias, label) in enumerate(T_APPS[:16]):  # duration, allow
        now = T_NOWS[(i + 3) % len(T_NOWS)]
        d_txt, d_min = T_DURS[(i + 5) % len(T_DURS)]
        add(ok("", f"{d_txt} 동안 {alias}{T_ALLOW[i % len(T_ALLOW)]}", now, tgt(False, label),
               cond(now, plus(now, d_min)), "duration", "single_app"))
    for i in range(12):  # two apps
        (a1, l1), (a2, l2) = T_APPS[i], T_APPS[-(i + 1)]
        if l1 == l2:
            continue
        now = T_NOWS[i % len(T_NOWS)]
        d_txt, d_min = T_DURS[(i + 1) % len(T_DURS)]
        add(ok("", f"{a1}, {a2} 알림 {d_txt} {T_MUTE_VERBS[i % 4]}", now, tgt(True, l1, l2),
               cond(now, plus(now, d_min)), "duration", "multi_app"))
    for i, kw in enumerate(T_KEYWORDS):  # content, and app + content
        now = T_NOWS[i % len(T_NOWS)]
        d_txt, d_min = T_DURS[(i + 2) % len(T_DURS)]
        add(ok("", f"'{kw}' 들어간 알림 {d_txt} 동안 꺼줘", now, tgt(True, content=(kw,)),
               cond(now, plus(now, d_min)), "duration", "content"))
        alias, label = T_APPS[(i * 5) % len(T_APPS)]
        add(ok("", f"{alias}에서 '{kw}' 들어간 알림 {d_txt} 받지마", now, tgt(True, label, content=(kw,)),
               cond(now, plus(now, d_min)), "duration", "app_and_content"))
    for i, (h_txt, hour) in enumerate([("오후 3시", 15), ("오전 10시", 10), ("오후 9시", 21),
                                        ("오전 7시 반", 7), ("오후 1시", 13), ("오후 11시", 23),
                                        ("오전 6시", 6), ("오후 5시 30분", 17)]):
        minute = 30 if ("반" in h_txt or "30분" in h_txt) else 0
        now = T_NOWS[(i + 1) % len(T_NOWS)]
        alias, label = T_APPS[(i * 7 + 2) % len(T_APPS)]
        add(ok("", f"{h_txt}까지 {alias} 알림 {T_MUTE_VERBS[i % len(T_MUTE_VERBS)]}", now,
               tgt(True, label), cond(now, at_next(now, hour, minute)), "until_absolute", "single_app"))
        add(ok("", f"{h_txt}까지 알림 전부 꺼줘" if i % 2 else f"{h_txt}까지 아무 알림도 받지마", now,
               tgt(True), cond(now, at_next(now, hour, minute)), "until_absolute", "all"))
    for i, (txt, sh, eh, days) in enumerate([
        ("매일 밤 11시부터 아침 6시까지", 23, 6, None), ("매일 오후 2시부터 3시까지", 14, 15, None),
        ("매일 새벽 2시부터 7시까지", 2, 7, None), ("매일 저녁 8시부터 10시까지", 20, 22, None),
        ("평일 오전 8시부터 오후 5시까지", 8, 17, [1, 2, 3, 4, 5]),
        ("주말 오전 9시부터 오후 1시까지", 9, 13, [6, 7]),
        ("매주 화목 오후 7시부터 9시까지", 19, 21, [2, 4]),
        ("매주 일요일 밤 10시부터 자정까지", 22, 0, [7]),
    ]):
        now = T_NOWS[(i + 2) % len(T_NOWS)]
        alias, label = T_APPS[(i * 3 + 1) % len(T_APPS)]
        d, e = window(now, sh, 0, eh, 0, days)
        rec = "weekly" if days else "daily"
        add(ok("", f"{txt} {alias} 알림 꺼줘", now, tgt(True, label),
               cond(d, e, rec, days, f"{sh:02d}:00", f"{eh:02d}:00"), rec, "single_app"))
    for i, txt in enumerate(T_CHAT):
        add(chat("", txt, T_NOWS[i % len(T_NOWS)]))
    for i, (alias, _label) in enumerate(T_APPS[:10]):
        now = T_NOWS[i % len(T_NOWS)]
        add(fail("", f"{alias} 알림 {T_MUTE_VERBS[i % len(T_MUTE_VERBS)]}", now, "incomplete",
                 intent="mute", shape="single_app"))
    for i, word in enumerate(T_CANCEL):
        add(fail("", word, T_NOWS[i], "cancelled", original=f"{T_APPS[i][0]} 알림 꺼줘",
                 action="CANCEL"))
    for i, word in enumerate(T_UNRES):
        add(fail("", word, T_NOWS[i + 1], "incomplete", original=f"{T_APPS[i + 5][0]} 알림 꺼줘",
                 action="UNRESOLVED"))
    for i, (d_txt, d_min) in enumerate(T_DURS[:6]):
        now = T_NOWS[i + 2]
        alias, label = T_APPS[i + 10]
        add(ok("", f"{d_txt}만", now, tgt(True, label), cond(now, plus(now, d_min)), "duration",
               "single_app", original=f"{alias} 알림 꺼줘", action="CONTINUE"))
    return out


def _turn_key(case: dict) -> str:
    inp = case["input"]
    return f"{inp['pendingOriginal']} || {inp['prompt']}" if inp.get("pending") else inp["prompt"]


def main() -> None:
    ids = [c["id"] for c in DEV]
    assert len(ids) == len(set(ids)), "duplicate dev ids"
    keys = [_turn_key(c) for c in DEV]
    assert len(keys) == len(set(keys)), "duplicate dev prompts"
    # Held-out texts of the gate must not leak into any training file either.
    heldout = HERE / "gate_heldout.jsonl"
    held = {json.loads(x)["text"] for x in heldout.read_text("utf-8").splitlines() if x.strip()} \
        if heldout.exists() else set()
    train = build_train(set(keys) | held)
    for name, cases in (("dev.jsonl", DEV), ("train.jsonl", train)):
        with (HERE / name).open("w", encoding="utf-8") as fh:
            for case in cases:
                fh.write(json.dumps(case, ensure_ascii=False) + "\n")
        print(f"{name}: {len(cases)} cases")  # noqa: T201 (a script run by hand)


if __name__ == "__main__":
    main()
