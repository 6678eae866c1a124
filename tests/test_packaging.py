"""The package stands on its own: a wheel runs from anywhere, the repository reaches nowhere
outside itself, serving never imports the tooling, and modules stay small.

Real steps throughout: `pip wheel` of this checkout, `pip install --no-deps --target` into an
empty folder, the installed CLI answering a command and serving HTTP on loopback, compared
with the editable install's answer.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import free_port

REPO = Path(__file__).resolve().parent.parent
NOW = "2026-08-14T21:30:00+09:00"
PROMPT = "카톡은놔두고인스타랑유튜브만1시간꺼줘"


def _answer_without_latency(raw: str) -> dict:
    answer = json.loads(raw)
    answer["meta"].pop("latencyMs", None)
    return answer


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout built as a wheel and installed alone into an empty folder."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out / "dist"), str(REPO)],
        check=True, cwd=out, timeout=600,
    )
    wheels = list((out / "dist").glob("notillm_local-*.whl"))
    assert len(wheels) == 1, wheels
    target = out / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheels[0])],
        check=True, cwd=out, timeout=600,
    )
    return target


def _env(target: Path) -> dict[str, str]:
    # The installed copy first on the path; dependencies still come from this environment.
    env = dict(os.environ, PYTHONPATH=str(target))
    env.pop("NOTILLM_APPS_CATALOG", None)
    return env


def test_wheel_holds_the_resources(installed_wheel: Path) -> None:
    pkg = installed_wheel / "notillm_local"
    for rel in ("resources/grammars/intent.gbnf", "resources/apps_galaxy_ko.json",
                "resources/app_aliases.json", "resources/gate/gate.json",
                "resources/adapters/manifest.json", "lexicon/intent.json",
                "lexicon/time_en.json", "eval/data/dev.jsonl", "export/prepare.py"):
        assert (pkg / rel).is_file(), rel
    manifest = json.loads((pkg / "resources/adapters/manifest.json").read_text("utf-8"))
    assert (pkg / "resources/adapters" / manifest["file"]).stat().st_size == manifest["size"]


def test_installed_wheel_answers_like_the_checkout(installed_wheel: Path, tmp_path: Path) -> None:
    cmd = ["-m", "notillm_local.cli", "extract", PROMPT, "--now", NOW]
    where = subprocess.run(
        [sys.executable, "-c", "import notillm_local; print(notillm_local.__file__)"],
        env=_env(installed_wheel), cwd=tmp_path, capture_output=True, text=True, check=True,
    )
    assert where.stdout.strip().startswith(str(installed_wheel)), where.stdout
    wheel = subprocess.run([sys.executable, *cmd], env=_env(installed_wheel), cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert wheel.returncode == 0, wheel.stderr[-2000:]
    editable = subprocess.run([sys.executable, *cmd], cwd=REPO, capture_output=True, text=True,
                              timeout=300)
    assert editable.returncode == 0, editable.stderr[-2000:]
    got = _answer_without_latency(wheel.stdout)
    assert got == _answer_without_latency(editable.stdout)
    assert got["ok"] and got["targetFixed"]["name"] == ["Instagram", "YouTube"]


def test_installed_wheel_serves(installed_wheel: Path, tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "notillm_local.cli", "serve", "--port", str(port)],
        env=_env(installed_wheel), cwd=tmp_path, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as r:
                    health = json.loads(r.read())
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read() if proc.stderr else ""
                    raise AssertionError(f"serve did not come up: {err[-2000:]}") from None
                time.sleep(0.5)
        assert health["status"] == "ok"
        body = json.dumps({"prompt": PROMPT, "currentTime": NOW}).encode()
        req = urllib.request.Request(f"{base}/v1/handle", data=body,
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            answer = json.loads(r.read())
        assert answer["ok"] and answer["targetFixed"]["name"] == ["Instagram", "YouTube"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# --------------------------------------------------------------------------- boundaries

_OUTSIDE = re.compile(r"\.\./shared|(?<![\w.])/work/|shared/contract|/root/\.cache|/home/\w+/")
_SCANNED = ("README.md", "docs", "server", "tests", "scripts", "eval", "export", ".ci",
            "pyproject.toml")


def test_nothing_refers_to_a_path_outside_the_repository() -> None:
    offenders = []
    for entry in _SCANNED:
        root = REPO / entry
        files = [root] if root.is_file() else [
            p for p in root.rglob("*")
            if p.is_file() and not any(part.startswith((".", "__pycache__"))
                                       for part in p.relative_to(REPO).parts)
        ]
        for path in files:
            if path.suffix not in (".py", ".md", ".sh", ".toml", ".json", ".txt", "") or (
                path == Path(__file__).resolve()
            ):
                continue
            if path.suffix == ".json" and path.stat().st_size > 2_000_000:
                continue
            text = path.read_text("utf-8", errors="ignore")
            for m in _OUTSIDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                offenders.append(f"{path.relative_to(REPO)}:{line}: {m.group(0)}")
    assert not offenders, "\n".join(offenders[:30])


def test_serving_never_imports_the_tooling() -> None:
    code = (
        "import sys\n"
        "from notillm_local.api.app import create_app\n"
        "from notillm_local.service import build_service\n"
        "from notillm_local.settings import Settings\n"
        "from notillm_local.contract.schemas import HandleRequest\n"
        "s = Settings()\n"
        "svc = build_service(s)\n"
        "create_app(s, svc)\n"
        f"svc.handle(HandleRequest(prompt='카톡 2시간', currentTime='{NOW}'))\n"
        "svc.close()\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('notillm_local.eval',"
        " 'notillm_local.export', 'sklearn', 'torch', 'matplotlib', 'tqdm', 'transformers')))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(p.relative_to(REPO)): n
        for root in ("server", "eval", "export")
        for p in (REPO / root).rglob("*.py")
        if (n := len(p.read_text("utf-8").splitlines())) > 600
    }
    assert not long, long
