"""Every tenant operation of the OpenAPI document is a method of the client (checked against the
generated OPERATIONS table), each list pages with its own cursor and id field, and the helpers that
differ between the sync and async clients (plain lists, waiting, the feed's tail, uploads) work."""

import asyncio
import json
import pathlib
import re

import httpx
import pytest

from voice_agent import AsyncVoiceAgent, VoiceAgent
from voice_agent.models import OPERATIONS

#: Operations the client leaves out, and why: a Server-Sent Events stream, not a JSON answer.
NOT_IN_CLIENT = {"followSessionLive"}

DOCUMENT = json.loads((pathlib.Path(__file__).parents[2] / "node" / "openapi.json").read_text())

BODY = {"data": [], "has_more": False, "status": "completed", "id": "x"}


def every_method(c):
    """One call of every resource method (the answers are the generic BODY)."""
    list(c.sessions.list(status="completed"))
    c.calls.create({"to": "+14155550100", "from": "+14155550199", "agent_config": {"prompt": "Hi"}, "test_mode": True})
    c.sessions.get("ses_1")
    c.sessions.transcript("ses_1")
    c.sessions.events("ses_1")
    c.sessions.recording("ses_1")
    c.campaigns.create({"name": "n", "from_number": "+14155550199"})
    c.campaigns.run({"name": "n", "from_number": "+14155550199"})
    c.campaigns.get("cmp_1")
    list(c.campaigns.list())
    c.campaigns.add_contacts("cmp_1", {"contacts": []})
    list(c.campaigns.list_contacts("cmp_1", status="pending"))
    c.campaigns.start("cmp_1")
    c.campaigns.pause("cmp_1")
    c.campaigns.resume("cmp_1")
    c.campaigns.progress("cmp_1", interval="hour")
    c.webhook_endpoints.create({"url": "https://example.com/hooks"})
    c.webhook_endpoints.list()
    c.webhook_endpoints.get("we_1")
    c.webhook_endpoints.update("we_1", {"description": "d"})
    c.webhook_endpoints.delete("we_1")
    c.webhook_endpoints.rotate_secret("we_1")
    c.webhook_endpoints.send_test("we_1")
    c.webhook_endpoints.enable("we_1")
    c.webhook_endpoints.deliveries("we_1", limit=5)
    c.webhook_endpoints.delivery("we_1", "dlv_1")
    c.webhook_endpoints.retry_delivery("we_1", "dlv_1")
    c.webhook_endpoints.recover("we_1", {"since": "2026-01-01T00:00:00Z"})
    c.events.page(limit=1)
    c.credits.get()
    c.credits.update({"auto_topup": False})
    c.credits.create_topup({"amount_cents": 1000})
    c.credits.get_topup("top_1")
    list(c.credits.list_topups())
    c.dnc.list()
    c.dnc.add({"phone_number": "+14155550100"})
    c.dnc.remove("+14155550100")
    c.rooms.create({})
    c.rooms.get("room_1")
    list(c.rooms.list(status="active"))
    c.voice_clones.create(name="v", samples=[("one.wav", b"RIFF")])
    c.voice_clones.get("voice_1")
    list(c.voice_clones.list())
    c.voice_clones.delete("voice_1")
    c.phone_numbers.create({"phone_number": "+14155550142", "agent_config": {"prompt": "Hi"}})
    c.phone_numbers.get("pn_1")
    list(c.phone_numbers.list())
    c.phone_numbers.update("pn_1", {"agent_config": {"prompt": "Hi"}})
    c.phone_numbers.delete("pn_1")
    c.phone_numbers.request_verification("pn_1")
    c.phone_numbers.confirm_verification("pn_1", {"code": "123456"})
    c.phone_numbers.test_inbound_call("pn_1", {"from_number": "+14155550100"})
    c.analytics.calls(days=7)
    c.analytics.deliveries(days=7)
    c.tool_secret.rotate()


def template_of(method, path):
    for op_id, (m, template, *_rest) in OPERATIONS.items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")) + "$"
        if m == method and re.match(pattern, path):
            return op_id
    raise AssertionError(f"{method} {path} is no operation of the document")


def test_every_tenant_operation_is_a_method_of_the_client():
    seen = set()

    def handler(request):
        seen.add(template_of(request.method, request.url.raw_path.decode().split("?")[0]))
        return httpx.Response(200, json=BODY)

    every_method(VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler))))
    tenant = {op for op, (_m, _p, scheme, *_r) in OPERATIONS.items() if scheme == "tenant_key"}
    assert seen == tenant - NOT_IN_CLIENT


