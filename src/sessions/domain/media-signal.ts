import {
  SESSION_FAILURE_STATUSES,
  TRANSFER_FAILURE_REASONS,
  type SessionFailureStatus,
  type TransferFailureReason,
} from '../sessions.events';

/**
 * What a media plane reports about a live call: the test-pool simulator and an external gateway
 * (through the signed ingest API) speak the same signals. `seq` increases per session and makes a
 * repeated signal (a retried timer or HTTP call) a no-op.
 */
export type MediaSignal =
  | { kind: 'answered' }
  /** A user turn of keys pressed has `dtmf` (the digits) and no words. */
  | { kind: 'turn'; role: 'agent' | 'user'; content?: string; dtmf?: string; t: number }
  | { kind: 'function_invoked'; name: string; status: string; duration_ms: number }
  | { kind: 'function_timeout'; function_id: string; name: string; timeout_ms: number }
  | { kind: 'transfer'; transfer_number: string }
  | { kind: 'transfer_failed'; transfer_number: string; reason: TransferFailureReason; sip_code: number | null }
  | { kind: 'opt_out' }
  | { kind: 'consent_refused' }
  | { kind: 'agent_disposition'; code: string; note: string | null }
  | {
      kind: 'hangup';
      status: 'completed' | SessionFailureStatus;
      end_reason: string;
      /** Simulated calls report their scripted length; otherwise it is ended_at minus started_at. */
      duration_seconds?: number;
      /** An answering machine took the call and the agent left its message. */
      voicemail_message_left?: boolean;
    }
  /** Who answered an outbound call (answering-machine detection), and after how long. */
  | { kind: 'amd'; result: 'human' | 'machine' | 'unknown'; decided_after_ms: number }
  | { kind: 'recording_ready'; recording_id: string; duration_seconds: number; channels: 'dual' | 'mono' }
  | ({ kind: 'turn_metrics' } & TurnMetrics);

/**
 * One agent turn's latency breakdown (`metrics.turns[]` of a session): when the user stopped speaking
 * and when the agent's first audio frame went out (ms from the session's start), the difference
 * (`voice_to_voice_ms`) and the time inside each engine. `t`: seconds, as the turn's transcript entry.
 */
export interface TurnMetrics {
  t: number;
  user_speech_end_ms: number;
  agent_audio_start_ms: number;
  voice_to_voice_ms: number;
  stt_ms: number;
  llm_first_token_ms: number;
  tts_first_audio_ms: number;
  interrupted: boolean;
}

/** The millisecond fields of a turn's metrics, in the order a session shows them. */
export const TURN_METRIC_MS_FIELDS = [
  'user_speech_end_ms',
  'agent_audio_start_ms',
  'voice_to_voice_ms',
  'stt_ms',
  'llm_first_token_ms',
  'tts_first_audio_ms',
] as const;

/** Seconds kept to the millisecond (3 decimals): a turn's `t`, wherever it comes from. */
export const toMilliseconds = (seconds: number): number => Math.round(seconds * 1000) / 1000;

export type MediaSignalKind = MediaSignal['kind'];

const FAILURE_STATUSES: readonly string[] = ['completed', ...SESSION_FAILURE_STATUSES];

/**
 * Bounds of what a media plane may report, checked at the edge so that no decider, event or read
 * model ever holds an out-of-range value (a `duration_seconds` beyond the integer range once
 * stopped the sessions read model:
 * docs/decisions/0023-a-poison-event-is-set-aside-as-a-dead-letter-after-n-tries.md). No call lasts
 * longer than a day.
 */
