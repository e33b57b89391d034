"""Webhook signatures: checking a delivery (``verify_webhook``) and signing one as the platform does
(``sign_webhook``, for tests). Both schemes the platform sends are accepted:

- ``X-Webhook-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">``, keyed with the whole
  ``whsec_…`` secret, with ``X-Webhook-Timestamp``;
- Standard Webhooks: ``webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">``,
  keyed with the base64-decoded part of the secret after ``whsec_``, with ``webhook-id`` and
  ``webhook-timestamp`` (several space-separated signatures may be given: one must match).

Always verify the raw bytes received: parsing the JSON and serialising it again breaks the signature.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
from typing import Any, Iterable, Protocol, Tuple

SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE_SECONDS = 300

_REASONS = {
    "missing_signature": "No signature header: neither X-Webhook-Signature nor webhook-signature with webhook-id.",
    "missing_timestamp": "No timestamp header.",
    "invalid_timestamp": "The timestamp is not Unix seconds.",
    "timestamp_too_old": "The timestamp is older than the tolerance: a replay, or a clock far off.",
    "timestamp_too_new": "The timestamp is further in the future than the tolerance: a clock far off.",
    "signature_mismatch": "No signature matches: another secret, or the body was changed (parsed and serialised again?).",
    "invalid_body": "The body is not a JSON event with an id and a type.",
}


class WebhookVerificationError(Exception):
    """A delivery that must be refused; ``reason`` says why (one of the keys of the reasons above)."""

    def __init__(self, reason: str) -> None:
        super().__init__(_REASONS.get(reason, reason))
        self.reason = reason


class Headers(Protocol):
    """Any headers with ``items()``: a ``dict``, ``http.server``'s and ``email``'s messages, Flask's,
    Django's and Starlette's headers."""

    def items(self) -> Iterable[Tuple[str, Any]]: ...


def _header(headers: Headers, name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _x_signature(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return "sha256=" + digest


def _standard_signature(secret: str, event_id: str, timestamp: str, body: bytes) -> str:
    key = base64.b64decode(secret[len(SECRET_PREFIX) :])
    mac = hmac.new(key, f"{event_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def verify_webhook(
    body: bytes | str,
    headers: Headers,
    secret: str,
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
    scheme: str = "auto",
) -> dict[str, Any]:
    """The event of a delivery whose signature and timestamp are good; else WebhookVerificationError.

    ``scheme``: ``"auto"`` (``X-Webhook-Signature`` when present, else Standard Webhooks),
    ``"x-webhook"`` or ``"standard"`` to check that scheme's headers only."""
    if scheme not in ("auto", "x-webhook", "standard"):
        raise ValueError('verify_webhook: scheme must be "auto", "x-webhook" or "standard"')
    if not isinstance(secret, str) or not secret.startswith(SECRET_PREFIX):
        raise TypeError("verify_webhook: secret must be the endpoint secret (whsec_…)")
    if not isinstance(body, (bytes, bytearray, str)):
        raise TypeError("verify_webhook: body must be the raw body (bytes or str), not a parsed object")
    x_signature = _header(headers, "x-webhook-signature")
    std_signature = _header(headers, "webhook-signature")
    std_id = _header(headers, "webhook-id")
    use_x = scheme == "x-webhook" or (scheme == "auto" and x_signature is not None)
    if use_x and x_signature is None:
        raise WebhookVerificationError("missing_signature")
    if not use_x and (std_signature is None or std_id is None):
        raise WebhookVerificationError("missing_signature")
    timestamp = _header(headers, "x-webhook-timestamp" if use_x else "webhook-timestamp")
    if timestamp is None:
        raise WebhookVerificationError("missing_timestamp")
    if not re.fullmatch(r"\d{1,15}", timestamp):
        raise WebhookVerificationError("invalid_timestamp")
    age = int(now if now is not None else time.time()) - int(timestamp)
    if age > tolerance_seconds:
        raise WebhookVerificationError("timestamp_too_old")
    if age < -tolerance_seconds:
        raise WebhookVerificationError("timestamp_too_new")
    raw = body.encode() if isinstance(body, str) else bytes(body)
    # Compared as bytes: compare_digest refuses str with non-ASCII characters (a forged header).
    if use_x:
        ok = hmac.compare_digest(_x_signature(secret, timestamp, raw).encode(), _bytes(x_signature or ""))
    else:
        expected = _standard_signature(secret, std_id or "", timestamp, raw).encode()
        ok = any(hmac.compare_digest(expected, _bytes(candidate)) for candidate in (std_signature or "").split())
    if not ok:
        raise WebhookVerificationError("signature_mismatch")
    try:
        event = json.loads(raw)
    except ValueError:
        raise WebhookVerificationError("invalid_body") from None
    if not isinstance(event, dict) or not isinstance(event.get("id"), str) or not isinstance(event.get("type"), str):
        raise WebhookVerificationError("invalid_body")
    return event


def sign_webhook(body: str, *, id: str, type: str, secret: str, timestamp: int | None = None) -> dict[str, str]:
    """The headers of a delivery of ``body`` signed with ``secret``, as the platform sends them."""
    ts = str(timestamp if timestamp is not None else int(time.time()))
    raw = body.encode()
    return {
        "content-type": "application/json",
        "x-webhook-signature": _x_signature(secret, ts, raw),
        "x-webhook-timestamp": ts,
        "x-webhook-id": id,
        "x-webhook-event": type,
        "webhook-id": id,
        "webhook-timestamp": ts,
        "webhook-signature": _standard_signature(secret, id, ts, raw),
    }
