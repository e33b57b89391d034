/** The voices context's public face: what other contexts may use. */
export { VoicesModule } from './voices.module';
export { ensureVoiceUsable, VoiceUsable, type VoiceCheck } from './application/voice-usable.query';
export { BUILT_IN_VOICES } from './domain/built-in-voices';
