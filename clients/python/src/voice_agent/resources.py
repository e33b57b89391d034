"""Calls, sessions, campaigns, webhook endpoints, credits, the do-not-call list and analytics. Each
method is one request whose answer's body it returns (typed with the models generated from the
OpenAPI document); with ``AsyncVoiceAgent`` the same method returns an awaitable of it. Lists that
paginate return an iterator over every item (``for``/``async for``; ``first_page()`` for one page)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, List

from ._resource import _id, _Resource
from .pagination import PageIterator
from .models import (
    AddContactsDto,
    AddDncDto,
    CallAnalyticsDto,
    Campaign,
    CampaignContact,
    CampaignProgressDto,
    CreateCallDto,
    CreateCampaignDto,
    CreateEndpointDto,
    CreateTopupDto,
    CreditBalance,
    Deleted,
    Delivery,
    DeliveryAnalyticsDto,
    DeliveryDetailDto,
    DeliveryQueued,
    DncEntry,
    DncRemoved,
    EventEnvelope,
    RecordingLink,
    RecoverDto,
    Recovery,
    RotatedSecret,
    Session,
    TestEventSent,
    ToolSecret,
    Topup,
    Transcript,
    UpdateCreditsDto,
    UpdateEndpointDto,
    WebhookEndpoint,
    WebhookEndpointWithSecret,
)

#: The statuses a session ends in (``sessions.wait_until_done`` returns at the first of them).
TERMINAL_SESSION_STATUSES = frozenset({"completed", "failed", "no_answer", "voicemail", "busy"})


class Calls(_Resource):
    def create(self, body: CreateCallDto, *, idempotency_key: str | None = None) -> Session:
        """Places one outbound call; returns as soon as it is queued, with the session (``queued``)."""
        return self._call("POST", "/v1/calls", json=body, idempotency_key=idempotency_key)


class Sessions(_Resource):
    def get(self, session_id: str) -> Session:
        return self._call("GET", f"/v1/sessions/{_id(session_id)}")

    def list(self, **query: Any) -> PageIterator[Session]:
        """Newest first: ``status``, ``campaign_id``, ``direction``, ``limit`` (per page)."""
        return self._list("/v1/sessions", query, id_key="session_id")

    def transcript(self, session_id: str) -> Transcript:
        return self._call("GET", f"/v1/sessions/{_id(session_id)}/transcript.json")

    def events(self, session_id: str) -> List[EventEnvelope]:
        """The session's events in commit order, as webhook envelopes."""
        return self._data(f"/v1/sessions/{_id(session_id)}/events")

    def recording(self, session_id: str) -> RecordingLink:
        """A fresh signed link to the session's recording (``url``, ``expires_at``)."""
        return self._call("GET", f"/v1/sessions/{_id(session_id)}/recording")

    def wait_until_done(self, session_id: str, *, interval: float = 0.5, timeout: float = 120.0) -> Session:
        """Polls ``get`` until the session reaches a terminal status. Webhooks (or the events feed) are
        the better way to follow outcomes; this suits scripts and tests."""
        if self._async:
            return self._await_done(session_id, interval, timeout)
        deadline = time.monotonic() + timeout
        while True:
            session = self.get(session_id)
            if session["status"] in TERMINAL_SESSION_STATUSES:
                return session
            if time.monotonic() + interval > deadline:
                raise TimeoutError(f"session {session_id} is still {session['status']} after {timeout} s")
            time.sleep(interval)

    async def _await_done(self, session_id: str, interval: float, timeout: float) -> Session:
        deadline = time.monotonic() + timeout
        while True:
            session = await self.get(session_id)  # type: ignore[misc]
            if session["status"] in TERMINAL_SESSION_STATUSES:
                return session
            if time.monotonic() + interval > deadline:
                raise TimeoutError(f"session {session_id} is still {session['status']} after {timeout} s")
            await asyncio.sleep(interval)


class Campaigns(_Resource):
    def create(self, body: CreateCampaignDto, *, idempotency_key: str | None = None) -> Campaign:
        """Creates a draft campaign."""
        return self._call("POST", "/v1/campaigns", json=body, idempotency_key=idempotency_key)

    def run(self, body: CreateCampaignDto, *, idempotency_key: str | None = None) -> Campaign:
        """Creates a campaign with its contacts and starts it at once."""
        return self._call("POST", "/v1/campaigns/run", json=body, idempotency_key=idempotency_key)

    def get(self, campaign_id: str) -> Campaign:
        return self._call("GET", f"/v1/campaigns/{_id(campaign_id)}")

    def list(self, **query: Any) -> PageIterator[Campaign]:
        return self._list("/v1/campaigns", query, id_key="campaign_id")

    def add_contacts(
        self, campaign_id: str, body: AddContactsDto, *, idempotency_key: str | None = None
    ) -> Campaign:
        return self._call(
            "POST", f"/v1/campaigns/{_id(campaign_id)}/contacts", json=body, idempotency_key=idempotency_key
        )

    def list_contacts(self, campaign_id: str, **query: Any) -> PageIterator[CampaignContact]:
        """The campaign's contacts (``status``, ``limit``)."""
        return self._list(f"/v1/campaigns/{_id(campaign_id)}/contacts", query, id_key="contact_id")

    def start(self, campaign_id: str) -> Campaign:
        return self._call("POST", f"/v1/campaigns/{_id(campaign_id)}/start")

    def pause(self, campaign_id: str) -> Campaign:
        return self._call("POST", f"/v1/campaigns/{_id(campaign_id)}/pause")

    def resume(self, campaign_id: str) -> Campaign:
        return self._call("POST", f"/v1/campaigns/{_id(campaign_id)}/resume")

    def progress(self, campaign_id: str, **query: Any) -> CampaignProgressDto:
        """Progress over time (``interval``)."""
        return self._call("GET", f"/v1/campaigns/{_id(campaign_id)}/progress", query=query)


