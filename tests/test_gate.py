"""The chitchat gate on the real encoder: held-out accuracy, routing, and encoder pinning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notillm_local.errors import ModelLoadError
from notillm_local.eval import data_path
from notillm_local.export.gate_train import evaluate_gate, train_gate
from notillm_local.models.encoder import OnnxSentenceEncoder
from notillm_local.stages.gate import LogisticChitchatGate, default_gate_path

CONTRACT_EXAMPLES = data_path("examples.jsonl")
DEFAULT_GATE_PATH = default_gate_path()
DEFAULT_HELDOUT_PATH = data_path("gate_heldout.jsonl")
DEFAULT_TRAIN_PATH = data_path("gate_train.jsonl")
REPO = Path(__file__).resolve().parent.parent
HELDOUT_FLOOR = 0.98


@pytest.fixture(scope="module")
def gate(encoder: OnnxSentenceEncoder) -> LogisticChitchatGate:
    return LogisticChitchatGate(DEFAULT_GATE_PATH, encoder)


def test_heldout_accuracy(gate: LogisticChitchatGate) -> None:
    result = evaluate_gate(gate, DEFAULT_HELDOUT_PATH)
    assert result["n"] >= 100
    # Issue 4 asks for 0.98. Measured 0.9933 (148/149, resources/gate/report.md) with the
    # reduce-range int8 encoder of issue 14 (1.000 with the previous export; 0.973 before the
    # training file gained sound/vibration phrasings).
    assert result["accuracy"] >= HELDOUT_FLOOR, result["errors"]
    # rejected commands are the expensive error; measured 1 ("90분 G마켓는 소리 안 나게 해줘")
    assert result["confusion"]["rows_true_cols_pred"][1][0] <= 1


@pytest.mark.parametrize("text", ["안녕", "ㅎㅎ", "오늘 날씨 어때?", "고마워", "ㅋㅋㅋ 대박",
                                  "점심 뭐 먹을까?", "알림 설정은 어디서 해?"])
def test_chitchat_rejected(gate: LogisticChitchatGate, text: str) -> None:
    d = gate.decide(text)
    assert d.chitchat, d


@pytest.mark.parametrize("text", [
    "지금부터 2시간 카톡 알림 받지마", "카톡만 받아줘", "매일 밤 10시부터 새벽 4시까지 조용히",
    "'쿠폰' 들어간 알림 3시간 동안 꺼줘", "30분 동안 전화만 받을게", "라인 알림 1시간 꺼줘",
    "주말 아침 7시부터 11시까지 슬랙 꺼줘",
])
def test_commands_pass(gate: LogisticChitchatGate, text: str) -> None:
    d = gate.decide(text)
    assert not d.chitchat, d
    assert d.p_command > gate.threshold


def test_contract_examples_routed(gate: LogisticChitchatGate) -> None:
    for line in CONTRACT_EXAMPLES.read_text("utf-8").splitlines():
        case = json.loads(line)
        if case["input"]["pending"]:
            continue  # the gate only sees first turns
        want_reject = case["expected"].get("dialogIntent") == "reject"
        assert gate.decide(case["input"]["prompt"]).chitchat == want_reject, case["id"]


def _tampered(tmp_path: Path, **encoder_fields: str) -> Path:
    data = json.loads(DEFAULT_GATE_PATH.read_text("utf-8"))
    data["encoder"].update(encoder_fields)
    out = tmp_path / "gate.json"
    out.write_text(json.dumps(data), "utf-8")
    return out


def test_mismatched_encoder_hash_refused(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="retrain"):
        LogisticChitchatGate(_tampered(tmp_path, weights_hash="0" * 64), encoder)


def test_mismatched_encoder_id_refused(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError):
        LogisticChitchatGate(_tampered(tmp_path, model_id="some-other-encoder"), encoder)


def test_missing_or_garbage_gate_refused(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError):
        LogisticChitchatGate(tmp_path / "absent.json", encoder)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    with pytest.raises(ModelLoadError):
        LogisticChitchatGate(bad, encoder)


def test_saved_gate_is_plain_json_with_provenance() -> None:
    data = json.loads(DEFAULT_GATE_PATH.read_text("utf-8"))
    import hashlib

    assert data["train_data"]["sha256"] == hashlib.sha256(DEFAULT_TRAIN_PATH.read_bytes()).hexdigest()
    assert len(data["coef"]) == 384 and 0 < data["threshold"] <= 0.5


def test_train_gate_roundtrip(encoder: OnnxSentenceEncoder, tmp_path: Path) -> None:
    out = tmp_path / "gate.json"
    metrics = train_gate(encoder, DEFAULT_TRAIN_PATH, out, heldout_path=DEFAULT_HELDOUT_PATH,
                         report_path=tmp_path / "report.md")
    assert metrics["n_train"] >= 300
    assert metrics["heldout"]["accuracy"] >= HELDOUT_FLOOR
    assert (tmp_path / "report.md").read_text("utf-8").startswith("# Chitchat gate report")
    assert LogisticChitchatGate(out, encoder).decide("안녕").chitchat


def test_training_data_kept_apart() -> None:
    def prompts(path: Path) -> set[str]:
        out = set()
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.add((row.get("text") or row["input"]["prompt"]).strip())
        return out

    train = prompts(DEFAULT_TRAIN_PATH)
    assert len(train) >= 300
    assert not train & prompts(DEFAULT_HELDOUT_PATH)
    for other in (REPO / "eval" / "data" / "dev.jsonl", CONTRACT_EXAMPLES):
        if other.is_file():
            assert not train & prompts(other), other
