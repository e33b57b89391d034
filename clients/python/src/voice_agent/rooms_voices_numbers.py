"""Rooms, voice clones and phone numbers, like the other resources: one request per method, whose
answer's body it returns (an awaitable of it with ``AsyncVoiceAgent``). A voice clone's samples are
uploaded as a multipart form."""

from __future__ import annotations

import mimetypes
import os
from typing import Any, Iterable, Mapping, Tuple, Union

from ._resource import _id, _Resource
from .pagination import PageIterator
from .models import (
    ConfirmVerificationDto,
    CreatePhoneNumberDto,
    CreateRoomDto,
    Deleted,
    PhoneNumber,
    PhoneNumberVerification,
    Room,
    Session,
    TestInboundCallDto,
    UpdatePhoneNumberDto,
    VoiceClone,
    VoiceCloneQueued,
)

#: One audio sample: a path (``str``/``os.PathLike``), or ``(filename, bytes)``, or
#: ``(filename, bytes, content_type)``.
VoiceSample = Union[str, "os.PathLike[str]", Tuple[str, bytes], Tuple[str, bytes, str]]


class Rooms(_Resource):
    def create(self, body: CreateRoomDto | None = None, *, idempotency_key: str | None = None) -> Room:
        """Creates a WebRTC room and mints the participant's signed ``room_url``."""
        return self._call("POST", "/v1/rooms", json=body or {}, idempotency_key=idempotency_key)

    def get(self, room_id: str) -> Room:
        return self._call("GET", f"/v1/rooms/{_id(room_id)}")

    def list(self, **query: Any) -> PageIterator[Room]:
        """Newest first (``status``, ``limit``)."""
        return self._list("/v1/rooms", query, id_key="room_id")


def _sample(sample: VoiceSample) -> tuple[str, tuple[str, bytes, str]]:
    if isinstance(sample, tuple):
        filename, data = sample[0], sample[1]
        content_type = sample[2] if len(sample) > 2 else None
    else:
        filename = str(sample)
        with open(sample, "rb") as f:
            data = f.read()
        content_type = None
    name = str(filename).replace("\\", "/").rsplit("/", 1)[-1]
    return ("samples", (name, bytes(data), content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"))


class VoiceClones(_Resource):
    def create(
        self, *, name: str, samples: Iterable[VoiceSample], idempotency_key: str | None = None
    ) -> VoiceCloneQueued:
        """Uploads samples (multipart) and queues the training: ``{voice_id, name, status: "queued"}``."""
        files = [_sample(s) for s in samples]
        return self._call(
            "POST", "/v1/voice_clones", files=files, data={"name": name}, idempotency_key=idempotency_key
        )

    def get(self, voice_id: str) -> VoiceClone:
        return self._call("GET", f"/v1/voice_clones/{_id(voice_id)}")

    def list(self, **query: Any) -> PageIterator[VoiceClone]:
        return self._list("/v1/voice_clones", query, id_key="voice_id")

    def delete(self, voice_id: str) -> Deleted:
        return self._call("DELETE", f"/v1/voice_clones/{_id(voice_id)}")


class PhoneNumbers(_Resource):
    def create(self, body: CreatePhoneNumberDto, *, idempotency_key: str | None = None) -> PhoneNumber:
        return self._call("POST", "/v1/phone_numbers", json=body, idempotency_key=idempotency_key)

    def get(self, phone_number_id: str) -> PhoneNumber:
        return self._call("GET", f"/v1/phone_numbers/{_id(phone_number_id)}")

    def list(self, **query: Any) -> PageIterator[PhoneNumber]:
        return self._list("/v1/phone_numbers", query, id_key="phone_number_id")

    def update(self, phone_number_id: str, body: UpdatePhoneNumberDto) -> PhoneNumber:
        return self._call("PATCH", f"/v1/phone_numbers/{_id(phone_number_id)}", json=body)

    def delete(self, phone_number_id: str) -> Deleted:
        return self._call("DELETE", f"/v1/phone_numbers/{_id(phone_number_id)}")

    def request_verification(self, phone_number_id: str) -> PhoneNumberVerification:
        """Places a verification call to the number: its agent speaks a 6-digit code."""
        return self._call("POST", f"/v1/phone_numbers/{_id(phone_number_id)}/verification")

    def confirm_verification(self, phone_number_id: str, body: ConfirmVerificationDto) -> PhoneNumber:
        """The code heard on the verification call: returns the number, now ``active``."""
        return self._call("POST", f"/v1/phone_numbers/{_id(phone_number_id)}/verification/confirm", json=body)

    def test_inbound_call(self, phone_number_id: str, body: TestInboundCallDto | Mapping[str, Any]) -> Session:
        """Test mode: plays one inbound call on the simulator; returns the new session."""
        return self._call("POST", f"/v1/phone_numbers/{_id(phone_number_id)}/test_inbound_calls", json=body)