export const SIGNAL_LIMITS = {
  /** `seq`: a positive integer within PostgreSQL's integer range. */
  seq: 2_147_483_647,
  /** Seconds: `t` of a turn, `duration_seconds` of a hang-up or a recording. */
  seconds: 86_400,
  /** Milliseconds: `duration_ms` of a function call, `timeout_ms` of a timeout. */
  milliseconds: 86_400_000,
  /** Free text: a turn's content and a disposition's note. */
  text: 5_000,
  /** Names, codes, statuses, reasons and ids. */
  name: 200,
  /** A transfer destination (E.164 or a SIP address). */
  transferNumber: 256,
  /** Keys in one keypad turn. */
  dtmf: 32,
} as const;

const DTMF_DIGITS = new RegExp(`^[0-9*#A-Da-d]{1,${SIGNAL_LIMITS.dtmf}}$`);
const isSipStatus = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 699;

/** Whether a `seq` reported over the ingest API is a positive integer within bounds. */
export function isSignalSeq(seq: unknown): seq is number {
  return typeof seq === 'number' && Number.isInteger(seq) && seq >= 1 && seq <= SIGNAL_LIMITS.seq;
}

/** Checks a signal reported over the ingest API; returns the signal or a message naming the problem. */
export function parseMediaSignal(input: unknown): MediaSignal | string {
  if (typeof input !== 'object' || input === null) return 'signal must be an object';
  const s = input as Record<string, unknown>;
  const str = (k: string, max: number = SIGNAL_LIMITS.name): boolean => {
    const v = s[k];
    return typeof v === 'string' && v.length > 0 && v.length <= max;
  };
  const num = (k: string, max: number): boolean => {
    const v = s[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max;
  };
  const { seconds, milliseconds, text, name } = SIGNAL_LIMITS;
  switch (s.kind) {
    case 'answered':
    case 'opt_out':
    case 'consent_refused':
      return { kind: s.kind };
    case 'turn':
      if (
        (s.role !== 'agent' && s.role !== 'user') ||
        !num('t', seconds) ||
        (s.content !== undefined && !str('content', text))
      ) {
        return `turn needs role (agent|user), t (seconds, 0 to ${seconds}) and optional content (1 to ${text} characters)`;
      }
      if (s.dtmf !== undefined && (s.role !== 'user' || typeof s.dtmf !== 'string' || !DTMF_DIGITS.test(s.dtmf)))
        return `dtmf is a user turn's keys: 1 to ${SIGNAL_LIMITS.dtmf} of 0-9, *, #, A-D`;
      return {
        kind: 'turn',
        role: s.role,
        t: toMilliseconds(s.t as number),
        ...(s.content !== undefined ? { content: s.content as string } : {}),
        ...(s.dtmf !== undefined ? { dtmf: s.dtmf.toUpperCase() } : {}),
      };
    case 'function_invoked':
      if (!str('name') || !str('status') || !num('duration_ms', milliseconds))
        return `function_invoked needs name and status (1 to ${name} characters) and duration_ms (0 to ${milliseconds})`;
      return {
        kind: 'function_invoked',
        name: s.name as string,
        status: s.status as string,
        duration_ms: Math.round(s.duration_ms as number),
      };
    case 'function_timeout':
      if (!str('function_id') || !str('name') || !num('timeout_ms', milliseconds))
        return `function_timeout needs function_id and name (1 to ${name} characters) and timeout_ms (0 to ${milliseconds})`;
      return {
        kind: 'function_timeout',
        function_id: s.function_id as string,
        name: s.name as string,
        timeout_ms: Math.round(s.timeout_ms as number),
      };
    case 'transfer':
      if (!str('transfer_number', SIGNAL_LIMITS.transferNumber))
        return `transfer needs transfer_number (1 to ${SIGNAL_LIMITS.transferNumber} characters)`;
      return { kind: 'transfer', transfer_number: s.transfer_number as string };
    case 'transfer_failed':
      if (
        !str('transfer_number', SIGNAL_LIMITS.transferNumber) ||
        !(TRANSFER_FAILURE_REASONS as readonly unknown[]).includes(s.reason) ||
        (s.sip_code !== undefined && s.sip_code !== null && !isSipStatus(s.sip_code))
      ) {
        return `transfer_failed needs transfer_number (1 to ${SIGNAL_LIMITS.transferNumber} characters), reason (${TRANSFER_FAILURE_REASONS.join('|')}) and optional sip_code (100 to 699)`;
      }
      return {
        kind: 'transfer_failed',
        transfer_number: s.transfer_number as string,
        reason: s.reason as TransferFailureReason,
        sip_code: (s.sip_code as number | undefined) ?? null,
      };
    case 'agent_disposition':
      if (!str('code')) return `agent_disposition needs code (1 to ${name} characters)`;
      if (typeof s.note === 'string' && s.note.length > text) return `note must be at most ${text} characters`;
      return { kind: 'agent_disposition', code: s.code as string, note: typeof s.note === 'string' ? s.note : null };
    case 'hangup':
      if (typeof s.status !== 'string' || !FAILURE_STATUSES.includes(s.status) || !str('end_reason')) {
        return `hangup needs status (${FAILURE_STATUSES.join('|')}) and end_reason (1 to ${name} characters)`;
      }
      if (s.duration_seconds !== undefined && !num('duration_seconds', seconds))
        return `duration_seconds must be a number from 0 to ${seconds}`;
      if (s.voicemail_message_left !== undefined && typeof s.voicemail_message_left !== 'boolean')
        return 'voicemail_message_left must be a boolean';
      return {
        kind: 'hangup',
        status: s.status as 'completed',
        end_reason: s.end_reason as string,
        ...(s.duration_seconds !== undefined ? { duration_seconds: Math.round(s.duration_seconds as number) } : {}),
        ...(s.voicemail_message_left === true ? { voicemail_message_left: true } : {}),
      };
    case 'amd':
      if (!['human', 'machine', 'unknown'].includes(s.result as string) || !num('decided_after_ms', milliseconds))
        return `amd needs result (human|machine|unknown) and decided_after_ms (0 to ${milliseconds})`;
      return {
        kind: 'amd',
        result: s.result as 'human' | 'machine' | 'unknown',
        decided_after_ms: Math.round(s.decided_after_ms as number),
      };
    case 'recording_ready':
      if (
        !str('recording_id') ||
        !/^rec_[a-z0-9]{10,40}$/.test(s.recording_id as string) ||
        !num('duration_seconds', seconds)
      ) {
        return `recording_ready needs recording_id (rec_ followed by 10-40 lowercase letters or digits) and duration_seconds (0 to ${seconds})`;
      }
      if (s.channels !== 'dual' && s.channels !== 'mono') return 'channels must be dual or mono';
      return {
        kind: 'recording_ready',
        recording_id: s.recording_id as string,
        duration_seconds: Math.round(s.duration_seconds as number),
        channels: s.channels,
      };
    case 'turn_metrics': {
      const bad = TURN_METRIC_MS_FIELDS.filter((k) => !num(k, milliseconds));
      if (!num('t', seconds) || bad.length > 0 || typeof s.interrupted !== 'boolean')
        return `turn_metrics needs t (seconds, 0 to ${seconds}), ${TURN_METRIC_MS_FIELDS.join(', ')} (ms, 0 to ${milliseconds}) and interrupted (boolean)`;
      const ms = (k: (typeof TURN_METRIC_MS_FIELDS)[number]) => Math.round(s[k] as number);
      return {
        kind: 'turn_metrics',
        t: toMilliseconds(s.t as number),
        user_speech_end_ms: ms('user_speech_end_ms'),
        agent_audio_start_ms: ms('agent_audio_start_ms'),
        voice_to_voice_ms: ms('voice_to_voice_ms'),
        stt_ms: ms('stt_ms'),
        llm_first_token_ms: ms('llm_first_token_ms'),
        tts_first_audio_ms: ms('tts_first_audio_ms'),
        interrupted: s.interrupted,
      };
    }
    default:
      return 'unknown signal kind';
  }
}
