"""The clients: ``VoiceAgent`` (sync) and ``AsyncVoiceAgent`` (async) with the same resources. A
resource method returns the response body itself (a coroutine of it with the async client); list
methods return an iterator over every item of every page (``first_page()`` for the first page)."""

from __future__ import annotations

import os
import time
from typing import Any, Iterator, Mapping

import httpx

from ._http import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, AsyncTransport, SyncTransport
from .errors import VoiceAgentError
from .pagination import AsyncPageIterator, PageIterator

Transport = SyncTransport | AsyncTransport


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._t.request(method, path, **kwargs)

    def _list(
        self, path: str, query: Mapping[str, Any] | None, cursor: str = "starting_after", id_key: str = "id"
    ) -> Any:
        """Every item of every page; the next page after the last item's ``id_key`` (its id field)."""
        params = dict(query or {})

        def fetch(after: str | None):
            return self._t.request("GET", path, query={**params, **({cursor: after} if after else {})})

        if isinstance(self._t, AsyncTransport):
            return AsyncPageIterator(fetch, lambda item: item[id_key])
        return PageIterator(fetch, lambda item: item[id_key])


class Calls(_Resource):
    def create(self, body: Mapping[str, Any], *, idempotency_key: str | None = None) -> Any:
        return self._call("POST", "/v1/calls", json=body, idempotency_key=idempotency_key)


class Sessions(_Resource):
    def get(self, session_id: str) -> Any:
        return self._call("GET", f"/v1/sessions/{session_id}")

    def list(self, **query: Any) -> Any:
        return self._list("/v1/sessions", query, id_key="session_id")

    def transcript(self, session_id: str) -> Any:
        return self._call("GET", f"/v1/sessions/{session_id}/transcript.json")

    def events(self, session_id: str, **query: Any) -> Any:
        return self._call("GET", f"/v1/sessions/{session_id}/events", query=query)


class WebhookEndpoints(_Resource):
    def create(self, body: Mapping[str, Any], *, idempotency_key: str | None = None) -> Any:
        return self._call("POST", "/v1/webhook_endpoints", json=body, idempotency_key=idempotency_key)

    def list(self, **query: Any) -> Any:
        return self._list("/v1/webhook_endpoints", query)

    def get(self, endpoint_id: str) -> Any:
        return self._call("GET", f"/v1/webhook_endpoints/{endpoint_id}")

    def update(self, endpoint_id: str, body: Mapping[str, Any]) -> Any:
        return self._call("PATCH", f"/v1/webhook_endpoints/{endpoint_id}", json=body)

    def delete(self, endpoint_id: str) -> Any:
        return self._call("DELETE", f"/v1/webhook_endpoints/{endpoint_id}")

    def rotate_secret(self, endpoint_id: str) -> Any:
        return self._call("POST", f"/v1/webhook_endpoints/{endpoint_id}/rotate_secret")

    def send_test(self, endpoint_id: str) -> Any:
        return self._call("POST", f"/v1/webhook_endpoints/{endpoint_id}/test")


class Events(_Resource):
    def list(self, **query: Any) -> Any:
        return self._list("/v1/events", query, cursor="after")

    def page(self, **query: Any) -> Any:
        return self._call("GET", "/v1/events", query=query)

    def follow(self, *, after: str | None = None, type: str | None = None, wait_seconds: int = 25) -> Any:
        """Every event in commit order after ``after``, as they happen (long polls of the feed);
        passing failures (no connection, 429, 5xx) are retried with backoff."""
        wait = min(30, max(1, wait_seconds))
        if isinstance(self._t, AsyncTransport):
            return self._afollow(after, type, wait)
        return self._follow(after, type, wait)

    def _poll(self, after: str | None, type: str | None, wait: int) -> dict[str, Any]:
        return {"after": after, "type": type, "wait": wait, "limit": 100}

    def _follow(self, after: str | None, type: str | None, wait: int) -> Iterator[Any]:
        assert isinstance(self._t, SyncTransport)
        failures = 0
        while True:
            try:
                page = self._t.request("GET", "/v1/events", query=self._poll(after, type, wait), max_retries=0)
                failures = 0
            except VoiceAgentError as err:
                if not (err.status == 0 or err.status == 429 or err.status >= 500):
                    raise
                time.sleep(min(10.0, 0.5 * 2**failures))
                failures += 1
                continue
            for event in page.get("data") or []:
                after = event["id"]
                yield event

    async def _afollow(self, after: str | None, type: str | None, wait: int):
        import asyncio

        assert isinstance(self._t, AsyncTransport)
        failures = 0
        while True:
            try:
                page = await self._t.request("GET", "/v1/events", query=self._poll(after, type, wait), max_retries=0)
                failures = 0
            except VoiceAgentError as err:
                if not (err.status == 0 or err.status == 429 or err.status >= 500):
                    raise
                await asyncio.sleep(min(10.0, 0.5 * 2**failures))
                failures += 1
                continue
            for event in page.get("data") or []:
                after = event["id"]
                yield event


class _Client:
    def _resources(self, transport: Transport) -> None:
        self.calls = Calls(transport)
        self.sessions = Sessions(transport)
        self.webhook_endpoints = WebhookEndpoints(transport)
        self.events = Events(transport)


def _settings(api_key: str | None, base_url: str | None) -> tuple[str, str]:
    key = api_key or os.environ.get("VOICE_AGENT_API_KEY")
    if not key:
        raise ValueError("An API key is needed: pass api_key= or set VOICE_AGENT_API_KEY.")
    return key, base_url or os.environ.get("VOICE_AGENT_BASE_URL") or DEFAULT_BASE_URL


class VoiceAgent(_Client):
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
        self._transport = SyncTransport(key, url, timeout, max_retries, http_client)
        self._resources(self._transport)

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> "VoiceAgent":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncVoiceAgent(_Client):
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
        self._transport = AsyncTransport(key, url, timeout, max_retries, http_client)
        self._resources(self._transport)

    async def close(self) -> None:
        await self._transport.close()

    async def __aenter__(self) -> "AsyncVoiceAgent":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
