import base64
import json
import os

import pytest

from voice_agent.webhooks import WebhookVerificationError, sign_webhook, verify_webhook

SECRET = "whsec_" + base64.b64encode(os.urandom(32)).decode()
BODY = json.dumps({"id": "evt_1", "type": "session.ended", "data": {"session_id": "ses_1"}})


def headers(scheme: str, **overrides):
    signed = sign_webhook(BODY, id="evt_1", type="session.ended", secret=SECRET, timestamp=1_000_000)
    keep = {k: v for k, v in signed.items() if k.startswith("x-webhook") == (scheme == "x")}
    keep.update(overrides)
    return keep


@pytest.mark.parametrize("scheme", ["x", "standard"])
def test_a_good_delivery_gives_its_event_in_either_scheme(scheme):
    event = verify_webhook(BODY.encode(), headers(scheme), SECRET, now=1_000_010)
    assert event["type"] == "session.ended"


@pytest.mark.parametrize("scheme", ["x", "standard"])
def test_a_changed_body_or_another_secret_is_refused(scheme):
    with pytest.raises(WebhookVerificationError) as changed:
        verify_webhook(BODY.replace("ses_1", "ses_2"), headers(scheme), SECRET, now=1_000_000)
    assert changed.value.reason == "signature_mismatch"
    other = "whsec_" + base64.b64encode(os.urandom(32)).decode()
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, headers(scheme), other, now=1_000_000)


def test_timestamps_beyond_the_tolerance_either_way_are_refused():
    for now, reason in [(1_000_301, "timestamp_too_old"), (999_699, "timestamp_too_new")]:
        with pytest.raises(WebhookVerificationError) as refused:
            verify_webhook(BODY, headers("x"), SECRET, now=now)
        assert refused.value.reason == reason


def test_missing_headers_and_a_parsed_body_are_refused_clearly():
    with pytest.raises(WebhookVerificationError) as missing:
        verify_webhook(BODY, {}, SECRET, now=1_000_000)
    assert missing.value.reason == "missing_signature"
    with pytest.raises(TypeError):
        verify_webhook(json.loads(BODY), headers("x"), SECRET, now=1_000_000)


def test_one_of_several_standard_signatures_may_match():
    good = headers("standard")["webhook-signature"]
    several = headers("standard", **{"webhook-signature": "v1,bm90IGl0 " + good})
    assert verify_webhook(BODY, several, SECRET, now=1_000_000)["id"] == "evt_1"


def test_a_scheme_can_be_required():
    both = sign_webhook(BODY, id="evt_1", type="session.ended", secret=SECRET, timestamp=1_000_000)
    for scheme in ("x-webhook", "standard"):
        assert verify_webhook(BODY, both, SECRET, now=1_000_000, scheme=scheme)["id"] == "evt_1"
    with pytest.raises(WebhookVerificationError) as no_x:
        verify_webhook(BODY, headers("standard"), SECRET, now=1_000_000, scheme="x-webhook")
    assert no_x.value.reason == "missing_signature"
    with pytest.raises(WebhookVerificationError) as no_standard:
        verify_webhook(BODY, headers("x"), SECRET, now=1_000_000, scheme="standard")
    assert no_standard.value.reason == "missing_signature"
    # A good Standard Webhooks signature does not vouch for a bad X-Webhook one when that is required.
    bad_x = {**both, "x-webhook-signature": "sha256=00"}
    assert verify_webhook(BODY, bad_x, SECRET, now=1_000_000, scheme="standard")["id"] == "evt_1"
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, bad_x, SECRET, now=1_000_000, scheme="x-webhook")
    with pytest.raises(ValueError):
        verify_webhook(BODY, both, SECRET, scheme="hmac")


def test_a_signature_header_with_non_ascii_characters_is_a_mismatch_not_a_crash():
    import time as _time

    body = b'{"id":"evt_1","type":"webhook.test","data":{}}'
    now = str(int(_time.time()))
    for headers in (
        {"x-webhook-signature": "sha256=\u00e9\u00e9", "x-webhook-timestamp": now, "x-webhook-id": "evt_1"},
        {"webhook-signature": "v1,\u00e9t\u00e9", "webhook-timestamp": now, "webhook-id": "evt_1"},
    ):
        with pytest.raises(WebhookVerificationError) as raised:
            verify_webhook(body, headers, "whsec_" + "A" * 32)
        assert raised.value.reason == "signature_mismatch"
