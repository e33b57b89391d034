import type { AgentConfig, TestPersona } from '../domain/session.state';

/** A test call with a `test_persona`, ready to be conversed (its session is still queued). */
export interface PersonaCall {
  tenantId: string;
  sessionId: string;
  agent: AgentConfig;
  persona: TestPersona;
}

/**
 * Who converses a test persona call (docs/conversations-api.md, "Test persona calls"): sessions
 * schedules its `session.persona` timer and hands the call over; the conversations context provides
 * this port (a global provider, as credits does for BillingHolds), so that sessions never imports
 * conversations, which itself sends the sessions' signals. `run` resolves when the call has ended and
 * its signals (answered, the turns, hang-up, recording) are stored, or at once when there is no room.
 */
export abstract class PersonaCalls {
  /**
   * Runs the call; `{ retryInMs }` when this instance carries all the conversations it can: the call
   * was not started (its session is still queued) and is to be run again later.
   */
  abstract run(call: PersonaCall): Promise<{ retryInMs: number } | void>;
  /** Whether this instance takes one more conversation now (a persona call placed meanwhile is refused, 503). */
  abstract admitting(): boolean;
}
