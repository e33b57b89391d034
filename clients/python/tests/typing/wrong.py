"""Must NOT type-check (test/unit/python-client.spec.ts expects mypy to report each marked line)."""

from voice_agent import AsyncVoiceAgent, VoiceAgent


async def main() -> None:
    client = VoiceAgent()
    aclient = AsyncVoiceAgent()
    client.calls.create({"to": 14155550100})  # WRONG: "to" is a string
    await client.sessions.get("ses_1")  # WRONG: the sync client's answer is not awaitable
    session = await aclient.sessions.get("ses_1")
    session["no_such_field"]  # WRONG: not a field of Session
    for s in aclient.sessions.list():  # WRONG: the async list is iterated with async for
        print(s)
