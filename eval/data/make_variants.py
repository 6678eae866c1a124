#!/usr/bin/env python3
"""Write spacing-free and seeded typo/noise variants of an evaluation file.

Standalone: standard library only, imports nothing from the project.

    python eval/data/make_variants.py IN.jsonl --nospace OUT.jsonl --noise OUT2.jsonl

--nospace  every `prompt` and `pendingOriginal` with all whitespace removed, except inside
           quotes ('...', "...", and the typographic pairs), which are kept as written.
           `expected` is unchanged; ids get the suffix `-nospace`.
--noise    a seeded, deterministic typo/noise variant of each `prompt` (pendingOriginal is left
           alone). Per case at most one edit: drop one space, add a trailing ㅋㅋ/ㅠㅠ/~/!!, repeat
           the final vowel of the closing verb as a jamo (꺼줘 -> 꺼줘ㅓ), or swap a verb ending
           for a colloquial one with the same meaning (해줘 -> 해조, 꺼줘 -> 꺼줭, 받지마 -> 받지마셈).
           App words, numbers, quoted keywords and time words are never touched, so `expected`
           stays valid. ids get the suffix `-noise`; tags gain `variant` (and `noise_op`).
--seed     the noise seed (default 20261201). Each case's choice depends only on the seed and the
           case id, so the output does not depend on the order of the input.
"""
import argparse
import json
import random
import re
import sys

DEFAULT_SEED = 20261201

QUOTE_PAIRS = {"'": "'", '"': '"', "\u2018": "\u2019", "\u201c": "\u201d"}


def split_quoted(text):
    """Split text into [(segment, is_quoted)], a quote opening only when it is closed later."""
    out, buf, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch in QUOTE_PAIRS:
            close = QUOTE_PAIRS[ch]
            j = text.find(close, i + 1)
            if j != -1:
                if buf:
                    out.append(("".join(buf), False))
                    buf = []
                out.append((text[i:j + 1], True))
                i = j + 1
                continue
        buf.append(ch)
        i += 1
    if buf:
        out.append(("".join(buf), False))
    return out


def remove_spaces(text):
    if text is None:
        return None
    return "".join(seg if quoted else re.sub(r"\s+", "", seg) for seg, quoted in split_quoted(text))


# ---------------------------------------------------------------- noise
# Words that must never be edited (a token containing one of them is left alone).
PROTECTED = [
    # catalog labels and common names for them
    "카카오", "카톡", "메시지", "문자", "메세지", "전화", "연락처", "스토어", "플레이", "설정", "캘린더", "달력",
    "시계", "알람", "노트", "갤러리", "사진", "메일", "지메일", "구글", "크롬", "인터넷", "유튜", "유튭", "유투",
    "지도", "네이버", "웹툰", "밴드", "카카오맵", "택시", "페이지", "뱅크", "카뱅", "토스", "스타뱅킹", "국민",
    "신한", "월렛", "페이", "쿠팡", "배민", "배달", "이츠", "당근", "무신사", "마켓", "인스타", "페북", "페이스북",
    "트위터", "틱톡", "스레드", "쓰레드", "디코", "디스코드", "슬랙", "팀즈", "줌", "노션", "링크드인", "넷플",
    "멜론", "스포티파이", "에타", "에브리타임", "티맵", "스마트싱스", "헬스", "워치", "웨어러블", "파일", "카메라",
    "라인", "텔레", "왓츠", "왓챠", "티빙", "웨이브", "요기요", "트위치", "번개", "아웃룩",
    # time words
    "시간", "분", "초", "시", "반", "일", "주", "달", "월", "년", "오전", "오후", "아침", "저녁", "점심", "낮", "밤",
    "새벽", "자정", "정오", "오늘", "내일", "모레", "어제", "매일", "매주", "평일", "주말", "요일", "까지", "부터",
    "동안", "뒤", "후", "전", "있다가", "지금", "이번", "다음", "지난",
]

# colloquial endings that keep the meaning (applied to the end of a whitespace token)
ENDING_SWAPS = [
    ("꺼주세요", ["꺼주세용"]),
    ("해주세요", ["해주세용"]),
    ("막아줘", ["막아조", "막아줭"]),
    ("받아줘", ["받아조", "받아줭"]),
    ("꺼줘", ["꺼줭", "꺼조", "꺼주셈"]),
    ("해줘", ["해조", "해줭", "해주셈"]),
    ("받지마", ["받지마셈", "받지말아줘"]),
    ("받을래", ["받을랭"]),
]
TRAILERS = ["ㅋㅋ", "ㅠㅠ", "~", "!!"]

# final vowel -> the jamo typed again (compound vowels give their last part: 줘 -> ㅓ)
JUNG_TO_JAMO = ["ㅏ", "ㅐ", "ㅑ", "ㅒ", "ㅓ", "ㅔ", "ㅕ", "ㅖ", "ㅗ", "ㅏ", "ㅐ", "ㅣ", "ㅛ", "ㅜ", "ㅓ", "ㅔ",
                "ㅣ", "ㅠ", "ㅡ", "ㅣ", "ㅣ"]
