"""Checked with mypy --strict (test/unit/python-client.spec.ts): how a typed program sees the client.
Never run; every line must type-check."""

from __future__ import annotations

import asyncio
from http.server import BaseHTTPRequestHandler
from typing import List, Optional

from voice_agent import AsyncVoiceAgent, VoiceAgent, VoiceAgentError, WebhookVerificationError, verify_webhook
from voice_agent.models import CreateCallDto, EventEnvelope, Room, Session, WebhookEndpoint

CALL: CreateCallDto = {"to": "+14155550100", "from": "+14155550199", "agent_config": {"prompt": "Hi"}, "test_mode": True}


def sync_client() -> str:
    client = VoiceAgent()
    session: Session = client.calls.create(CALL, idempotency_key="k")
    done: Session = client.sessions.wait_until_done(session["session_id"])
    ids: List[str] = [s["session_id"] for s in client.sessions.list(status="completed", limit=10)]
    endpoints: List[WebhookEndpoint] = client.webhook_endpoints.list()
    room: Room = client.rooms.create({"expires_in_seconds": 60})
    for event in client.events.follow(after=None):
        event_type: str = event["type"]
        break
    tail: Optional[str] = client.events.latest_id()
    return done["status"] + str(len(ids) + len(endpoints)) + room["room_url"] + event_type + str(tail)


async def async_client() -> str:
    async with AsyncVoiceAgent() as client:
        session: Session = await client.calls.create(CALL)
        done: Session = await client.sessions.wait_until_done(session["session_id"])
        ids: List[str] = [s["session_id"] async for s in client.sessions.list(limit=10)]
        first = await client.sessions.list().first_page()
        events: List[EventEnvelope] = await client.sessions.events(session["session_id"])
        async for event in client.events.follow(type="session.ended"):
            break
        tail: Optional[str] = await client.events.latest_id()
        return done["status"] + str(len(ids) + len(events) + len(first)) + event["id"] + str(tail)


def handle(body: bytes, headers: dict[str, str], secret: str) -> str:
    try:
        event = verify_webhook(body, headers, secret, scheme="standard")
        return str(event["id"])
    except WebhookVerificationError as err:
        return err.reason
    except VoiceAgentError as err:
        return f"{err.status} {err.type} {err.param} {err.request_id}"


asyncio.run(async_client())


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"]))
        event = verify_webhook(body, self.headers, "whsec_x")
        self.send_response(204 if event["type"] else 400)