@pytest.mark.parametrize(
    "walk, path, id_key",
    [
        (lambda c: c.sessions.list(limit=1), "/v1/sessions", "session_id"),
        (lambda c: c.campaigns.list(limit=1), "/v1/campaigns", "campaign_id"),
        (lambda c: c.campaigns.list_contacts("cmp_1", limit=1), "/v1/campaigns/cmp_1/contacts", "contact_id"),
        (lambda c: c.credits.list_topups(limit=1), "/v1/credits/topups", "topup_id"),
        (lambda c: c.rooms.list(limit=1), "/v1/rooms", "room_id"),
        (lambda c: c.voice_clones.list(limit=1), "/v1/voice_clones", "voice_id"),
        (lambda c: c.phone_numbers.list(limit=1), "/v1/phone_numbers", "phone_number_id"),
        (lambda c: c.events.list(limit=1), "/v1/events", "id"),
    ],
)
def test_each_list_pages_after_its_own_id_field(walk, path, id_key):
    cursor = "after" if path == "/v1/events" else "starting_after"
    template = path.replace("cmp_1", "{id}")
    query = {p["name"] for p in DOCUMENT["paths"][template]["get"].get("parameters", []) if p["in"] == "query"}
    assert {cursor, "limit"} <= query
    cursors = []

    def handler(request):
        assert request.url.path == path
        assert request.url.params.get("limit") == "1"
        after = request.url.params.get(cursor)
        cursors.append(after)
        n = 0 if after is None else int(after.split("_")[-1])
        return httpx.Response(200, json={"data": [{id_key: f"x_{n + 1}"}], "has_more": n < 2})

    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    assert [item[id_key] for item in walk(c)] == ["x_1", "x_2", "x_3"]
    assert cursors == [None, "x_1", "x_2"]


def test_unpaginated_lists_are_lists_and_a_number_is_escaped_in_the_path():
    paths = []

    def handler(request):
        paths.append(request.url.raw_path.decode())
        if request.method == "DELETE":
            return httpx.Response(200, json={"phone_number": "+14155550100", "removed": True})
        return httpx.Response(200, json={"data": [{"id": "we_1"}, {"id": "we_2"}]})

    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    assert [e["id"] for e in c.webhook_endpoints.list()] == ["we_1", "we_2"]
    assert len(c.sessions.events("ses_1")) == 2
    c.dnc.remove("+14155550100")
    assert paths[-1] == "/v1/dnc/%2B14155550100"


def test_a_voice_clone_uploads_its_samples_as_a_multipart_form_with_an_idempotency_key():
    got = {}

    def handler(request):
        got["type"] = request.headers["content-type"]
        got["key"] = request.headers.get("idempotency-key")
        got["body"] = request.read()
        return httpx.Response(202, json={"voice_id": "voice_1", "name": "v", "status": "queued"})

    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    queued = c.voice_clones.create(name="Support voice", samples=[("a/one.wav", b"RIFF1"), ("two.wav", b"RIFF2", "audio/wav")])
    assert queued["status"] == "queued"
    assert got["type"].startswith("multipart/form-data") and got["key"]
    assert b'name="name"\r\n\r\nSupport voice' in got["body"]
    assert got["body"].count(b'name="samples"; filename=') == 2 and b'filename="one.wav"' in got["body"]


def test_the_async_client_waits_for_a_session_and_reads_the_feed_tail():
    statuses = iter(["queued", "in_progress", "completed"])

    def handler(request):
        if request.url.path == "/v1/events":
            assert request.url.params["order"] == "desc"
            return httpx.Response(200, json={"data": [{"id": "evt_9"}], "has_more": True})
        if request.url.path == "/v1/webhook_endpoints":
            return httpx.Response(200, json={"data": []})
        return httpx.Response(200, json={"session_id": "ses_1", "status": next(statuses)})

    async def run():
        async with AsyncVoiceAgent(
            "vap_k", base_url="http://api.test", http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler))
        ) as c:
            done = await c.sessions.wait_until_done("ses_1", interval=0.01)
            return done["status"], await c.events.latest_id(), await c.webhook_endpoints.list()

    status, tail, _ = asyncio.run(run())
    assert (status, tail) == ("completed", "evt_9")


def test_wait_until_done_gives_up_after_its_timeout():
    def handler(request):
        return httpx.Response(200, json={"session_id": "ses_1", "status": "in_progress"})

    c = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    with pytest.raises(TimeoutError, match="in_progress"):
        c.sessions.wait_until_done("ses_1", interval=0.01, timeout=0.05)


def test_every_post_of_a_resource_carries_an_idempotency_key_and_no_other_method_does():
    seen = []

    def handler(request):
        seen.append((request.method, request.headers.get("idempotency-key")))
        return httpx.Response(200, json=BODY)

    every_method(VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler))))
    assert all((key is not None) == (method == "POST") for method, key in seen)
    assert len({key for method, key in seen if method == "POST"}) == sum(1 for m, _ in seen if m == "POST")
