"""Code's reading of slots, on the real alias table (no model involved)."""

from __future__ import annotations

import pytest

from notillm_local.domain import AppMatch, AppRef
from notillm_local.stages.apps import InstalledIndex
from notillm_local.stages.slots import RuleSlotReader, peel


@pytest.fixture(scope="module")
def reader(table_mapper) -> RuleSlotReader:
    return RuleSlotReader(table_mapper)


def labels(reading) -> list[str]:
    return [a.label for a in reading.app_refs()]


@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        ("카톡 알림 받지마", True, ["카카오톡"]),
        ("문자만 받아줘", False, ["메시지"]),
        ("슬랙 빼고 다 꺼줘", False, ["Slack"]),
        ("카톡 빼고 다 받을래", True, ["카카오톡"]),
        ("인스타랑 페이스북 알림 막아줘", True, ["Instagram", "Facebook"]),
        ("플레이스토어 업데이트 알림 받지마", True, ["Play 스토어"]),
        ("유튜브 조용히 해줘", True, ["YouTube"]),
        ("전화만 울리게 해줘", False, ["전화"]),
        ("네이버 지도 알림 꺼줘", True, ["네이버 지도"]),
        ("카톡은 받고 나머지는 다 꺼줘", False, ["카카오톡"]),
    ],
)
def test_intent_and_apps(reader, default_index, text: str, mute: bool, apps: list[str]) -> None:
    r = reader.read(text, default_index)
    assert r.mute is mute
    assert labels(r) == apps
    assert "intent" not in r.unsure


def test_generic_message_word_is_not_an_app_next_to_another_app(reader, default_index) -> None:
    r = reader.read("카톡 메세지 알림 받지마", default_index)
    assert labels(r) == ["카카오톡"]
    assert r.content == ()


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("문자에서 '스팸'이라는 단어가 들어간 알림 받지마", ["스팸"]),
        ("'쿠폰' 들어간 알림 꺼줘", ["쿠폰"]),
        ("광고라는 단어 포함된 알림 막아줘", ["광고"]),
        ("문자 스팸 알림 받지마", ["스팸"]),
    ],
)
def test_keywords(reader, default_index, text: str, content: list[str]) -> None:
    assert list(reader.read(text, default_index).content) == content


def test_app_not_installed_is_unresolved(reader, default_index) -> None:
    r = reader.read("라인 알림 꺼줘", default_index)
    assert [u.word for u in r.unresolved] == ["라인"]
    assert r.apps == ()


def test_only_the_requests_installed_apps_count(reader, table_mapper) -> None:
    from notillm_local.domain import AppRef
    from notillm_local.stages.apps import InstalledIndex

    only_slack = InstalledIndex.of([AppRef("Slack", "com.Slack")])
    r = reader.read("카톡 알림 꺼줘", only_slack)
    assert r.apps == () and [u.known_as for u in r.unresolved] == ["카카오톡"]


def test_english_label_for_the_same_package_still_maps(reader) -> None:
    from notillm_local.domain import AppRef
    from notillm_local.stages.apps import InstalledIndex

    english = InstalledIndex.of([AppRef("KakaoTalk", "com.kakao.talk")])
    r = reader.read("카톡 꺼줘", english)
    assert labels(r) == ["KakaoTalk"]


def test_unsure_when_no_intent_word(reader, default_index) -> None:
    r = reader.read("카톡", default_index)
    assert "intent" in r.unsure and r.mute is None


def test_activity_and_location(reader, default_index) -> None:
    r = reader.read("운전 중에 카톡 꺼줘", default_index)
    assert r.activity == "driving"
    r = reader.read("회사에서 인스타 알림 꺼줘", default_index)
    assert r.location == "work"
    assert reader.read("잠깐 카톡 꺼줘", default_index).activity is None


def test_peel_keeps_whole_words_first() -> None:
    assert peel("카톡만") == ["카톡만", "카톡"]
    assert peel("모든")[0] == "모든"


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("'광고'라는 말 들어간 알림 다 막아", ["광고"]),
        ("카톡에서 '단톡' 들어가는 알림 무음", ["단톡"]),
    ],
)
def test_keyword_frames_leave_no_residue(reader, default_index, text: str, content: list[str]) -> None:
    assert list(reader.read(text, default_index).content) == content


