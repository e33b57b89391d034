"""The clients: ``VoiceAgent`` (sync) and ``AsyncVoiceAgent`` (async) with the same resources. A
resource method returns the response body itself (a coroutine of it with the async client); list
methods return an iterator over every item of every page (``first_page()`` for the first page)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import httpx

from ._http import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, AsyncTransport, SyncTransport
from ._resource import Transport, _Resource
from .events import Events
from .resources import Analytics, Calls, Campaigns, Credits, Dnc, Sessions, ToolSecrets, WebhookEndpoints
from .rooms_voices_numbers import PhoneNumbers, Rooms, VoiceClones
from .webhooks import verify_webhook

if TYPE_CHECKING:  # the async client's resources as a type checker sees them (methods awaited)
    from . import _async


#: The resources of both clients, by attribute name.
RESOURCES: dict[str, type[_Resource]] = {
    "calls": Calls,
    "sessions": Sessions,
    "campaigns": Campaigns,
    "webhook_endpoints": WebhookEndpoints,
    "events": Events,
    "credits": Credits,
    "dnc": Dnc,
    "rooms": Rooms,
    "voice_clones": VoiceClones,
    "phone_numbers": PhoneNumbers,
    "analytics": Analytics,
    "tool_secret": ToolSecrets,
}


class _Client:
    #: ``verify_webhook(body, headers, secret)``, also importable from the package itself.
    verify_webhook = staticmethod(verify_webhook)

    def _resources(self, transport: Transport) -> None:
        for name, resource in RESOURCES.items():
            setattr(self, name, resource(transport))


def _settings(api_key: str | None, base_url: str | None) -> tuple[str, str]:
    key = api_key or os.environ.get("VOICE_AGENT_API_KEY")
    if not key:
        raise ValueError("An API key is needed: pass api_key= or set VOICE_AGENT_API_KEY.")
    return key, base_url or os.environ.get("VOICE_AGENT_BASE_URL") or DEFAULT_BASE_URL


class VoiceAgent(_Client):
    calls: Calls
    sessions: Sessions
    campaigns: Campaigns
    webhook_endpoints: WebhookEndpoints
    events: Events
    credits: Credits
    dnc: Dnc
    rooms: Rooms
    voice_clones: VoiceClones
    phone_numbers: PhoneNumbers
    analytics: Analytics
    tool_secret: ToolSecrets

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
    ) -> None:
        key, url = _settings(api_key, base_url)
        self.base_url = url.rstrip("/")
        self._transport = SyncTransport(key, url, timeout, max_retries, http_client)
        self._resources(self._transport)

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> "VoiceAgent":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncVoiceAgent(_Client):
    calls: _async.Calls
    sessions: _async.Sessions
    campaigns: _async.Campaigns
    webhook_endpoints: _async.WebhookEndpoints
    events: _async.Events
    credits: _async.Credits
    dnc: _async.Dnc
    rooms: _async.Rooms
    voice_clones: _async.VoiceClones
    phone_numbers: _async.PhoneNumbers
    analytics: _async.Analytics
    tool_secret: _async.ToolSecrets

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        key, url = _settings(api_key, base_url)
        self.base_url = url.rstrip("/")
        self._transport = AsyncTransport(key, url, timeout, max_retries, http_client)
        self._resources(self._transport)

    async def close(self) -> None:
        await self._transport.close()

    async def __aenter__(self) -> "AsyncVoiceAgent":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
