import asyncio
import json

import httpx

from voice_agent.client import AsyncVoiceAgent, VoiceAgent

SESSIONS = {
    None: {"data": [{"session_id": "ses_1"}], "has_more": True},
    "ses_1": {"data": [{"session_id": "ses_2"}], "has_more": False},
}


def handler(request: httpx.Request) -> httpx.Response:
    if request.method == "POST" and request.url.path == "/v1/calls":
        body = json.loads(request.content)
        return httpx.Response(201, json={"session_id": "ses_9", "to": body["to"]})
    if request.url.path == "/v1/sessions":
        return httpx.Response(200, json=SESSIONS[request.url.params.get("starting_after")])
    return httpx.Response(404, json={"error": {"type": "not_found", "message": "no"}})


def test_the_sync_client_places_a_call_and_walks_sessions():
    client = VoiceAgent("vap_k", base_url="http://api.test", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    assert client.calls.create({"to": "+14155550100"})["session_id"] == "ses_9"
    assert [s["session_id"] for s in client.sessions.list()] == ["ses_1", "ses_2"]


def test_the_async_client_does_the_same():
    async def run():
        async with AsyncVoiceAgent(
            "vap_k", base_url="http://api.test", http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler))
        ) as client:
            placed = await client.calls.create({"to": "+14155550100"})
            ids = [s["session_id"] async for s in client.sessions.list()]
            return placed["session_id"], ids

    assert asyncio.run(run()) == ("ses_9", ["ses_1", "ses_2"])