VERB_FINAL = re.compile(r"(줘|해|마|라|요|래|게|자|어|봐|줄래)$")
TIME_END = re.compile(r"([0-9]|시|분|간|반|일|주|까지|부터|am|pm|h|min|hour|hours|noon|midnight)$", re.I)


def _ends_protected(word):
    """True when the word ends in an app or time word (the edit would touch it)."""
    return any(word.endswith(p) for p in PROTECTED)


def _syllable_vowel(ch):
    code = ord(ch) - 0xAC00
    if not 0 <= code < 11172:
        return None, None
    jung = (code % 588) // 28
    jong = code % 28
    return jung, jong


def noise_options(prompt):
    """All (op, new_prompt) edits allowed for this prompt."""
    opts = []
    segs = split_quoted(prompt)
    # 1) drop one space: only between two Hangul/jamo characters outside quotes
    for si, (seg, quoted) in enumerate(segs):
        if quoted:
            continue
        for m in re.finditer(r"(?<=[\uac00-\ud7a3\u3131-\u318e]) (?=[\uac00-\ud7a3\u3131-\u318e])", seg):
            new = seg[:m.start()] + seg[m.end():]
            opts.append(("drop_space", "".join(s if k != si else new for k, (s, _) in enumerate(segs))))
    stripped = prompt.rstrip()
    # 2) trailing noise ("~" only after a verb, never after a time: "3시~" would read as "from 3")
    for tr in TRAILERS:
        if tr == "~" and TIME_END.search(stripped):
            continue
        opts.append(("trail", stripped + tr))
    # 3) repeat the final vowel of a closing verb (꺼줘 -> 꺼줘ㅓ); never after an app or time word
    if segs and not segs[-1][1]:
        m = re.search(r"([\uac00-\ud7a3]+)$", stripped)
        word = m.group(1) if m else ""
        if len(word) >= 2 and VERB_FINAL.search(word) and not _ends_protected(word):
            jung, jong = _syllable_vowel(word[-1])
            if jung is not None and jong == 0:
                opts.append(("double_vowel", stripped + JUNG_TO_JAMO[jung]))
    # 4) colloquial ending swap on any unquoted token
    for si, (seg, quoted) in enumerate(segs):
        if quoted:
            continue
        for m in re.finditer(r"\S+", seg):
            tok = m.group(0)
            core = tok.rstrip("?!.~")
            tail = tok[len(core):]
            for end, repls in ENDING_SWAPS:
                if core.endswith(end) and not _ends_protected(core):
                    stem = core[: -len(end)]
                    for r in repls:
                        new_seg = seg[:m.start()] + stem + r + tail + seg[m.end():]
                        opts.append(("ending", "".join(s if k != si else new_seg for k, (s, _) in enumerate(segs))))
                    break
    return [(op, p) for op, p in opts if p != prompt]


def noisy(prompt, rng):
    opts = noise_options(prompt)
    if not opts:
        return None, prompt
    ops = sorted({op for op, _ in opts})
    op = rng.choice(ops)
    choice = rng.choice([p for o, p in opts if o == op])
    return op, choice


# ---------------------------------------------------------------- io
def read_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                cases.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit("%s:%d: %s" % (path, n, e))
    return cases


def write_cases(path, cases):
    with open(path, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")


def make_nospace(cases):
    out = []
    for c in cases:
        c = json.loads(json.dumps(c))
        c["id"] = "%s-nospace" % c["id"]
        inp = c["input"]
        inp["prompt"] = remove_spaces(inp["prompt"])
        if inp.get("pendingOriginal") is not None:
            inp["pendingOriginal"] = remove_spaces(inp["pendingOriginal"])
        c.setdefault("tags", {})["variant"] = "nospace"
        out.append(c)
    return out


def make_noise(cases, seed):
    out = []
    for c in cases:
        c = json.loads(json.dumps(c))
        rng = random.Random("%s:%s" % (seed, c["id"]))
        op, new = noisy(c["input"]["prompt"], rng)
        c["id"] = "%s-noise" % c["id"]
        c["input"]["prompt"] = new
        tags = c.setdefault("tags", {})
        tags["variant"] = "noise"
        tags["noise_op"] = op or "none"
        out.append(c)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("--nospace", metavar="OUT")
    ap.add_argument("--noise", metavar="OUT2")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    a = ap.parse_args(argv)
    if not a.nospace and not a.noise:
        ap.error("give --nospace and/or --noise")
    cases = read_cases(a.input)
    if a.nospace:
        write_cases(a.nospace, make_nospace(cases))
        print("%s: %d cases" % (a.nospace, len(cases)))
    if a.noise:
        out = make_noise(cases, a.seed)
        write_cases(a.noise, out)
        changed = sum(1 for c in out if c["tags"]["noise_op"] != "none")
        print("%s: %d cases (%d changed)" % (a.noise, len(out), changed))


if __name__ == "__main__":
    main()
