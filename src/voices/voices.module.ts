import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { voiceCloneEvents, type VoiceClonePayloads } from './voices.events';

/** Only its part of the event catalog so far. */
@Module({})
export class VoicesModule {
  static readonly context: BoundedContext<VoiceClonePayloads> = { name: 'voices', events: voiceCloneEvents };
}