class WebhookEndpoints(_Resource):
    def create(self, body: CreateEndpointDto, *, idempotency_key: str | None = None) -> WebhookEndpointWithSecret:
        """Registers a receiver; the answer carries its ``secret``, shown this once."""
        return self._call("POST", "/v1/webhook_endpoints", json=body, idempotency_key=idempotency_key)

    def list(self) -> List[WebhookEndpoint]:
        """Every endpoint of the tenant (the API does not paginate them)."""
        return self._data("/v1/webhook_endpoints")

    def get(self, endpoint_id: str) -> WebhookEndpoint:
        return self._call("GET", f"/v1/webhook_endpoints/{_id(endpoint_id)}")

    def update(self, endpoint_id: str, body: UpdateEndpointDto) -> WebhookEndpoint:
        return self._call("PATCH", f"/v1/webhook_endpoints/{_id(endpoint_id)}", json=body)

    def delete(self, endpoint_id: str) -> Deleted:
        return self._call("DELETE", f"/v1/webhook_endpoints/{_id(endpoint_id)}")

    def rotate_secret(self, endpoint_id: str) -> RotatedSecret:
        """A new secret; the old one stops signing at once."""
        return self._call("POST", f"/v1/webhook_endpoints/{_id(endpoint_id)}/rotate_secret")

    def send_test(self, endpoint_id: str) -> TestEventSent:
        """Sends one ``webhook.test`` event to this endpoint only."""
        return self._call("POST", f"/v1/webhook_endpoints/{_id(endpoint_id)}/test")

    def enable(self, endpoint_id: str) -> WebhookEndpoint:
        return self._call("POST", f"/v1/webhook_endpoints/{_id(endpoint_id)}/enable")

    def deliveries(self, endpoint_id: str, *, limit: int | None = None) -> List[Delivery]:
        """The endpoint's latest deliveries (not paginated: ``limit`` of them)."""
        return self._data(f"/v1/webhook_endpoints/{_id(endpoint_id)}/deliveries", {"limit": limit})

    def delivery(self, endpoint_id: str, delivery_id: str) -> DeliveryDetailDto:
        """One delivery with its attempts."""
        return self._call("GET", f"/v1/webhook_endpoints/{_id(endpoint_id)}/deliveries/{_id(delivery_id)}")

    def retry_delivery(self, endpoint_id: str, delivery_id: str) -> DeliveryQueued:
        return self._call(
            "POST", f"/v1/webhook_endpoints/{_id(endpoint_id)}/deliveries/{_id(delivery_id)}/retry"
        )

    def recover(self, endpoint_id: str, body: RecoverDto) -> Recovery:
        """Re-sends every delivery to this endpoint since ``since`` that did not succeed."""
        return self._call("POST", f"/v1/webhook_endpoints/{_id(endpoint_id)}/recover", json=body)


class Credits(_Resource):
    def get(self) -> CreditBalance:
        return self._call("GET", "/v1/credits")

    def update(self, body: UpdateCreditsDto) -> CreditBalance:
        return self._call("PATCH", "/v1/credits", json=body)

    def create_topup(self, body: CreateTopupDto, *, idempotency_key: str | None = None) -> Topup:
        return self._call("POST", "/v1/credits/topups", json=body, idempotency_key=idempotency_key)

    def get_topup(self, topup_id: str) -> Topup:
        return self._call("GET", f"/v1/credits/topups/{_id(topup_id)}")

    def list_topups(self, **query: Any) -> PageIterator[Topup]:
        return self._list("/v1/credits/topups", query, id_key="topup_id")


class Dnc(_Resource):
    def list(self) -> List[DncEntry]:
        """The whole do-not-call list (the API does not paginate it)."""
        return self._data("/v1/dnc")

    def add(self, body: AddDncDto) -> DncEntry:
        return self._call("POST", "/v1/dnc", json=body)

    def remove(self, phone_number: str) -> DncRemoved:
        return self._call("DELETE", f"/v1/dnc/{_id(phone_number)}")


class Analytics(_Resource):
    def calls(self, **query: Any) -> CallAnalyticsDto:
        """Call figures per day (``days``, ``test_mode``)."""
        return self._call("GET", "/v1/analytics/calls", query=query)

    def deliveries(self, **query: Any) -> DeliveryAnalyticsDto:
        """Webhook delivery figures per endpoint (``days``)."""
        return self._call("GET", "/v1/analytics/deliveries", query=query)


class ToolSecrets(_Resource):
    def rotate(self) -> ToolSecret:
        """A new secret for the signatures of the agent's tool calls; the old one stops at once."""
        return self._call("POST", "/v1/tool_secret/rotate")
