import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { creditsEvents, type CreditsPayloads } from './credits.events';

/** Only its part of the event catalog so far. */
@Module({})
export class CreditsModule {
  static readonly context: BoundedContext<CreditsPayloads> = { name: 'credits', events: creditsEvents };
}
