import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { numberEvents, type NumberPayloads } from './numbers.events';

/** Only its part of the event catalog so far. */
@Module({})
export class NumbersModule {
  static readonly context: BoundedContext<NumberPayloads> = { name: 'numbers', events: numberEvents };
}
