import type { ConversationEnd, ConversationReporter, TransferFailure, TurnMetrics } from '../../src/conversations';

type Report =
  | { kind: 'turn'; role: 'agent' | 'user'; content: string; dtmf?: string; t: number }
  | { kind: 'metrics'; metrics: TurnMetrics }
  | { kind: 'function_invoked'; name: string; status: string; duration_ms: number }
  | { kind: 'function_timeout'; function_id: string; name: string; timeout_ms: number }
  | { kind: 'transfer'; number: string }
  | ({ kind: 'transfer_failed'; number: string } & TransferFailure)
  | { kind: 'opt_out' }
  | { kind: 'ended'; reason: ConversationEnd };

/**
 * A ConversationReporter that keeps every report in order, each "stored" after `storeMs` (as a
 * session's stream would take a moment), and lets a test wait for one.
 */
export class RecordingReporter implements ConversationReporter {
  readonly reports: Report[] = [];
  /** Partial words (a streaming recogniser's), as they came: not stored, not in `reports`. */
  readonly partials: { content: string; t: number; at: number }[] = [];
  private waiters: (() => void)[] = [];

  constructor(private readonly storeMs = 5) {}

  turns(role?: 'agent' | 'user'): { role: string; content: string; dtmf?: string; t: number }[] {
    return this.reports.flatMap((r) => (r.kind === 'turn' && (!role || r.role === role) ? [r] : []));
  }

  metricsOf(): TurnMetrics[] {
    return this.reports.flatMap((r) => (r.kind === 'metrics' ? [r.metrics] : []));
  }

  ofKind<K extends Report['kind']>(kind: K): Extract<Report, { kind: K }>[] {
    return this.reports.filter((r): r is Extract<Report, { kind: K }> => r.kind === kind);
  }

  /** Resolves once `test` holds (checked after every report), or fails after `timeoutMs`. */
  async until(test: () => boolean, timeoutMs = 20_000, what = 'a report'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(this.reports)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  turn(entry: { role: 'agent' | 'user'; content: string; dtmf?: string; t: number }): Promise<void> {
    return this.store({ kind: 'turn', ...entry });
  }
  metrics(metrics: TurnMetrics): Promise<void> {
    return this.store({ kind: 'metrics', metrics });
  }
  functionInvoked(i: { name: string; status: 'succeeded' | 'failed' | 'timeout'; duration_ms: number }): Promise<void> {
    return this.store({ kind: 'function_invoked', ...i });
  }
  functionTimeout(t: { function_id: string; name: string; timeout_ms: number }): Promise<void> {
    return this.store({ kind: 'function_timeout', ...t });
  }
  partial(entry: { content: string; t: number }): void {
    this.partials.push({ ...entry, at: Date.now() });
  }
  transfer(number: string): Promise<void> {
    return this.store({ kind: 'transfer', number });
  }
  transferFailed(number: string, failure: TransferFailure): Promise<void> {
    return this.store({ kind: 'transfer_failed', number, ...failure });
  }
  optOut(): Promise<void> {
    return this.store({ kind: 'opt_out' });
  }
  ended(reason: ConversationEnd): Promise<void> {
    return this.store({ kind: 'ended', reason });
  }

  private async store(report: Report): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.storeMs));
    this.reports.push(report);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
