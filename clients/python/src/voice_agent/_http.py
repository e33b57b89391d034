"""The transport of both clients: the bearer, an ``Idempotency-Key`` on every POST (kept across its
retries, so the API does it once), a timeout per attempt, and retries with backoff on connection
errors, timeouts, a 409 for a request still in progress under the same key, 429 and 503 (honouring
``Retry-After``) and other 5xx; errors as :class:`VoiceAgentError`. The retry policy is one function
(``_retry_delay``) shared by the sync and async transports."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from typing import Any, Mapping

import httpx

from .errors import VoiceAgentError, retry_after_seconds

VERSION = "0.1.0a0"
DEFAULT_BASE_URL = "http://127.0.0.1:3000"
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_RETRIES = 2


def _backoff(attempt: int) -> float:
    """0.5 s, 1 s, 2 s, … (at most 8 s), with up to a quarter of jitter."""
    base = min(8.0, 0.5 * 2**attempt)
    return base * (1 - random.random() / 4)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    return retry_after_seconds(value)


def _retryable(response: httpx.Response) -> bool:
    if response.status_code in (429, 503) or response.status_code >= 500:
        return True
    if response.status_code == 409:
        # Only the idempotency conflict of a request still in progress; another 409 is an answer.
        try:
            error = response.json().get("error") or {}
        except (ValueError, AttributeError):
            return False
        return error.get("param") == "Idempotency-Key" or "in progress" in str(error.get("message", "")).lower()
    return False


def _retry_delay(response: httpx.Response | None, attempt: int) -> float:
    if response is not None:
        after = _retry_after(response)
        if after is not None:
            return after
    return _backoff(attempt)


def _headers(api_key: str, method: str, idempotency_key: str | None) -> dict[str, str]:
    headers = {"authorization": f"Bearer {api_key}", "user-agent": f"voice-agent-python/{VERSION}"}
    if method == "POST":
        headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
    return headers


def _answer(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        raise VoiceAgentError.from_response(response)
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text


def _params(query: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in (query or {}).items() if v is not None}


def _send(query: Mapping[str, Any] | None, json: Any, files: Any, data: Any, timeout: float | None) -> dict[str, Any]:
    """The keyword arguments of one httpx request: a JSON body, or a multipart form (``files`` and ``data``)."""
    sent: dict[str, Any] = {"params": _params(query)}
    if files is not None:
        sent["files"] = files
        sent["data"] = data or {}
    elif json is not None:
        sent["json"] = json
    if timeout is not None:
        sent["timeout"] = timeout
    return sent


class SyncTransport:
    def __init__(self, api_key: str, base_url: str, timeout: float, max_retries: int, client: httpx.Client | None):
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.http = client or httpx.Client(timeout=timeout)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        json: Any = None,
        idempotency_key: str | None = None,
        max_retries: int | None = None,
        files: Any = None,
        data: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any:
        headers = _headers(self.api_key, method, idempotency_key)
        retries = self.max_retries if max_retries is None else max_retries
        for attempt in range(retries + 1):
            try:
                response = self.http.request(
                    method, self.base_url + path, **_send(query, json, files, data, timeout), headers=headers
                )
            except httpx.TransportError as err:
                if attempt < retries:
                    time.sleep(_retry_delay(None, attempt))
                    continue
                raise VoiceAgentError.from_transport(method, path, err, attempt + 1) from err
            if attempt < retries and _retryable(response):
                time.sleep(_retry_delay(response, attempt))
                continue
            return _answer(response)
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.http.close()


class AsyncTransport:
    def __init__(
        self, api_key: str, base_url: str, timeout: float, max_retries: int, client: httpx.AsyncClient | None
    ):
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.http = client or httpx.AsyncClient(timeout=timeout)

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        json: Any = None,
        idempotency_key: str | None = None,
        max_retries: int | None = None,
        files: Any = None,
        data: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any:
        headers = _headers(self.api_key, method, idempotency_key)
        retries = self.max_retries if max_retries is None else max_retries
        for attempt in range(retries + 1):
            try:
                response = await self.http.request(
                    method, self.base_url + path, **_send(query, json, files, data, timeout), headers=headers
                )
            except httpx.TransportError as err:
                if attempt < retries:
                    await asyncio.sleep(_retry_delay(None, attempt))
                    continue
                raise VoiceAgentError.from_transport(method, path, err, attempt + 1) from err
            if attempt < retries and _retryable(response):
                await asyncio.sleep(_retry_delay(response, attempt))
                continue
            return _answer(response)
        raise AssertionError("unreachable")

    async def close(self) -> None:
        await self.http.aclose()
