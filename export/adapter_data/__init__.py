"""Training data for the LoRA adapter: template commands labelled by their own templates.

Every example is a Korean command, the device's installed-app list it is answered for, and the
three slot answers the extractor asks the local model for (intent, apps, keywords), in exactly
the text the grammars admit. A *family* (a sentence frame: "X 빼고 다 꺼줘", "'kw' 들어간 알림만
받을래", …) draws its slots — app identities, keywords, reason clauses, time phrases — and
writes the sentence around them; the label is what the family put in, never what the project's
code reads back out. So the model can learn what the code reader gets wrong (spacing-free text,
typos, number words, reason clauses, six apps, apps outside the default catalog).

Labels are the *final rule*: 끄기 = mute the named target, 허용 = only it gets through. App items
are the labels of the example's own installed list (the default catalog, or a custom list with
English/Korean labels and apps from outside the catalog), in the order the user named them; an
app the device lacks is "기타", one per such app. Keywords are the user's own words (particles
peeled) a notification must contain; reason/context clauses and generic nouns never are.

Whole families are held out (`HELDOUT_FAMILIES`): they are generated only into the held-out
set, which measures how the adapter does on phrasings it never saw. No sentence equals,
whitespace-insensitively, any prompt of any file in eval/data/ other than train.jsonl
(`eval_prompts`, enforced in `build_examples`, checked by tests/test_adapter.py).

The package is split by role; each module says what it holds:

- ``records``: the prompt prefix and record layout, the answer words, ``Example``, and the
  evaluation prompts no sentence may equal (``eval_prompts``);
- ``devices``: the apps the generator names (``AppUniverse``), the installed lists examples are
  answered for (``Device``), and the apps / keywords answers;
- ``surface``: particles, app-name typos, Latin case, spacing-free and partly spaced variants;
- ``phrases``: the phrase banks, time phrases, and ``Draw`` (the random choices over them);
- ``families``: ``Draft`` and the template families, trained and held out;
- ``build``: ``Generator``, ``build_examples`` and ``fresh_examples``.
"""

from __future__ import annotations

from notillm_local.export.adapter_data.build import (
    BuildStats,
    Generator,
    TrainingSet,
    build_examples,
    fresh_examples,
)
from notillm_local.export.adapter_data.devices import (
    App,
    AppUniverse,
    Device,
    apps_answer,
    custom_device,
    default_device,
    device_of,
    kws_answer,
)
from notillm_local.export.adapter_data.families import (
    HELDOUT_FAMILIES,
    HELDOUT_MARKERS,
    TRAIN_FAMILIES,
    Draft,
    fam_allow_except,
    fam_allow_only,
    fam_app_kw,
    fam_english,
    fam_exclude_mute,
    fam_fragment,
    fam_kept_rest,
    fam_kw_allow,
    fam_kw_except,
    fam_kw_mute,
    fam_mute_all,
    fam_mute_apps,
    fam_mute_only,
    fam_question,
    fam_reason,
    fam_remark,
    fam_state,
    fam_topic,
    fam_wish,
)
from notillm_local.export.adapter_data.phrases import (
    Draw,
    time_phrase,
)
from notillm_local.export.adapter_data.records import (
    ADAPTER_PREFIX,
    ALLOW_WORD,
    EVAL_DIR,
    MAX_ITEMS,
    MUTE_WORD,
    NONE_WORD,
    OTHER_APP_WORD,
    SEED,
    TRAIN_FILE,
    Example,
    eval_files,
    eval_prompts,
    one_line,
    record_prompt,
    squash,
)
from notillm_local.export.adapter_data.surface import (
    app_typo,
    latin_case,
    some_spaces_gone,
    spacing_free,
)

__all__ = [
    "ADAPTER_PREFIX",
    "ALLOW_WORD",
    "App",
    "AppUniverse",
    "BuildStats",
    "Device",
    "Draft",
    "Draw",
    "EVAL_DIR",
    "Example",
    "Generator",
    "HELDOUT_FAMILIES",
    "HELDOUT_MARKERS",
    "MAX_ITEMS",
    "MUTE_WORD",
    "NONE_WORD",
    "OTHER_APP_WORD",
    "SEED",
    "TRAIN_FAMILIES",
    "TRAIN_FILE",
    "TrainingSet",
    "app_typo",
    "apps_answer",
    "build_examples",
    "custom_device",
    "default_device",
    "device_of",
    "eval_files",
    "eval_prompts",
    "fam_allow_except",
    "fam_allow_only",
    "fam_app_kw",
    "fam_english",
    "fam_exclude_mute",
    "fam_fragment",
    "fam_kept_rest",
    "fam_kw_allow",
    "fam_kw_except",
    "fam_kw_mute",
    "fam_mute_all",
    "fam_mute_apps",
    "fam_mute_only",
    "fam_question",
    "fam_reason",
    "fam_remark",
    "fam_state",
    "fam_topic",
    "fam_wish",
    "fresh_examples",
    "kws_answer",
    "latin_case",
    "one_line",
    "record_prompt",
    "some_spaces_gone",
    "spacing_free",
    "squash",
    "time_phrase",
]
