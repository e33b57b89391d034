/**
 * Request parts of the agent that talks (docs/conversations-api.md), shared by the contract walk:
 * every agent_config field the conversation uses, and a test call with a speaking persona.
 */

/** The agent_config fields beyond `prompt`, each set (the tool URL is loopback: WEBHOOK_ALLOW_PRIVATE_URLS). */
export const TALKING_AGENT_FIELDS = {
  first_message: 'Hello from the walk.',
  language: 'en-GB',
  transfer_number: '+14155550123',
  tools: [
    {
      name: 'lookup',
      description: 'Looks something up.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
      url: 'http://127.0.0.1:9/tools/lookup',
      timeout_ms: 2000,
    },
  ],
  max_duration_seconds: 600,
  interruptible: false,
};

/** A test call with a persona, less its agent_config. */
export const PERSONA_CALL = {
  to: '+14155550100',
  from: '+14155550000',
  test_mode: true,
  test_persona: { script: ['Hello.', 'Goodbye.'], pause_ms: 500 },
};
