"""The LoRA adapter: its training data is labelled by the templates that wrote it, never holds an
evaluation prompt nor a held-out family; the shipped file is the one its manifest names and, on
top of the base GGUF, answers a command in the grammar."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from notillm_local.export import adapter_data as ad
from notillm_local.export.adapter_data import (
    ADAPTER_PREFIX,
    HELDOUT_FAMILIES,
    HELDOUT_MARKERS,
    MAX_ITEMS,
    TRAIN_FAMILIES,
    AppUniverse,
    Device,
    Draw,
    Example,
    apps_answer,
    build_examples,
    default_device,
    device_of,
    eval_files,
    eval_prompts,
    fam_allow_except,
    fam_exclude_mute,
    fam_kw_allow,
    fam_mute_all,
    fam_reason,
    kws_answer,
    squash,
)
from notillm_local.models.catalog import adapters_dir, sha256_of, shipped_adapter_path

ADAPTERS_DIR = adapters_dir()
MANIFEST = ADAPTERS_DIR / "manifest.json"


def _manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def universe() -> AppUniverse:
    return AppUniverse()


@pytest.fixture(scope="module")
def shipped_set():
    """The generator's set at the shipped manifest's n and seed (for a manifest written by
    train_adapter.py, exactly the set the shipped adapter was trained on)."""
    cmd = _manifest()["training_data"]
    n = int(cmd.split("n_synthetic=")[1].split(",")[0])
    seed = int(cmd.split("seed=")[1].split(")")[0])
    return build_examples(n, seed=seed)


# --------------------------------------------------------------------------- evaluation prompts


def test_eval_prompts_cover_every_evaluation_file() -> None:
    files = {p.name for p in eval_files()}
    for name in ("dev.jsonl", "holdout.jsonl", "holdout2.jsonl", "natural_a.jsonl",
                 "natural_b.jsonl", "rough.jsonl", "examples.jsonl", "dev_nospace.jsonl",
                 "holdout_nospace.jsonl", "holdout2_nospace.jsonl", "dev_noise.jsonl",
                 "gate_heldout.jsonl", "gate_train.jsonl"):
        assert name in files, name
    assert "train.jsonl" not in files
    banned = eval_prompts()
    for path in eval_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            inp = row.get("input", row)
            text = inp.get("prompt") or inp.get("text") or inp.get("word")
            assert squash(text) in banned
            if inp.get("pendingOriginal"):
                assert squash(inp["pendingOriginal"]) in banned


def test_no_evaluation_prompt_is_in_the_training_data(shipped_set) -> None:
    banned = eval_prompts()
    assert len(banned) > 1000
    # Whitespace-insensitive: a spacing-free variant of an evaluation prompt is the same prompt.
    leaked = [e.sentence for e in shipped_set.examples + shipped_set.heldout
              if squash(e.sentence) in banned]
    assert not leaked, leaked[:10]


def test_build_drops_a_sentence_that_is_an_evaluation_prompt(monkeypatch) -> None:
    first = build_examples(80, seed=5, n_heldout=6)
    victim = next(e.sentence for e in first.examples if e.source.startswith("family:"))
    spaced_differently = " ".join(victim.replace(" ", ""))  # same prompt, other spacing
    real = ad.eval_prompts
    monkeypatch.setattr(ad, "eval_prompts", lambda files=None: real(files) | {squash(spaced_differently)})
    again = build_examples(80, seed=5, n_heldout=6)
    assert victim not in again.sentences
    assert again.stats.eval_dropped == first.stats.eval_dropped + 1


def test_generator_is_deterministic() -> None:
    a = build_examples(150, seed=11, n_heldout=9)
    b = build_examples(150, seed=11, n_heldout=9)
    assert a.examples == b.examples and a.heldout == b.heldout
    assert build_examples(150, seed=12, n_heldout=9).examples != a.examples


# --------------------------------------------------------------------------- labels = templates


class _Fixed(random.Random):
    """Every draw the same: random() is `x`, choices take the first element."""

    def __init__(self, x: float) -> None:
        super().__init__(0)
        self.x = x

    def random(self) -> float:
        return self.x

    def choice(self, seq):  # type: ignore[override]
        return seq[0]

    def choices(self, population, weights=None, *, cum_weights=None, k=1):  # type: ignore[override]
        return [population[0]] * k

    def randint(self, a: int, b: int) -> int:
        return a

    def shuffle(self, x, *args) -> None:  # type: ignore[override]
        pass


class _Scripted(Draw):
    """A Draw whose apps, words and time are given: the family writes the rest."""

    def __init__(self, u: AppUniverse, x: float, groups: list[list[str]]) -> None:
        super().__init__(u, _Fixed(x))
        self.groups = [[u.apps[k] for k in g] for g in groups]

    def apps(self, n, *, avoid=()):  # type: ignore[override]
        return self.groups.pop(0)

    def word_for(self, app, tags):  # type: ignore[override]
        return app.words[0]

    def time(self, tags):  # type: ignore[override]
        return "2시간"


def _answers(draft, device: Device) -> tuple[str, str, str]:
    return ("끄기" if draft.mute else "허용", apps_answer(draft.apps, device),
            kws_answer(draft.keywords))


# (family, random value, app groups) → the sentence it writes and the truth written by hand.
HAND_WRITTEN = [
    (fam_exclude_mute, 0.0, [["카카오톡"], ["Instagram", "YouTube"]],
     "2시간 카톡 앱은 놔두고 인스타 유튜브만 꺼즈어", ("끄기", "Instagram, YouTube", "없음")),
    (fam_exclude_mute, 0.99, [["카카오톡"], ["Instagram", "YouTube"]],
     "카톡 말고 인스타나 유튜브 알림 꺼줘 2시간", ("끄기", "Instagram, YouTube", "없음")),
    (fam_allow_except, 0.0, [["Slack"]],
     "2시간 슬랙 앱 알림 빼고 다 꺼즈어", ("허용", "Slack", "없음")),
    (fam_reason, 0.0, [["카카오톡"]],
     "과제 마감이라 그런데 2시간 카톡 앱은 메시지 알림 꺼즈어", ("끄기", "카카오톡", "없음")),
    (fam_kw_allow, 0.99, [],
     "'회식' 들어간 알림만 받을래 2시간", ("허용", "없음", "회식")),
    (fam_mute_all, 0.99, [], "방해 금지 2시간", ("끄기", "없음", "없음")),
]


@pytest.mark.parametrize(("family", "x", "groups", "sentence", "truth"), HAND_WRITTEN)
def test_label_is_the_templates_own_truth(universe, family, x, groups, sentence, truth) -> None:
    draft = family(_Scripted(universe, x, groups))
    assert draft.text == sentence
    assert _answers(draft, default_device(universe)) == truth


def test_apps_map_to_the_examples_own_installed_list(universe) -> None:
    wa, kakao, line = universe.apps["WhatsApp"], universe.apps["카카오톡"], universe.apps["LINE"]
    # The default catalog has no WhatsApp: "기타", one per missing app, in the order named.
    assert apps_answer([wa, kakao, line], default_device(universe)) == "기타, 카카오톡, 기타"
    # An English device: each app by the table's one name for it (the model cannot see the
    # list), which the serving grammar admits for that device's app.
    custom = device_of(universe, (("WhatsApp", "com.whatsapp"), ("KakaoTalk", "com.kakao.talk")),
                       {"WhatsApp": "WhatsApp", "카카오톡": "KakaoTalk"})
    assert apps_answer([wa, kakao, line], custom) == "WhatsApp, 카카오톡, 기타"
    assert apps_answer([kakao, kakao], custom) == "카카오톡"  # 카톡 단톡 → one app
    assert apps_answer([], custom) == "없음"
    hangul = device_of(universe, (("왓츠앱", "com.whatsapp"),), {"WhatsApp": "왓츠앱"})
    assert apps_answer([wa], hangul) == "WhatsApp"
    # A name the table does not know: the device's own label where it has the app, else 기타.
    strava = next(a for a in universe.unknown if a.key == "Strava")
    assert not strava.in_table
    has = device_of(universe, (("Strava", "com.strava"),), {"Strava": "Strava"})
    assert apps_answer([strava], has) == "Strava"
    assert apps_answer([strava], default_device(universe)) == "기타"


def test_every_answer_is_one_the_grammars_admit(shipped_set, universe) -> None:
    from notillm_local.domain import AppRef
    from notillm_local.stages.apps import InstalledIndex, load_catalog

    default = InstalledIndex.of(load_catalog())
    for e in shipped_set.examples + shipped_set.heldout:
        assert e.intent in ("끄기", "허용")
        index = InstalledIndex.of(AppRef(lb, p) for lb, p in e.installed) if e.installed else default
        # What the serving apps grammar admits on this device: its labels and the table's names
        # for its apps (SlotExtractor._ask_model).
        admitted = set(index.labels) | set(universe.mapper.answer_names(index))
        if e.apps != "없음":
            items = e.apps.split(", ")
            assert 1 <= len(items) <= MAX_ITEMS, e
            assert all(i == "기타" or i in admitted for i in items), e
        if e.keywords != "없음":
            kws = e.keywords.split(", ")
            assert 1 <= len(kws) <= MAX_ITEMS and all(k and "," not in k for k in kws), e
            squashed = squash(e.sentence)
            assert all(squash(k) in squashed for k in kws), e  # the user's own words
        assert "\n" not in e.sentence


def test_the_data_has_the_variety(shipped_set) -> None:
    st = shipped_set.stats
    n = st.examples
    assert st.tags["nospace"] / n > 0.3
    for tag in ("custom_list", "other_app", "reason", "numword", "time_en", "app_typo",
                "verb_typo", "english", "latin_app", "remark", "fragment"):
        assert st.tags.get(tag, 0) >= 30, tag
    assert max(int(k) for k in st.app_items) == 6
    assert set(st.families) == set(TRAIN_FAMILIES) | {"train.jsonl"}


def test_heldout_families_are_absent_from_training(shipped_set) -> None:
    assert {e.family for e in shipped_set.heldout} == set(HELDOUT_FAMILIES)
    assert not {e.family for e in shipped_set.examples} & set(HELDOUT_FAMILIES)
    for e in shipped_set.heldout:
        assert HELDOUT_MARKERS[e.family].search(squash(e.sentence)), e
    # Not even the frame: no training sentence reads like a held-out family.
    for e in shipped_set.examples:
        for fam, marker in HELDOUT_MARKERS.items():
            assert not marker.search(squash(e.sentence)), (fam, e.sentence)
    assert not shipped_set.sentences & {e.sentence for e in shipped_set.heldout}


def test_record_layout_is_the_serving_one() -> None:
    e = Example("카톡 2시간 꺼줘", "끄기", "카카오톡", "없음", "family:mute_apps")
    assert e.text() == (ADAPTER_PREFIX + "\n문장: 카톡 2시간 꺼줘\n의도: 끄기\n앱: 카카오톡\n키워드: 없음\n")
    assert e.answers == (" 끄기\n", " 카카오톡\n", " 없음\n")
    assert e.separators == ("앱:", "키워드:")


# --------------------------------------------------------------------------- shipped files


def test_shipped_adapter_matches_its_manifest(shipped_set) -> None:
    m = _manifest()
    path = ADAPTERS_DIR / m["file"]
    assert path.stat().st_size == m["size"] <= 20 * 1024 * 1024
    assert sha256_of(path) == m["sha256"]
    assert shipped_adapter_path() == path
    assert (ADAPTERS_DIR / "prefix.txt").read_text(encoding="utf-8") == ADAPTER_PREFIX
    assert "Gemma Terms of Use" in m["licence"]
    if "data_stats" in m:
        # Written by today's train_adapter.py (the issue-7 adapter's manifest predates it): its
        # data stats are those of the set the tests rebuild from its n and seed.
        assert "never by the code reader" in m["training_data"]
        assert m["data_stats"]["examples"] == shipped_set.stats.examples
        assert m["data_stats"]["families"] == shipped_set.stats.families
        assert sorted(m["heldout_families"]) == sorted(HELDOUT_FAMILIES)


def test_cli_has_the_one_command(tmp_path: Path) -> None:
    from notillm_local.cli import build_parser
    from notillm_local.export.train_adapter import options_from

    args = build_parser().parse_args(
        ["train-adapter", "--out", str(tmp_path), "--minutes", "2", "--examples", "100"])
    opts = options_from(args)
    assert (opts.out, opts.minutes, opts.examples) == (tmp_path, 2.0, 100)
    assert args.func.__name__ == "cmd_train_adapter"


@pytest.mark.slow
def test_adapter_loads_on_the_base_model_and_answers_in_the_grammar(gguf_path: Path, universe) -> None:
    from notillm_local.export.compare_adapter import score_slots

    cases = [
        Example("3시간 동안 인스타 알림 꺼줘", "끄기", "Instagram", "없음", "family:mute_apps"),
        Example("카톡 빼고 다 꺼줘 오후 3시까지만", "허용", "카카오톡", "없음", "family:allow_except"),
    ]
    banned = eval_prompts()
    assert not [c for c in cases if squash(c.sentence) in banned]
    out = score_slots(cases, gguf_path, shipped_adapter_path(), ADAPTER_PREFIX)
    assert out["summary"]["intent"] == 1.0 and out["summary"]["apps"] == 1.0, out["rows"]
