"""Errors of the API as exceptions: the error body of the API (``error.type``, ``message``, ``param``)
and the request's id, or ``connection_error``/``timeout`` (status 0) when no answer came."""

from __future__ import annotations

from typing import Any

import httpx


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
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.type = type
        self.param = param
        self.request_id = request_id
        self.body = body

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
            request_id=error.get("request_id") or response.headers.get("x-request-id"),
            body=body,
        )

    @classmethod
    def from_transport(cls, method: str, path: str, err: httpx.TransportError, attempts: int) -> "VoiceAgentError":
        timed_out = isinstance(err, httpx.TimeoutException)
        what = "timed out" if timed_out else f"failed: {err}"
        return cls(
            f"{method} {path} {what} ({attempts} attempts).", status=0, type="timeout" if timed_out else "connection_error"
        )
