"""The tenant's events feed (``GET /v1/events``): catalog events in commit order, as webhook envelopes;
``follow()`` iterates it forever with long polling (``wait``), resuming after the last event it gave."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Iterator

from ._http import AsyncTransport, SyncTransport
from ._resource import _Resource
from .pagination import PageIterator
from .errors import VoiceAgentError
from .models import EventEnvelope, EventPage


def _passing(err: VoiceAgentError) -> bool:
    """A failure worth another poll: no answer, 429, or 5xx."""
    return err.status == 0 or err.status == 429 or err.status >= 500


class Events(_Resource):
    def list(self, **query: Any) -> PageIterator[EventEnvelope]:
        """Every event up to now in commit order after ``after`` (``type``, ``limit`` per page)."""
        return self._list("/v1/events", query, id_key="id", cursor="after")

    def page(self, **query: Any) -> EventPage:
        """One page (``after``, ``type``, ``limit``, ``order``); with ``wait`` (seconds, at most 30) the
        request is held until an event follows the cursor."""
        wait = int(query.get("wait") or 0)
        return self._call("GET", "/v1/events", query=query, timeout=(wait + 15.0) if wait > 0 else None)

    def latest_id(self) -> str | None:
        """The id of the newest event (the feed's tail now), or None when the tenant has none."""
        return self._then(self.page(order="desc", limit=1), lambda p: (p["data"][0]["id"] if p["data"] else None))

    def follow(
        self, *, after: str | None = None, type: str | None = None, wait_seconds: int = 25
    ) -> Iterator[EventEnvelope]:
        """Every event in commit order after ``after`` (default: the start of the feed), as they happen,
        forever: ``for event in client.events.follow()`` (``async for`` with the async client); stop
        with ``break``. Polls that fail for a passing reason (no connection, 429, 5xx) are tried again
        with backoff; other errors (a bad key, an unknown cursor) end it with the error."""
        wait = min(30, max(1, wait_seconds))
        if isinstance(self._t, AsyncTransport):
            return self._afollow(after, type, wait)  # type: ignore[return-value]
        return self._follow(after, type, wait)

    @staticmethod
    def _poll(after: str | None, type: str | None, wait: int) -> dict[str, Any]:
        return {"after": after, "type": type, "wait": wait, "limit": 100}

    def _follow(self, after: str | None, type: str | None, wait: int) -> Iterator[EventEnvelope]:
        assert isinstance(self._t, SyncTransport)
        failures = 0
        while True:
            try:
                page = self._t.request(
                    "GET", "/v1/events", query=self._poll(after, type, wait), max_retries=0, timeout=wait + 15.0
                )
                failures = 0
            except VoiceAgentError as err:
                if not _passing(err):
                    raise
                time.sleep(max(min(10.0, 0.5 * 2**failures), err.retry_after or 0.0))
                failures += 1
                continue
            for event in page.get("data") or []:
                after = event["id"]
                yield event

    async def _afollow(self, after: str | None, type: str | None, wait: int) -> AsyncIterator[EventEnvelope]:
        assert isinstance(self._t, AsyncTransport)
        failures = 0
        while True:
            try:
                page = await self._t.request(
                    "GET", "/v1/events", query=self._poll(after, type, wait), max_retries=0, timeout=wait + 15.0
                )
                failures = 0
            except VoiceAgentError as err:
                if not _passing(err):
                    raise
                await asyncio.sleep(max(min(10.0, 0.5 * 2**failures), err.retry_after or 0.0))
                failures += 1
                continue
            for event in page.get("data") or []:
                after = event["id"]
                yield event
