/**
 * Stock voices every tenant may use without cloning one: `voice_default` (what a call without
 * `agent_config.voice_id` uses) and a few named ones. Any other voice id must be one of the tenant's
 * trained voice clones (`voi_…`).
 */
export const BUILT_IN_VOICES = ['voice_default', 'voice_ava', 'voice_leo', 'voice_mia'] as const;

export const isBuiltInVoice = (voiceId: string): boolean => (BUILT_IN_VOICES as readonly string[]).includes(voiceId);

/** The shape of a voice clone's id: `voi_` and 20 lower-case letters and digits. */
export const VOICE_CLONE_ID = /^voi_[0-9a-z]{20}$/;
