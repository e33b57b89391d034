"""Python client of the Voice Agent Platform: ``VoiceAgent`` (sync), ``AsyncVoiceAgent`` (async),
``VoiceAgentError``, and webhook verification (``verify_webhook``). The API's schemas are TypedDicts
in ``voice_agent.models``."""

from . import models
from ._http import VERSION
from .client import AsyncVoiceAgent, VoiceAgent
from .errors import VoiceAgentError
from .resources import TERMINAL_SESSION_STATUSES
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__version__ = VERSION
__all__ = [
    "AsyncVoiceAgent",
    "TERMINAL_SESSION_STATUSES",
    "VERSION",
    "VoiceAgent",
    "VoiceAgentError",
    "WebhookVerificationError",
    "models",
    "sign_webhook",
    "verify_webhook",
]
