"""The client against a running service (VOICE_AGENT_BASE_URL, VOICE_AGENT_API_KEY; skipped without
them). The service must allow loopback webhook URLs (WEBHOOK_ALLOW_PRIVATE_URLS=true) and run the test
pool fast (SIM_TIME_SCALE=0.01). A real receiver on loopback gets the deliveries."""

import asyncio
import os
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from voice_agent import AsyncVoiceAgent, VoiceAgent, VoiceAgentError, WebhookVerificationError, verify_webhook

pytestmark = pytest.mark.skipif(
    not (os.environ.get("VOICE_AGENT_BASE_URL") and os.environ.get("VOICE_AGENT_API_KEY")),
    reason="no service: set VOICE_AGENT_BASE_URL and VOICE_AGENT_API_KEY",
)

CALL = {"from": "+14155550199", "agent_config": {"prompt": "You are a friendly scheduling assistant."}, "test_mode": True}


class Receiver:
    """An HTTP server on loopback that keeps each delivery's raw body and headers."""

    def __init__(self):
        self.deliveries = queue.Queue()
        got = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["content-length"]))
                got.put((body, dict(self.headers)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/webhooks"

    def wait_for(self, secret, match, timeout=30.0):
        """The first delivery that verifies with ``secret`` and whose event matches, with its raw body
        and headers (deliveries signed with an earlier secret, before a rotation, are passed over)."""
        deadline = time.monotonic() + timeout
        while True:
            body, headers = self.deliveries.get(timeout=max(0.1, deadline - time.monotonic()))
            try:
                event = verify_webhook(body, headers, secret)
            except WebhookVerificationError:
                continue
            if match(event):
                return event, body, headers


@pytest.fixture(scope="module")
def client():
    with VoiceAgent() as c:
        yield c


@pytest.fixture(scope="module")
def receiver():
    r = Receiver()
    yield r
    r.server.shutdown()


@pytest.fixture(scope="module")
def endpoint(client, receiver):
    created = client.webhook_endpoints.create({"url": receiver.url, "events": ["session.*"]})
    yield created
    client.webhook_endpoints.delete(created["id"])


def test_a_test_call_its_events_and_its_webhook_verified_with_both_schemes(client, receiver, endpoint):
    secret = endpoint["secret"]
    assert secret.startswith("whsec_")
    assert any(e["id"] == endpoint["id"] for e in client.webhook_endpoints.list())

    session = client.calls.create({"to": "+14155550100", **CALL})
    assert session["status"] == "queued" and session["test_mode"] is True
    done = client.sessions.wait_until_done(session["session_id"], interval=0.1, timeout=30)
    assert done["status"] == "completed"
    types = [e["type"] for e in client.sessions.events(session["session_id"])]
    assert types[0] == "session.created" and "session.ended" in types

    event, body, headers = receiver.wait_for(
        secret, lambda e: e["type"] == "session.ended" and e["data"]["session_id"] == session["session_id"]
    )
    assert headers.get("X-Webhook-Signature") or headers.get("x-webhook-signature")
    assert verify_webhook(body, headers, secret, scheme="x-webhook")["id"] == event["id"]
    assert verify_webhook(body, headers, secret, scheme="standard")["id"] == event["id"]
    standard_only = {k: v for k, v in headers.items() if not k.lower().startswith("x-webhook-")}
    assert verify_webhook(body, standard_only, secret)["id"] == event["id"]
    with pytest.raises(WebhookVerificationError) as tampered:
        verify_webhook(body.replace(b'"data":{', b'"data":{"x":1,'), headers, secret)
    assert tampered.value.reason == "signature_mismatch"
    rotated = client.webhook_endpoints.rotate_secret(endpoint["id"])
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, headers, rotated["secret"], scheme="standard")


def test_a_sent_test_event_arrives_signed(client, receiver, endpoint):
    secret = client.webhook_endpoints.rotate_secret(endpoint["id"])["secret"]
    client.webhook_endpoints.send_test(endpoint["id"])
    event, body, headers = receiver.wait_for(secret, lambda e: e["type"] == "webhook.test")
    lower = {k.lower(): v for k, v in headers.items()}
    assert lower["webhook-id"] == lower["x-webhook-id"] == event["id"]
    assert verify_webhook(body, headers, secret, scheme="standard")["type"] == "webhook.test"


def test_lists_page_through_more_than_one_page(client):
    placed = [client.calls.create({"to": to, **CALL})["session_id"] for to in ("+14155550101", "+14155550102")]
    deadline = time.monotonic() + 15
    while True:  # the list is a projection: it shows a new session a moment after it is placed
        everything = [s["session_id"] for s in client.sessions.list(limit=100).first_page()["data"]]
        if set(placed) <= set(everything) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(everything) >= 3
    listed = [s["session_id"] for s in client.sessions.list(limit=1)]
    assert listed == everything
    first = client.sessions.list(limit=1).first_page()
    assert first["has_more"] is True and first["data"][0]["session_id"] == listed[0]
    events = [e["id"] for e in client.events.list(limit=2)]
    assert len(events) > 2 and len(set(events)) == len(events)


def test_errors_carry_status_type_param_and_request_id(client):
    with pytest.raises(VoiceAgentError) as invalid:
        client.calls.create({"to": "nope", **CALL})
    assert (invalid.value.status, invalid.value.type, invalid.value.param) == (400, "invalid_request", "to")
    assert invalid.value.request_id.startswith("req_")
    with pytest.raises(VoiceAgentError) as missing:
        client.sessions.get("ses_nope")
    assert (missing.value.status, missing.value.type) == (404, "not_found")
    assert missing.value.request_id.startswith("req_")
    with pytest.raises(VoiceAgentError) as bad_key:
        VoiceAgent("vap_wrong", max_retries=0).credits.get()
    assert (bad_key.value.status, bad_key.value.type) == (401, "authentication")
    with pytest.raises(VoiceAgentError) as down:
        VoiceAgent("vap_x", base_url="http://127.0.0.1:9", max_retries=0).credits.get()
    assert (down.value.status, down.value.type) == (0, "connection_error")


def test_an_idempotency_key_places_one_call(client):
    key = f"py-live-{time.time_ns()}"
    first = client.calls.create({"to": "+14155550103", **CALL}, idempotency_key=key)
    again = client.calls.create({"to": "+14155550103", **CALL}, idempotency_key=key)
    assert again["session_id"] == first["session_id"]


def test_the_events_feed_follows_new_events(client):
    tail = client.events.latest_id()
    while True:  # earlier tests' sessions may still add events (recordings): wait for a quiet second
        started = time.monotonic()
        page = client.events.page(after=tail, wait=1)
        if not page["data"]:
            break
        tail = page["data"][-1]["id"]
    assert page == {"data": [], "has_more": False} and time.monotonic() - started >= 0.9
    session = client.calls.create({"to": "+14155550100", **CALL})
    seen = []
    for event in client.events.follow(after=tail, wait_seconds=5):
        seen.append(event["type"])
        if event["type"] == "session.ended" and event["data"]["session_id"] == session["session_id"]:
            break
    assert seen[0] == "session.created" and seen[-1] == "session.ended"


def test_the_async_client_does_the_same(receiver, endpoint):
    async def run():
        async with AsyncVoiceAgent() as c:
            session = await c.calls.create({"to": "+14155550100", **CALL})
            done = await c.sessions.wait_until_done(session["session_id"], interval=0.1, timeout=30)
            events = await c.sessions.events(session["session_id"])
            listed = [s["session_id"] async for s in c.sessions.list(limit=2)]
            followed = None
            async for event in c.events.follow(type="session.ended", wait_seconds=5):
                if event["data"]["session_id"] == session["session_id"]:
                    followed = event
                    break
            try:
                await c.sessions.get("ses_nope")
            except VoiceAgentError as err:
                error = err
            return done, events, listed, followed, error

    done, events, listed, followed, error = asyncio.run(run())
    assert done["status"] == "completed"
    assert [e["type"] for e in events][0] == "session.created"
    assert done["session_id"] in listed and len(listed) >= 4
    assert followed["type"] == "session.ended"
    assert (error.status, error.type) == (404, "not_found") and error.request_id.startswith("req_")
