"""Mapper v2 on the real encoder and the default Galaxy catalog."""

from __future__ import annotations

import json

import numpy as np
import pytest

from notillm_local import resources
from notillm_local.domain import AppRef
from notillm_local.export.app_matcher_fit import evaluate_pairs, read_alias_pairs, read_catalog
from notillm_local.models.encoder import OnnxSentenceEncoder
from notillm_local.stages.app_embed import EmbeddingAppMatcher, SynonymGroups

# Measured 0.955 on the 243 pairs (docs/encoder.md); the floor leaves room for kernel drift.
TOP1_FLOOR = 0.93


@pytest.fixture(scope="module")
def matcher(encoder: OnnxSentenceEncoder) -> EmbeddingAppMatcher:
    return EmbeddingAppMatcher(encoder)


@pytest.fixture(scope="module")
def catalog() -> list[AppRef]:
    return read_catalog()


@pytest.mark.parametrize(("word", "label"), [
    ("문자", "메시지"), ("플레이스토어", "Play 스토어"), ("카톡", "카카오톡"), ("유튜브", "YouTube"),
    ("인스타", "Instagram"), ("슬랙 앱", "Slack"), ("SMS", "메시지"),
])
def test_known_words(matcher: EmbeddingAppMatcher, catalog: list[AppRef], word: str,
                     label: str) -> None:
    hit = matcher.match(word, catalog)
    assert hit is not None and hit.app.label == label, hit


@pytest.mark.parametrize("word", ["라인", "텔레그램", "왓츠앱", "위챗", "트위치"])
def test_not_installed_is_none(matcher: EmbeddingAppMatcher, catalog: list[AppRef],
                               word: str) -> None:
    assert matcher.match(word, catalog) is None


def test_embedding_alone_fixes_the_seed_failure(encoder: OnnxSentenceEncoder,
                                                catalog: list[AppRef]) -> None:
    bare = EmbeddingAppMatcher(encoder, synonyms=SynonymGroups([]))
    hit = bare.match("플레이스토어", catalog)
    assert hit is not None and hit.app.label == "Play 스토어" and hit.method == "embedding"


def test_only_installed_apps_are_candidates(matcher: EmbeddingAppMatcher) -> None:
    installed = [AppRef("카카오톡", "com.kakao.talk"), AppRef("메시지", "com.samsung.android.messaging")]
    assert matcher.match("유튜브", installed) is None
    hit = matcher.match("카톡", installed)
    assert hit is not None and hit.app.package == "com.kakao.talk"


def test_alias_set_top1(matcher: EmbeddingAppMatcher, catalog: list[AppRef]) -> None:
    pairs = read_alias_pairs()
    assert len(pairs) >= 150
    assert sum(label is None for _, label in pairs) >= 20
    result = evaluate_pairs(matcher, pairs, catalog)
    assert result["accuracy"] >= TOP1_FLOOR, result["errors"]
    # a wrong app silently mutes the wrong thing; the fitted threshold allows almost none
    wrong = [e for e in result["errors"] if e["got"] is not None]
    assert len(wrong) <= 2, wrong


def test_label_embeddings_cached(encoder: OnnxSentenceEncoder, catalog: list[AppRef]) -> None:
    calls: list[int] = []

    class Counting:
        model_id = encoder.model_id

        def embed(self, texts, kind="query"):  # type: ignore[no-untyped-def]
            calls.append(len(texts))
            return encoder.embed(texts, kind)

    m = EmbeddingAppMatcher(Counting(), threshold=0.9, margin=0.04)  # type: ignore[arg-type]
    m.warm(catalog)
    after_warm = len(calls)
    for _ in range(3):
        m.match("배달 앱", catalog)
    # one batch for the word's expansions; the catalog labels are never embedded again
    assert len(calls) == after_warm + 1
    assert calls[0] == len(catalog)


def test_fitted_values_live_in_the_config_file() -> None:
    cfg = json.loads(resources.path("app_matcher.json").read_text("utf-8"))
    assert 0.8 <= cfg["threshold"] < 1.0 and 0.0 <= cfg["margin"] < 0.2
    m_scores = np.array([cfg["threshold"], cfg["margin"]])
    assert np.all(np.isfinite(m_scores))


@pytest.mark.parametrize("word", ["쥬르르", "쥬르르앱", "뽀로롱", "모모플러스"])
def test_a_made_up_word_leads_to_no_app(
    matcher: EmbeddingAppMatcher, catalog: list[AppRef], word: str
) -> None:
    # The check on a model that names an app for a word no table knows: nothing leads.
    assert matcher.leader(word, catalog, 0.01) is None


def test_a_transliteration_leads_to_its_app(
    matcher: EmbeddingAppMatcher, catalog: list[AppRef]
) -> None:
    signal = AppRef(label="Signal", package="org.thoughtcrime.securesms")
    apps = [*catalog, signal, signal]  # listed twice: still one app
    assert matcher.leader("시그널", apps, 0.01) == signal
