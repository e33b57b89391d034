import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../event-store/event-store.port';
import { foldStored } from '../../kernel/decider';
import { ApiError } from '../../kernel/http/api-error';
import { isBuiltInVoice, VOICE_CLONE_ID } from '../domain/built-in-voices';
import { voiceCloneDecider, voiceCloneStream } from '../domain/voice-clone.decider';

/** Why a voice cannot be used: `unknown` also stands for another tenant's or a deleted voice (ids reveal nothing). */
export type VoiceCheck = { usable: true } | { usable: false; reason: 'unknown' | 'training' | 'failed' };

/**
 * Whether the tenant may use this voice in a call, a campaign, a room or an inbound number now: a
 * built-in voice, or one of its voice clones once trained. Answered from the voice's own stream (a few
 * events), so a voice is usable as soon as voice_clone.training_succeeded is stored, before any read
 * model has it.
 */
export class VoiceUsable extends Query<VoiceCheck> {
  constructor(
    readonly tenantId: string,
    readonly voiceId: string,
  ) {
    super();
  }
}

@QueryHandler(VoiceUsable)
export class VoiceUsableHandler implements IQueryHandler<VoiceUsable> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ tenantId, voiceId }: VoiceUsable): Promise<VoiceCheck> {
    if (isBuiltInVoice(voiceId)) return { usable: true };
    if (!VOICE_CLONE_ID.test(voiceId)) return { usable: false, reason: 'unknown' };
    const events = await this.store.readStream(voiceCloneStream(voiceId));
    if (events[0]?.metadata.tenant_id !== tenantId) return { usable: false, reason: 'unknown' };
    const state = foldStored(voiceCloneDecider, events);
    switch (state.status) {
      case 'ready':
        return { usable: true };
      case 'queued':
      case 'training':
        return { usable: false, reason: 'training' };
      case 'failed':
        return { usable: false, reason: 'failed' };
      default:
        return { usable: false, reason: 'unknown' };
    }
  }
}

const NOT_READY: Record<Exclude<VoiceCheck, { usable: true }>['reason'], string> = {
  unknown: 'is not a built-in voice or one of your voice clones',
  training: 'is still training; it can be used once voice_clone.training_succeeded has been sent',
  failed: 'failed training; upload new samples to clone the voice again',
};

/**
 * For API entry points that take a voice id (calls, campaigns, rooms, phone numbers): resolves when
 * the tenant may use the voice, else throws the 422 `voice_not_ready` error naming `param`.
 */
export async function ensureVoiceUsable(
  queries: QueryBus,
  tenantId: string,
  voiceId: string,
  param: string,
): Promise<void> {
  const check = await queries.execute(new VoiceUsable(tenantId, voiceId));
  if (check.usable) return;
  throw new ApiError(422, 'voice_not_ready', `The voice ${voiceId} ${NOT_READY[check.reason]}.`, param);
}