def test_model_keyword_choices_include_words_of_a_spacing_free_command(
    reader, default_index
) -> None:
    # Model mode lets the model name keywords only from the prompt's own words; typed without
    # spaces, "광고" exists only in the re-spaced text.
    from notillm_local.engines.grammars import GrammarSet
    from notillm_local.settings import ExtractorMode
    from notillm_local.stages.extract import SlotExtractor

    extractor = SlotExtractor(reader, None, GrammarSet.load(), ExtractorMode.RULES)
    words = extractor.keyword_candidates("인스타광고알림      꺼줘", default_index)
    assert "광고" in words and "인스타" in words
    assert "시간" not in words  # time words were blanked before


@pytest.mark.parametrize(
    "text",
    ["모든 알림 다 끄고 모든 알림 다 켜줘", "알림 다 끄고 다 켜줘", "전부 켜놓고 전부 꺼줘"],
)
def test_everything_muted_and_allowed_is_a_contradiction(reader, default_index, text) -> None:
    # Found by natural_b's first run: the model turned the first into "allow everything".
    assert reader.read(text, default_index).contradicts


def test_one_clause_of_everything_is_no_contradiction(reader, default_index) -> None:
    r = reader.read("카톡은 받고 나머지는 다 꺼줘", default_index)
    assert not r.contradicts and r.mute is False


# Found by natural_d's first run (docs/reading.md): the pieces a verb leaves when it is split,
# polite or typed with a stray letter are its ending, not words to ask about.
@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        ("유튜브 인스타 꺼 죠", True, ["YouTube", "Instagram"]),
        ("쿠팡지마켓무신사당근알림꺼둘래", True, ["쿠팡", "G마켓", "무신사", "당근"]),
        ("카톡알림 꺼주세욥ㅂ", True, ["카카오톡"]),
        ("카톡 꺼주세용", True, ["카카오톡"]),
        ("폰 조용히 부탁드려요", True, []),
        ("알림 다 거줘", True, []),  # ㄲ typed as ㄱ
        ("카톡 받게 해줘용", False, ["카카오톡"]),
    ],
)
def test_verb_ending_pieces_are_read(reader, default_index, text: str, mute: bool, apps) -> None:
    r = reader.read(text, default_index)
    assert r.mute is mute and labels(r) == apps
    assert r.unknown_words == () and r.unresolved == ()


def test_a_stuck_on_keyword_frame(reader, default_index) -> None:
    r = reader.read("문자 중에 '광고' 붙은 거 꺼줘", default_index)
    assert labels(r) == ["메시지"] and r.content == ("광고",) and r.unknown_words == ()


def test_an_ordinary_word_ending_in_geo_is_no_verb(reader, default_index) -> None:
    # "거줘" is a typo of 꺼줘 only as a word of its own.
    r = reader.read("이거줘", default_index)
    assert r.mute is None


# Found by natural_e's first run (docs/reading.md): exception words, remarks and endings that
# were split, dropped or read as a keyword.
@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        # "살려두고" is one keep marker, not the allow verb "살려" + "두고" (Discord was muted).
        ("디코는 살려두고 유튭이랑 틱톡만 꺼줘", True, ["YouTube", "TikTok"]),
        ("디코는살려두고유튭이랑틱톡만꺼줘", True, ["YouTube", "TikTok"]),
        # "나머지 앱 알림 다" is one phrase: no contradiction.
        ("넷플만 받고 나머지 앱 알림 다 꺼", False, ["Netflix"]),
        ("줌 알림 받게 해주고 나머진 다 꺼", False, ["Zoom"]),
        # a count of the apps just named, a polite ending
        ("카톡 인스타 페북 틱톡 4개 다 차단", True, ["카카오톡", "Instagram", "Facebook", "TikTok"]),
        ("쥐마켓 무신싸 알림 꺼주셔요", True, ["G마켓", "무신사"]),
        ("알림 다 꺼주실래요", True, []),
        # a remark before the command is context, its topic word no keyword
        ("ㅋㅋㅋ 친구들 난리났네 카톡 꺼", True, ["카카오톡"]),
        ("운동하러감 전화빼고 다 꺼놔줘", False, ["전화"]),
    ],
)
def test_natural_e_phrasings_are_read(reader, default_index, text: str, mute: bool, apps) -> None:
    r = reader.read(text, default_index)
    assert r.mute is mute and labels(r) == apps
    assert r.unknown_words == () and r.unresolved == () and r.content == ()
    assert not r.contradicts


def test_an_opener_is_no_keyword(reader, default_index) -> None:
    # "그거보다" (rather than that) had left "보다" as a keyword of the rule.
    r = reader.read("음 그거보다 '마감' 들어간 슬랙 알림만 받게 해줘", default_index)
    assert r.content == ("마감",) and labels(r) == ["Slack"] and r.unknown_words == ()
    r = reader.read("그건 이따 생각하고 전화만 받을래", default_index)
    assert labels(r) == ["전화"] and r.unknown_words == ()


