import {
  ENGINE_APOLOGY,
  ENGINE_FAILURE_CLOSING,
  EngineError,
  type EngineKind,
  isAbortError,
  MAX_FAILED_TURNS,
} from '../engines/engines';
import type { TurnTelemetry } from './turn-telemetry';

/** What the agent says for a failed turn, and whether the conversation ends after it. */
export interface Apology {
  line: string;
  /** MAX_FAILED_TURNS turns in a row failed: the line is the closing, and the conversation ends (`goodbye`). */
  last: boolean;
}

/**
 * Decision 107 (docs/speech-engines.md, "When a hosted engine fails"): a turn a hosted engine failed
 * (recognition, the model or synthesis) is answered with ENGINE_APOLOGY, and the conversation goes
 * on; after MAX_FAILED_TURNS such turns in a row the agent says ENGINE_FAILURE_CLOSING and ends it.
 * Each failure is counted (`conversation_engine_failures_total{engine}`). A barge-in's abort is not
 * a failure; any other error of an engine counts as its failure.
 */
export class FailedTurns {
  private inRow = 0;

  constructor(
    private readonly sessionId: string,
    private readonly telemetry: TurnTelemetry,
  ) {}

  /** Whether `err` is an engine's failure (not the abort of a barge-in or of the end). */
  static isFailure(err: unknown): boolean {
    return err instanceof EngineError || (err instanceof Error && !isAbortError(err));
  }

  /** A turn failed in `engine`: what to say. */
  failed(err: unknown, fallback: EngineKind): Apology {
    const engine = err instanceof EngineError ? err.engine : fallback;
    this.telemetry.engineFailed?.(this.sessionId, engine);
    this.inRow++;
    const last = this.inRow >= MAX_FAILED_TURNS;
    return { line: last ? ENGINE_FAILURE_CLOSING : ENGINE_APOLOGY, last };
  }

  /** A turn was answered as it should be: the count starts again. */
  succeeded(): void {
    this.inRow = 0;
  }
}
