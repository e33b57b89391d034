import { Module } from '@nestjs/common';
import type { BoundedContext } from '../runtime/bounded-context';
import { roomEvents, type RoomPayloads } from './rooms.events';

/** Only its part of the event catalog so far. */
@Module({})
export class RoomsModule {
  static readonly context: BoundedContext<RoomPayloads> = { name: 'rooms', events: roomEvents };
}
