import { hasFields, type RequiredFields, type Upcaster } from '../../kernel/event-edge';

/** A timer as scheduled: its kind's name and its payload, stored as JSON (`TimersService.schedule`). */
export interface ScheduleTimer {
  readonly kind: string;
  readonly dueAt: Date;
  readonly payload: object;
  /** A second schedule with the same key is ignored: reactors replaying a batch schedule once. */
  readonly dedupeKey?: string;
  /** The tenant it works for, for fair claims: by default the payload's `tenant_id`, else none (''). */
  readonly tenantId?: string;
}

/** A timer of a kind, before it is scheduled: the payload is the kind's. */
export interface TimerOf<P> {
  readonly dueAt: Date;
  readonly payload: P;
  readonly dedupeKey?: string;
  readonly tenantId?: string;
}

/**
 * A kind of durable timer, declared once with its payload type P (decision 90): scheduling takes a P
 * (`kind.at({ dueAt, payload })`), and the handler registered for it receives a P, read back from
 * the stored JSON through `decode` (older payload shapes upcast, required fields checked), so no
 * handler casts its payload.
 */
export class TimerKind<P extends object> {
  private readonly required: RequiredFields<P>;

  constructor(
    readonly name: string,
    required: RequiredFields<P>,
    private readonly upcast?: Upcaster,
  ) {
    this.required = required;
  }

  at<T extends TimerOf<P>>(timer: T): T & { readonly kind: string } {
    return { kind: this.name, ...timer };
  }

  /** The stored payload as P; throws when a required field is missing (the timer then fails and backs off). */
  decode(stored: Readonly<Record<string, unknown>>): P {
    const payload = this.upcast ? this.upcast(stored) : stored;
    if (hasFields(payload, this.required)) return payload;
    throw new Error(`timer ${this.name}: payload lacks a required field of ${Object.keys(this.required).join(', ')}`);
  }
}

/** `defineTimerKind<DispatchPayload>('media.dispatch', { tenant_id: true, session_id: true, request: true })`. */
export function defineTimerKind<P extends object>(
  name: string,
  required: RequiredFields<P>,
  upcast?: Upcaster,
): TimerKind<P> {
  return new TimerKind(name, required, upcast);
}
