import httpx
import pytest

from voice_agent import _http
from voice_agent._http import SyncTransport
from voice_agent.errors import VoiceAgentError


@pytest.fixture(autouse=True)
def no_sleep(monkeypatch):
    slept = []
    monkeypatch.setattr(_http.time, "sleep", lambda s: slept.append(s))
    return slept


def transport(handler, retries=2):
    return SyncTransport("vap_test_key", "http://api.test/", 5.0, retries, httpx.Client(transport=httpx.MockTransport(handler)))


def test_a_post_keeps_its_idempotency_key_across_retries_and_honours_retry_after(no_sleep):
    seen = []

    def handler(request):
        seen.append(request.headers.get("idempotency-key"))
        if len(seen) == 1:
            return httpx.Response(429, headers={"retry-after": "3"}, json={"error": {"type": "rate_limited", "message": "slow down"}})
        return httpx.Response(201, json={"session_id": "ses_1"})

    assert transport(handler).request("POST", "/v1/calls", json={"to": "+1"}) == {"session_id": "ses_1"}
    assert len(seen) == 2 and seen[0] == seen[1] and seen[0]
    assert no_sleep == [3.0]


def test_a_get_has_no_idempotency_key_and_a_400_is_an_error_with_type_and_param():
    def handler(request):
        assert "idempotency-key" not in request.headers
        assert request.headers["authorization"] == "Bearer vap_test_key"
        return httpx.Response(
            400,
            headers={"request-id": "req_1"},
            json={"error": {"type": "invalid_request_error", "message": "bad", "param": "to"}},
        )

    with pytest.raises(VoiceAgentError) as raised:
        transport(handler).request("GET", "/v1/sessions")
    assert (raised.value.status, raised.value.type, raised.value.param, raised.value.request_id) == (
        400,
        "invalid_request_error",
        "to",
        "req_1",
    )


def test_gives_up_after_its_retries_on_503_and_on_connection_errors(no_sleep):
    calls = []

    def unavailable(request):
        calls.append(1)
        return httpx.Response(503, json={"error": {"type": "at_capacity", "message": "busy"}})

    with pytest.raises(VoiceAgentError) as raised:
        transport(unavailable).request("GET", "/v1/credits")
    assert raised.value.status == 503 and len(calls) == 3

    def refused(request):
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(VoiceAgentError) as down:
        transport(refused, retries=1).request("GET", "/v1/credits")
    assert (down.value.status, down.value.type) == (0, "connection_error")
