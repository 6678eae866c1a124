"""schemathesis against the live server's own /openapi.json (issue 8).

At least 1,000 generated requests in total, none answered with a status >= 500, and every
answer of the documented kind and shape (status codes, content type, response schema).
Three runs over POST /v1/handle: bodies that fit the schema, bodies that break it, and
schema-fitting bodies with a valid clock so that more of them reach the pipeline (generated
timestamps mostly fall outside the accepted years and stop at the 422).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

MIN_REQUESTS = 1000
RUNS = {"positive": 400, "negative": 400, "positive_valid_clock": 300}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
CLOCKS = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1),
                      timezones=st.sampled_from([timezone(timedelta(hours=9)), UTC]))

sent: Counter[str] = Counter()
statuses: Counter[int] = Counter()


@pytest.fixture(scope="module")
def api(live_server) -> Any:
    # The schema as the running server serves it, over loopback.
    return schemathesis.openapi.from_url(f"{live_server.url}/openapi.json")


def _hsettings(n: int) -> settings:
    # Generation only: no shrinking or replay, so the budget is spent on new requests.
    return settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck))


def _call(case: Any, base_url: str, run: str) -> None:
    response = case.call(base_url=base_url, timeout=60)
    sent[run] += 1
    statuses[response.status_code] += 1
    assert response.status_code < 500, (response.status_code, response.text[:500])
    case.validate_response(response, checks=CHECKS)


@pytest.mark.parametrize("run", list(RUNS))
def test_generated_requests_never_get_a_server_error(api: Any, live_server, run: str) -> None:
    op = api["/v1/handle"]["POST"]
    mode = GenerationMode.NEGATIVE if run == "negative" else GenerationMode.POSITIVE

    @_hsettings(RUNS[run])
    @given(case=op.as_strategy(generation_mode=mode), clock=CLOCKS)
    def fuzz(case: Any, clock: datetime) -> None:
        if run == "positive_valid_clock" and isinstance(case.body, dict):
            case.body["currentTime"] = clock.isoformat()
        _call(case, live_server.url, run)

    fuzz()
    assert sent[run] >= RUNS[run] // 2, f"only {sent[run]} requests generated for {run}"


def test_health_is_always_answered(api: Any, live_server) -> None:
    op = api["/health"]["GET"]

    @_hsettings(20)
    @given(case=op.as_strategy())
    def probe(case: Any) -> None:
        _call(case, live_server.url, "health")

    probe()


def test_at_least_1000_requests_were_generated() -> None:
    total = sum(sent.values())
    print(f"\nschemathesis: {total} requests, statuses {dict(sorted(statuses.items()))}")
    if set(sent) < set(RUNS):
        pytest.skip("the generating tests did not all run in this session")
    assert total >= MIN_REQUESTS, dict(sent)
    assert not [code for code in statuses if code >= 500]
    assert statuses[200] >= 50, "almost nothing reached the pipeline"
