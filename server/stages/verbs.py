"""The command's verbs: which intent cues a turn says (mute, allow, both or neither), where they
stand, and the rule's sense when the cues settle it. A step of `RuleSlotReader`."""

from __future__ import annotations

from notillm_local import lexicon
from notillm_local.stages.clauses import allow_cue_in, mute_cue, negates_cue, tails
from notillm_local.stages.draft import Draft
from notillm_local.stages.words import words


def read_intent(text: str, d: Draft) -> None:
    """The command's verbs: their spans, which senses are said, and the rule's sense when one is."""
    # "놔두고", "남겨두고" mark apps kept out of the rule, not a verb of the rule itself.
    keep = lexicon.pattern("markers", "keep")
    verb = lexicon.pattern("markers", "kept_by_verb.verb")
    ws = words(text)
    for i, w in enumerate(ws):
        before = ws[i - 1].text if i else ""
        for f in tails(w.text):
            stem = w.text[: len(w.text) - len(f)]
            # "켜 해두고", "꺼두고", "꺼 두고": a verb left as it is (두다), not "X 두고" keeping X
            # out.
            if not keep.fullmatch(f) or stem.endswith(("해", "켜", "꺼")) or (
                not stem and before.endswith(("해", "꺼"))
            ):
                continue
            # "X만 켜 두고 다 꺼" (the respacer sets "두고" apart too): both words keep X out,
            # and the command's verb is the other one.
            start = ws[i - 1].start if not stem and verb.fullmatch(before) else w.start
            text = text[:start] + " " * (w.end - start) + text[w.end :]
            break
        else:
            if i + 1 < len(ws) and keep.fullmatch(f"{w.text} {ws[i + 1].text}"):
                # A keep marker of two words ("켜둔 채로", "예외로 두고") is no verb of the rule.
                end = ws[i + 1].end
                text = text[: w.start] + " " * (end - w.start) + text[end:]
    d.cue_spans = [
        (m.start(), m.end())
        for rx in (mute_cue(), lexicon.pattern("intent", "allow"))
        for m in rx.finditer(text)
    ]
    muted = bool(mute_cue().search(text))
    # Blank the mute cues before looking for allow cues: "받지마" must not read as "받",
    # nor "안 받을래" as "받을래"; a mark, not a space, so "알림 꺼 줘" is no "알림 줘".
    unmuted = mute_cue().sub(lambda m: "#" * len(m.group(0)), text)
    allowed = allow_cue_in(unmuted)
    d.cues = (muted, allowed)
    negated = negates_cue(text)
    if muted and not allowed and not negated:
        d.mute = True
    elif allowed and not muted and not negated:
        d.mute = False
    elif muted and allowed:
        # "카톡은 받고 나머지는 꺼줘": the kept part is what gets through.
        if lexicon.pattern("intent", "kept_part").search(text) and lexicon.pattern(
            "markers", "all"
        ).search(text):
            d.mute = False
        else:
            d.unsure.add("intent")
            d.both_ways = True
    else:
        d.unsure.add("intent")
