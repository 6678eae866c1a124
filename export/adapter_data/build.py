"""Assembling the set: families' drafts into examples, and the training / held-out sets.

`Generator` turns a family's draft into an `Example` (a surface variant, a device, the labels).
`build_examples` draws the training set (plus eval/data/train.jsonl's cases) and the held-out set,
dropping evaluation prompts and duplicates; `fresh_examples` draws new in-distribution examples.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path

from notillm_local.export.adapter_data.devices import (
    AppUniverse,
    apps_answer,
    custom_device,
    default_device,
    kws_answer,
)
from notillm_local.export.adapter_data.families import HELDOUT_FAMILIES, TRAIN_FAMILIES, Draft
from notillm_local.export.adapter_data.phrases import Draw
from notillm_local.export.adapter_data.records import (
    ALLOW_WORD,
    MUTE_WORD,
    NONE_WORD,
    OTHER_APP_WORD,
    SEED,
    TRAIN_FILE,
    Example,
    one_line,
    squash,
)
from notillm_local.export.adapter_data.surface import some_spaces_gone, spacing_free


class Generator:
    """Examples from the families, each with its device and its template's truth."""

    def __init__(self, rng: random.Random, universe: AppUniverse | None = None) -> None:
        self.u = universe or AppUniverse()
        self.r = rng
        self.d = Draw(self.u, rng)
        self.default = default_device(self.u)

    def example(self, family: str, fn: Callable[[Draw], Draft]) -> Example:
        r = self.r
        draft = fn(self.d)
        text = one_line(draft.text)
        tags = set(draft.tags)
        k = r.random()
        if k < 0.4:
            text = spacing_free(text)
            tags.add("nospace")
        elif k < 0.5:
            text = some_spaces_gone(text, r)
            tags.add("partial_space")
        # Custom lists: most sentences naming an app from outside the catalog, some others.
        foreign = any(not a.in_catalog and a.package for a in draft.apps)
        device = self.default
        if draft.apps and r.random() < (0.9 if foreign else 0.14):
            device = custom_device(self.u, draft.apps, r)
            tags.add("custom_list")
        apps = apps_answer(draft.apps, device)
        if OTHER_APP_WORD in apps.split(", "):
            tags.add("other_app")
        return Example(
            sentence=text,
            intent=MUTE_WORD if draft.mute else ALLOW_WORD,
            apps=apps,
            keywords=kws_answer(draft.keywords),
            source=f"family:{family}",
            installed=device.apps,
            tags=tuple(sorted(tags)),
        )


# --------------------------------------------------------------------------- the set


@dataclass
class BuildStats:
    drawn: int = 0
    eval_dropped: int = 0
    duplicate_dropped: int = 0
    train_cases: int = 0
    examples: int = 0
    heldout: int = 0
    families: dict[str, int] = field(default_factory=dict)
    heldout_families: dict[str, int] = field(default_factory=dict)
    tags: dict[str, int] = field(default_factory=dict)
    intents: dict[str, int] = field(default_factory=dict)
    app_items: dict[str, int] = field(default_factory=dict)
    keyword_items: dict[str, int] = field(default_factory=dict)


@dataclass
class TrainingSet:
    examples: list[Example]
    heldout: list[Example]
    stats: BuildStats
    seed: int

    @cached_property
    def sentences(self) -> set[str]:
        return {e.sentence for e in self.examples}

    def write_jsonl(self, path: Path, *, heldout: bool = False) -> None:
        rows = self.heldout if heldout else self.examples
        path.write_text(
            "".join(json.dumps(asdict(e), ensure_ascii=False) + "\n" for e in rows),
            encoding="utf-8",
        )


def _eval_prompts() -> set[str]:
    """`eval_prompts()` as the package exports it, looked up when called: patching
    `adapter_data.eval_prompts` (tests/test_adapter.py) patches what a build bans."""
    from notillm_local.export import adapter_data

    return adapter_data.eval_prompts()


