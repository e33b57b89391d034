"""Python client of the Voice Agent Platform (work in progress: issue 40)."""

from .errors import VoiceAgentError
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = ["VoiceAgentError", "WebhookVerificationError", "sign_webhook", "verify_webhook"]