def test_a_device_label_with_an_edition_mark(table_mapper) -> None:
    # The device shows 영웅문 as "영웅문S#"; the table knows the app only by its Korean names.
    device = InstalledIndex.of([AppRef("영웅문S#", "com.kiwoom.heromts"), AppRef("토스", "viva.republica.toss")])
    found = table_mapper.lookup("영웅문", device)
    assert isinstance(found, AppMatch) and found.app.label == "영웅문S#"


@pytest.mark.parametrize(
    ("text", "apps"),
    [
        # natural_d's last open wrong rule: "배달" became a keyword of the rule.
        ("배민만 울리게 해줘 배달 기다리는 중", ["배달의민족"]),
        ("팀즈꺼줘휴가야", ["Microsoft Teams"]),
        ("카톡 꺼줘 새해 인사 폭탄 싫어", ["카카오톡"]),
        ("카톡 꺼줘 광고 때문에 미치겠어", ["카카오톡"]),
        ("알림 전부 꺼줘 쉬고 싶다ㅠㅠ", []),
    ],
)
def test_a_remark_after_the_command_is_context(reader, default_index, text: str, apps) -> None:
    r = reader.read(text, default_index)
    assert labels(r) == apps and r.content == () and r.unknown_words == ()


def test_words_after_the_verb_are_still_read_without_a_remark(reader, default_index) -> None:
    r = reader.read("꺼줘 카톡이랑 슬랙", default_index)
    assert labels(r) == ["카카오톡", "Slack"] and r.mute is True
    r = reader.read("알림 꺼줘 '광고' 들어간 거", default_index)
    assert r.content == ("광고",)


@pytest.mark.parametrize(("word", "app"), [("카똑", "카카오톡"), ("까톡", "카카오톡"), ("쓸랙", "Slack")])
def test_an_initial_said_harder_is_the_same_app(table_mapper, default_index, word, app) -> None:
    found = table_mapper.lookup(word, default_index) or table_mapper.resolve(word, default_index)
    assert isinstance(found, AppMatch) and found.app.label == app


def test_a_topic_word_said_harder_stays_a_keyword(reader, default_index) -> None:
    # "카드" is one initial from the alias "카트", but it is a topic word (docs/reading.md).
    r = reader.read("카드 알림 꺼줘", default_index)
    assert r.content == ("카드",) and r.apps == ()


@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        # A clause ending closes its word in a spacing-free run, so the reason clause is seen.
        ("공부해야돼서알림다꺼줘", True, []),
        ("운전중이라티맵만받고나머지꺼줘", False, ["TMAP"]),
    ],
)
def test_clause_endings_split_a_glued_run(reader, default_index, text: str, mute: bool, apps) -> None:
    r = reader.read(text, default_index)
    assert r.mute is mute and labels(r) == apps and r.unknown_words == ()


@pytest.mark.parametrize(
    ("text", "apps"),
    [("공부좀하게 인스타 틱톡 막아줘", ["Instagram", "TikTok"]), ("새해 카운트다운 보게 알림 다 꺼", [])],
)
def test_a_purpose_clause_is_context(reader, default_index, text: str, apps) -> None:
    r = reader.read(text, default_index)
    assert r.mute is True and labels(r) == apps and r.unknown_words == ()


@pytest.mark.parametrize("text", ["알림 오지 않게 해줘", "카톡 조용하게 해줘", "카톡 안 울리게"])
def test_the_commands_own_ge_verb_is_no_purpose_clause(reader, default_index, text: str) -> None:
    r = reader.read(text, default_index)
    assert r.mute is True and r.unknown_words == ()


@pytest.mark.parametrize(
    ("text", "mute", "apps"),
    [
        # Misspelt apps before the exception word are kept out too (natural_f: Slack and Teams
        # were muted — a wrong rule).
        ("쓸랙 팀쯔 빼고 다 막아주쇼", False, ["Slack", "Microsoft Teams"]),
        ("애기재우는중이야1시간동안전화빼곤다조용하게", False, ["전화"]),
        ("카톡은 그대로 두고 페북 인스타만 차단", True, ["Facebook", "Instagram"]),
    ],
)
def test_exception_words_as_people_type_them(reader, default_index, text: str, mute: bool, apps) -> None:
    r = reader.read(text.replace("1시간동안", ""), default_index)
    assert r.mute is mute and labels(r) == apps and r.unknown_words == ()
