"""The events iterator over the long-polled feed, and Retry-After on 503 (seconds or an HTTP date),
for the sync and async clients."""

import asyncio
import email.utils
import time

import httpx
import pytest

from voice_agent import AsyncVoiceAgent, VoiceAgent, VoiceAgentError, _http, events


def feed(polls):
    """A feed answering each poll with the next scripted answer, and the polls' query parameters."""
    seen = []

    def handler(request):
        seen.append(dict(request.url.params))
        status, body = polls.pop(0)
        return httpx.Response(status, json=body)

    return handler, seen


def page(*ids):
    return {"data": [{"id": i, "type": "session.created", "data": {}} for i in ids], "has_more": False}


UNAVAILABLE = {"error": {"type": "unavailable", "message": "down"}}


@pytest.fixture
def slept(monkeypatch):
    naps = []
    monkeypatch.setattr(events.time, "sleep", lambda s: naps.append(s))
    monkeypatch.setattr(_http.time, "sleep", lambda s: naps.append(s))

    async def nap(s):
        naps.append(s)

    monkeypatch.setattr(events.asyncio, "sleep", nap)
    monkeypatch.setattr(_http.asyncio, "sleep", nap)
    return naps


def test_follow_long_polls_after_the_last_event_and_rides_out_a_503(slept):
    handler, seen = feed([(200, page("e1", "e2")), (503, UNAVAILABLE), (200, page()), (200, page("e3"))])
    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    got = []
    for event in c.events.follow(after="e0", type="session.created", wait_seconds=99):
        got.append(event["id"])
        if len(got) == 3:
            break
    assert got == ["e1", "e2", "e3"]
    assert [q.get("after") for q in seen] == ["e0", "e2", "e2", "e2"]
    assert all(q["wait"] == "30" and q["type"] == "session.created" and q["limit"] == "100" for q in seen)
    assert slept == [0.5]  # one backoff, for the 503 (the poll itself is not retried by the transport)


def test_follow_ends_with_the_error_on_a_bad_key():
    handler, _ = feed([(401, {"error": {"type": "authentication", "message": "bad key"}})])
    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    with pytest.raises(VoiceAgentError) as err:
        next(iter(c.events.follow()))
    assert (err.value.status, err.value.type) == (401, "authentication")


def test_the_async_follow_does_the_same(slept):
    handler, seen = feed([(429, UNAVAILABLE), (200, page("e1")), (200, page("e2"))])

    async def run():
        async with AsyncVoiceAgent(
            "vap_k", base_url="http://api.test", http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler))
        ) as c:
            got = []
            async for event in c.events.follow(wait_seconds=5):
                got.append(event["id"])
                if len(got) == 2:
                    return got

    assert asyncio.run(run()) == ["e1", "e2"]
    assert [q.get("after") for q in seen] == [None, None, "e1"]
    assert slept == [0.5]


@pytest.mark.parametrize("retry_after", ["2", "date"])
def test_a_503_is_retried_after_its_retry_after_in_seconds_or_as_a_date(slept, retry_after):
    value = email.utils.formatdate(time.time() + 5, usegmt=True) if retry_after == "date" else retry_after
    answers = [httpx.Response(503, headers={"retry-after": value}, json=UNAVAILABLE), httpx.Response(200, json={"ok": 1})]

    async def run():
        async with AsyncVoiceAgent(
            "vap_k",
            base_url="http://api.test",
            http_client=httpx.AsyncClient(transport=httpx.MockTransport(lambda r: answers.pop(0))),
        ) as c:
            return await c.credits.get()

    assert asyncio.run(run()) == {"ok": 1}
    assert len(slept) == 1
    assert slept[0] == 2.0 if retry_after == "2" else 3.0 <= slept[0] <= 5.0


def test_follow_waits_as_long_as_retry_after_asks():
    naps = []
    polls = [(429, 30), (200, None)]

    def handler(request):
        status, retry = polls.pop(0)
        if status == 429:
            return httpx.Response(429, headers={"retry-after": str(retry)}, json={"error": {"type": "rate_limited", "message": "slow down"}})
        return httpx.Response(200, json=page("e1"))

    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    original = events.time.sleep
    events.time.sleep = lambda s: naps.append(s)
    try:
        assert next(iter(c.events.follow()))["id"] == "e1"
    finally:
        events.time.sleep = original
    assert naps == [30.0]  # Retry-After, not the 0.5 s backoff


def test_retry_after_reads_seconds_dates_in_utc_and_ignores_what_it_cannot_read():
    from voice_agent.errors import retry_after_seconds

    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds("900") == 60.0  # at most a minute
    assert retry_after_seconds("garbage") is None
    assert retry_after_seconds("") is None
    assert retry_after_seconds("nan") is None
    in_ten = email.utils.formatdate(time.time() + 10, usegmt=False).replace("+0000", "-0000")
    assert 8.0 <= retry_after_seconds(in_ten) <= 10.0  # "-0000" is UTC, not the machine's zone