def _train_cases(banned: set[str], stats: BuildStats) -> list[Example]:
    """eval/data/train.jsonl: its template-written expected answer (default catalog only)."""
    out: list[Example] = []
    if not TRAIN_FILE.is_file():
        return out
    for line in TRAIN_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        inp, exp = row["input"], row["expected"]
        tf = exp.get("targetFixed")
        if inp.get("installedApps") or inp.get("pending") or not tf:
            continue
        if squash(inp["prompt"]) in banned:
            stats.eval_dropped += 1
            continue
        out.append(Example(
            sentence=one_line(inp["prompt"]),
            intent=MUTE_WORD if tf.get("mute") else ALLOW_WORD,
            apps=", ".join(tf.get("name") or []) or NONE_WORD,
            keywords=", ".join(tf.get("content") or []) or NONE_WORD,
            source=f"train.jsonl:{row['id']}",
        ))
        stats.train_cases += 1
    return out


def _draw_family(r: random.Random) -> str:
    names = list(TRAIN_FAMILIES)
    return r.choices(names, weights=[TRAIN_FAMILIES[n][1] for n in names])[0]


def build_examples(n_synthetic: int, seed: int = SEED, n_heldout: int = 150) -> TrainingSet:
    """`n_synthetic` family examples plus the train.jsonl cases, shuffled; and `n_heldout`
    examples of the held-out families (its own random stream), never among the former."""
    rng = random.Random(seed)
    banned = _eval_prompts()
    stats = BuildStats()
    gen = Generator(rng)
    examples = _train_cases(banned, stats)
    seen = {squash(e.sentence) for e in examples}
    synthetic: list[Example] = []
    attempts = 0
    while len(synthetic) < n_synthetic and attempts < n_synthetic * 5:
        attempts += 1
        fam = _draw_family(rng)
        ex = gen.example(fam, TRAIN_FAMILIES[fam][0])
        stats.drawn += 1
        key = squash(ex.sentence)
        if key in banned:
            stats.eval_dropped += 1
            continue
        if key in seen:
            stats.duplicate_dropped += 1
            continue
        seen.add(key)
        synthetic.append(ex)
    examples.extend(synthetic)
    rng.shuffle(examples)

    hrng = random.Random(seed + 1)
    hgen = Generator(hrng, gen.u)
    heldout: list[Example] = []
    names = list(HELDOUT_FAMILIES)
    attempts = 0
    while len(heldout) < n_heldout and attempts < n_heldout * 5:
        fam = names[attempts % len(names)]
        attempts += 1
        ex = hgen.example(fam, HELDOUT_FAMILIES[fam])
        key = squash(ex.sentence)
        if key in banned or key in seen:
            continue
        seen.add(key)
        heldout.append(ex)

    stats.examples = len(examples)
    stats.heldout = len(heldout)
    stats.families = dict(Counter(e.family for e in examples).most_common())
    stats.heldout_families = dict(Counter(e.family for e in heldout).most_common())
    stats.tags = dict(Counter(t for e in examples for t in e.tags).most_common())
    stats.intents = dict(Counter(e.intent for e in examples).most_common())
    stats.app_items = dict(sorted(Counter(
        str(0 if e.apps == NONE_WORD else len(e.apps.split(", "))) for e in examples).items()))
    stats.keyword_items = dict(sorted(Counter(
        str(0 if e.keywords == NONE_WORD else len(e.keywords.split(", "))) for e in examples).items()))
    return TrainingSet(examples, heldout, stats, seed)


def fresh_examples(ts: TrainingSet, n: int, seed: int) -> list[Example]:
    """`n` new examples of the trained families, none in the training set nor an evaluation
    prompt: the in-distribution figure beside the held-out families'."""
    rng = random.Random(seed)
    gen = Generator(rng)
    banned = _eval_prompts() | {squash(e.sentence) for e in ts.examples + ts.heldout}
    out: list[Example] = []
    for _ in range(n * 5):
        if len(out) >= n:
            break
        fam = _draw_family(rng)
        ex = gen.example(fam, TRAIN_FAMILIES[fam][0])
        if squash(ex.sentence) not in banned:
            banned.add(squash(ex.sentence))
            out.append(ex)
    return out
