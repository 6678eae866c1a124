"""The built-in playground (`GET /`) in a real headless Chromium against a real server.

Debian's `chromium` and `chromium-driver` (apt; scripts/test.sh installs them) are driven with
selenium. Nothing here skips: without the browser the tests fail and say how to install it.
The server is a real uvicorn on loopback around the session's real service (real models).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from notillm_local import resources
from notillm_local.api.app import create_app
from notillm_local.api.page import PUBLIC_PAGE_PATHS
from notillm_local.contract.schemas import (
    Condition,
    HandleRequest,
    HandleResponse,
    TargetFixed,
    Trace,
    TraceGate,
    TraceSlot,
    TraceSpan,
    TraceStage,
)
from notillm_local.service import Service
from notillm_local.settings import EngineMode, Settings
from tests.conftest import LiveServer, free_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Without the background-networking flags Chromium tries the (closed) network at start-up.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1800",
    "--lang=ko-KR",
]
NOW = "2026-08-14T21:30:00+09:00"  # a Friday
XSS = "<img src=x onerror=window.__xss=1>"
WAIT_S = 90.0  # a cold model call on two shared cores can take a while


class RecordingService:
    """The real service, remembering each request; `rewrite` may change the answer."""

    def __init__(
        self,
        inner: Service,
        rewrite: Callable[[HandleResponse], HandleResponse] | None = None,
        engine: str | None = None,
    ) -> None:
        self.inner = inner
        self.rewrite = rewrite
        self.requests: list[HandleRequest] = []
        self._engine = engine

    def handle(self, req: HandleRequest) -> HandleResponse:
        self.requests.append(req)
        resp = self.inner.handle(req)
        return self.rewrite(resp) if self.rewrite else resp

    @property
    def engine(self) -> str:
        return self._engine or self.inner.engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(
            f"browser tests need {', '.join(missing)}: "
            "apt-get install -y chromium chromium-driver (scripts/test.sh does this)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=DriverService(executable_path=str(CHROMEDRIVER)),
                              options=opts)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def _serve(settings: Settings, service: Any) -> LiveServer:
    return LiveServer(create_app(settings, service), free_port())


@pytest.fixture(scope="module")
def recorder(service: Service) -> RecordingService:
    return RecordingService(service)


@pytest.fixture(scope="module")
def page_server(settings: Settings, recorder: RecordingService) -> Iterator[LiveServer]:
    with _serve(settings, recorder) as srv:
        yield srv


# --------------------------------------------------------------------------- page helpers


def wait_for(driver: Any, condition: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = condition()
        if last:
            return last
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; page said: {text(driver, 'error')!r}")


def js(driver: Any, script: str, *args: Any) -> Any:
    return driver.execute_script(script, *args)


def text(driver: Any, element_id: str) -> str:
    """textContent (also of hidden elements), as the DOM holds it."""
    return str(js(driver, "const e = document.getElementById(arguments[0]);"
                          "return e ? e.textContent : null;", element_id) or "")


def visible(driver: Any, element_id: str) -> bool:
    return bool(js(driver, "const e = document.getElementById(arguments[0]);"
                           "return !!e && !e.hidden && e.offsetParent !== null;", element_id))


def open_page(driver: Any, server: LiveServer, *, catalog: bool = True) -> None:
    driver.get(server.url + "/")
    wait_for(driver, lambda: js(driver, "return document.body.dataset.ready === '1'"), "page",
             timeout=20)
    if catalog:  # the default app catalog fills the editor
        wait_for(driver, lambda: text_value(driver, "apps").startswith("["), "catalog")
    set_value(driver, "now", NOW)


def text_value(driver: Any, element_id: str) -> str:
    return str(js(driver, "return document.getElementById(arguments[0]).value", element_id))


def set_value(driver: Any, element_id: str, value: str) -> None:
    js(driver, "document.getElementById(arguments[0]).value = arguments[1]", element_id, value)


def send(driver: Any, prompt: str) -> None:
    """Type a command and click Send like a user; wait until the answer (or error) is in."""
    done = int(js(driver, "return Number(document.body.dataset.done || 0)"))
    set_value(driver, "prompt", prompt)
    driver.find_element("id", "send").click()
    wait_for(driver, lambda: int(js(driver, "return Number(document.body.dataset.done || 0)"))
             > done, f"the answer to {prompt!r}")


def rule(driver: Any) -> dict[str, Any]:
    return dict(json.loads(text(driver, "rule-json")))


def svg_text(driver: Any, css_class: str) -> str:
    return str(js(driver, "const e = document.querySelector('#timeline .' + arguments[0]);"
                          "return e ? e.textContent : null;", css_class) or "")


# --------------------------------------------------------------------------- plain HTTP


def test_page_files_are_served_with_a_strict_policy(page_server: LiveServer) -> None:
    r = httpx.get(page_server.url + "/", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp and "*" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert '<script src="/page/app.js"' in r.text and "http" not in r.text.split("<body>")[0]
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        asset = httpx.get(f"{page_server.url}/page/{name}", timeout=10)
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind)
        assert "innerHTML" not in asset.text and "insertAdjacentHTML" not in asset.text
    catalog = httpx.get(page_server.url + "/page/apps.json", timeout=10).json()
    shipped = json.loads(resources.path("apps_galaxy_ko.json").read_text(encoding="utf-8"))
    assert catalog == shipped
    assert httpx.get(page_server.url + "/page/..%2Fsettings.py", timeout=10).status_code == 404
    assert httpx.get(page_server.url + "/page/index.html", timeout=10).status_code == 404
    spec = httpx.get(page_server.url + "/openapi.json", timeout=10).json()
    assert "/" not in spec["paths"] and not any(p.startswith("/page") for p in spec["paths"])
    assert PUBLIC_PAGE_PATHS == {"/", "/page/app.js", "/page/style.css"}


# --------------------------------------------------------------------------- in the browser


def test_command_renders_rule_and_timeline(
    browser: Any, page_server: LiveServer, recorder: RecordingService
) -> None:
    open_page(browser, page_server)
    send(browser, "지금부터 2시간 카톡 알림 받지마")
    assert visible(browser, "answer") and not visible(browser, "error")
    assert "카카오톡" in text(browser, "message")
    shown = rule(browser)
    assert shown["targetFixed"] == {"mute": True, "all": False, "name": ["카카오톡"],
                                    "content": [], "packages": ["com.kakao.talk"]}
    assert shown["condition"]["delivery"] == NOW
    assert shown["condition"]["expires"] == "2026-08-14T23:30:00+09:00"
    assert svg_text(browser, "tl-delivery") == "delivery Fri 08-14 21:30"
    assert svg_text(browser, "tl-expires") == "expires Fri 08-14 23:30"
    assert svg_text(browser, "tl-len") == "2 h"
    assert not visible(browser, "week")  # a one-off rule has no week strip
    # The why view shows the sentence and the calls, whatever the trace holds.
    assert visible(browser, "why")
    assert "지금부터 2시간 카톡 알림 받지마" in text(browser, "why-text")
    assert "local" in text(browser, "calls")
    # The trace's spans are drawn over the sentence: the app word and the time are marked.
    marks = js(browser, "return [...document.querySelectorAll('#why-text p mark')]"
                        ".map(m => [m.dataset.kind, m.textContent, m.title])")
    assert any(k == "app" and t == "카톡" and "카카오톡" in title for k, t, title in marks)
    assert any(k == "time" and "2시간" in t for k, t, _ in marks)
    assert "decided by" in text(browser, "slots") and " ms" in text(browser, "stages")
    sent = recorder.requests[-1]
    assert sent.trace is True and sent.pending is False and sent.installedApps
    assert sent.currentTime.isoformat() == NOW


def test_daily_window_is_drawn_on_the_week_strip(browser: Any, page_server: LiveServer) -> None:
    open_page(browser, page_server)
    send(browser, "매일 밤 10시부터 아침 6시까지 모든 알림 꺼줘")
    cond = rule(browser)["condition"]
    assert (cond["recurrence"], cond["window_start"], cond["window_end"]) == (
        "daily", "22:00", "06:00")
    # The timeline shows the occurrence in force now or the next one: tonight 22:00 to 06:00.
    assert svg_text(browser, "tl-delivery") == "delivery Fri 08-14 22:00"
    assert svg_text(browser, "tl-expires") == "expires Sat 08-15 06:00"
    assert visible(browser, "week")
    # Overnight on every day: 22:00-24:00 on the day and 00:00-06:00 on the next, 7 times.
    days = js(browser, "return [...document.querySelectorAll('#week .wk-window')]"
                       ".map(r => Number(r.getAttribute('data-day')))")
    assert sorted(days) == sorted(list(range(1, 8)) * 2)
    assert "every day, 22:00–06:00" in text(browser, "week")


def test_follow_up_sends_a_pending_turn(
    browser: Any, page_server: LiveServer, recorder: RecordingService
) -> None:
    open_page(browser, page_server)
    send(browser, "카톡 알림 꺼줘")
    assert "needs more" in text(browser, "badges")
    assert text(browser, "message")  # the question
    assert text(browser, "rule-json") == "no rule (incomplete)"
    assert visible(browser, "pending-banner")
    assert text(browser, "pending-original") == "카톡 알림 꺼줘"

    send(browser, "1시간")
    sent = recorder.requests[-1]
    assert sent.prompt == "1시간" and sent.pending is True
    assert sent.pendingOriginal == "카톡 알림 꺼줘"
    shown_request = json.loads(text(browser, "request-json"))
    assert shown_request["pending"] is True and shown_request["pendingOriginal"] == "카톡 알림 꺼줘"
    shown = rule(browser)
    assert shown["targetFixed"]["name"] == ["카카오톡"] and shown["targetFixed"]["mute"] is True
    assert shown["condition"]["expires"] == "2026-08-14T22:30:00+09:00"
    assert svg_text(browser, "tl-expires") == "expires Fri 08-14 22:30"
    assert not visible(browser, "pending-banner")


def test_bad_input_is_a_readable_error(browser: Any, page_server: LiveServer) -> None:
    open_page(browser, page_server)
    set_value(browser, "now", "2026-08-14T21:30:00")  # no offset: the service refuses (422)
    send(browser, "지금부터 2시간 카톡 알림 받지마")
    assert visible(browser, "error")
    shown = text(browser, "error")
    assert "could not read this request (422)" in shown
    assert "currentTime" in shown and "offset" in shown

    set_value(browser, "now", NOW)
    set_value(browser, "apps", "[{not json")
    send(browser, "지금부터 2시간 카톡 알림 받지마")
    assert "Installed apps is not valid JSON" in text(browser, "error")


def test_answer_text_is_never_html(
    browser: Any, settings: Settings, service: Service
) -> None:
    # The real answer, with markup put into every text the page shows from it.
    def poison(resp: HandleResponse) -> HandleResponse:
        meta = resp.meta.model_copy(update={
            "model": XSS, "reason": XSS,
            "trace": Trace(
                spans=[TraceSpan(start=0, end=len(XSS), text=XSS, kind="app", label=XSS)],
                slots=[TraceSlot(slot="target", decidedBy="model", value=XSS, note=XSS)],
                gate=TraceGate(pCommand=0.9, threshold=0.5, chitchat=False),
                stages=[TraceStage(name=XSS, ms=1.0)], timeAxis=XSS, timeOutcome=XSS,
            ),
        })
        return resp.model_copy(update={
            "ok": True, "message": XSS, "meta": meta,
            "targetFixed": TargetFixed(mute=True, all=False, name=[XSS], content=[XSS],
                                       packages=["com.kakao.talk"]),
            "condition": Condition(delivery=NOW, expires="2026-08-14T23:30:00+09:00",
                                   recurrence="weekly", days_of_week=[5],
                                   window_start=XSS, window_end=XSS),
        })

    with _serve(settings, RecordingService(service, rewrite=poison)) as srv:
        open_page(browser, srv)
        send(browser, f"{XSS} 지금부터 2시간 알림 받지마")
        assert text(browser, "message") == XSS
        assert XSS in text(browser, "rule-json") and XSS in text(browser, "week")
        assert XSS in text(browser, "why-text") and XSS in text(browser, "calls")
        assert XSS in text(browser, "slots") and XSS in text(browser, "stages")
        marks = js(browser, "return [...document.querySelectorAll('#why-text mark')]"
                            ".map(m => [m.textContent, m.title])")
        assert marks[0] == [XSS, f"app: {XSS} (read by code)"]
        assert XSS in text(browser, "history")
        assert js(browser, "return document.querySelectorAll('img').length") == 0
        time.sleep(0.3)  # an onerror handler would have run by now
        assert js(browser, "return window.__xss === undefined") is True


def test_token_prompt_when_a_token_is_set(browser: Any, service: Service) -> None:
    token = "s3cret-page-token"
    recording = RecordingService(service)
    with _serve(Settings(api_token=token), recording) as srv:
        # The page itself loads without the token (a browser cannot send one when it navigates).
        open_page(browser, srv, catalog=False)
        js(browser, "sessionStorage.clear()")
        browser.refresh()
        wait_for(browser, lambda: visible(browser, "token-panel"), "the token prompt")
        assert "API token" in text(browser, "token-panel")

        # A send without the token: a readable 401, the prompt stays.
        set_value(browser, "now", NOW)
        send(browser, "지금부터 2시간 카톡 알림 받지마")
        assert "Unauthorized (401)" in text(browser, "error")
        assert visible(browser, "token-panel") and not recording.requests

        # With the token: kept in sessionStorage, sent as a bearer token, the rule appears.
        set_value(browser, "token", token)
        browser.find_element("id", "token-save").click()
        wait_for(browser, lambda: not visible(browser, "token-panel"), "the prompt to close")
        assert js(browser, "return sessionStorage.getItem('notillm-local.token')") == token
        send(browser, "지금부터 2시간 카톡 알림 받지마")
        assert not visible(browser, "error")
        assert rule(browser)["condition"]["expires"] == "2026-08-14T23:30:00+09:00"
        assert len(recording.requests) == 1

        # A wrong token stored in the tab: the same readable prompt.
        js(browser, "sessionStorage.setItem('notillm-local.token', 'wrong')")
        send(browser, "지금부터 2시간 카톡 알림 받지마")
        assert "Unauthorized (401)" in text(browser, "error") and visible(browser, "token-panel")
        js(browser, "sessionStorage.clear()")


def test_compare_view_files_answers_by_engine(browser: Any, service: Service) -> None:
    # /health reports a hybrid, online service; the answers are the real local ones, and the
    # page files them under the engine their meta names, without inventing a hosted answer.
    settings = Settings(engine=EngineMode.HYBRID, offline=False)
    with _serve(settings, RecordingService(service, engine="hybrid")) as srv:
        open_page(browser, srv)
        wait_for(browser, lambda: visible(browser, "compare"), "the compare view")
        assert "one engine per process" in text(browser, "compare-note")
        send(browser, "지금부터 2시간 카톡 알림 받지마")
        rows = js(browser, "return [...document.querySelectorAll('#compare-table tbody tr')]"
                           ".map(r => [...r.cells].map(c => c.textContent))")
        assert rows[0][:2] == ["local", "1"] and rows[1][:2] == ["hosted", "0"]
        assert rows[2][0] == "지금부터 2시간 카톡 알림 받지마" and rows[2][2] == "—"


def test_offline_service_has_no_compare_view(browser: Any, page_server: LiveServer) -> None:
    open_page(browser, page_server)
    wait_for(browser, lambda: "engine local" in text(browser, "health"), "health")
    assert not visible(browser, "compare")
