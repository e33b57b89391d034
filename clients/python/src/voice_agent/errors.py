"""Errors of the API as exceptions: the error body of the API (``error.type``, ``message``, ``param``)
and the request's id, or ``connection_error``/``timeout`` (status 0) when no answer came."""

from __future__ import annotations

import datetime
import email.utils
import time
from typing import Any

import httpx


#: The longest wait a Retry-After may ask for before the client gives up waiting (seconds).
MAX_RETRY_AFTER_SECONDS = 60.0


def retry_after_seconds(value: str | None) -> float | None:
    """A ``Retry-After`` value (seconds, or an HTTP date) in seconds from now, at most 60 s; None when
    absent or unreadable (the caller's own backoff then applies)."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # "-0000": UTC by RFC 5322, not local time
            when = when.replace(tzinfo=datetime.timezone.utc)
        seconds = when.timestamp() - time.time()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, min(MAX_RETRY_AFTER_SECONDS, seconds))


class VoiceAgentError(Exception):
    def __init__(
        self,
        message: str,
        *,
        status: int,
        type: str,
        param: str | None = None,
        request_id: str | None = None,
        body: Any = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.type = type
        self.param = param
        self.request_id = request_id
        self.body = body
        #: The answer's ``Retry-After`` in seconds (429, 503), when it had one.
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"VoiceAgentError(status={self.status}, type={self.type!r}, param={self.param!r}, message={self.message!r})"

    @classmethod
    def from_response(cls, response: httpx.Response) -> "VoiceAgentError":
        try:
            body: Any = response.json()
        except ValueError:
            body = response.text
        error = body.get("error") if isinstance(body, dict) else None
        error = error if isinstance(error, dict) else {}
        return cls(
            str(error.get("message") or f"{response.request.method} {response.request.url.path}: {response.status_code}"),
            status=response.status_code,
            type=str(error.get("type") or "api_error"),
            param=error.get("param"),
            request_id=error.get("request_id") or response.headers.get("request-id"),
            retry_after=retry_after_seconds(response.headers.get("retry-after")),
            body=body,
        )

    @classmethod
    def from_transport(cls, method: str, path: str, err: httpx.TransportError, attempts: int) -> "VoiceAgentError":
        timed_out = isinstance(err, httpx.TimeoutException)
        what = "timed out" if timed_out else f"failed: {err}"
        return cls(
            f"{method} {path} {what} ({attempts} attempts).", status=0, type="timeout" if timed_out else "connection_error"
        )
