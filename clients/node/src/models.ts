/**
 * Response shapes. Request types come from the generated `paths` (src/generated/api.ts); the
 * service's OpenAPI document does not declare most response bodies yet, so these follow the platform's
 * docs (docs/*.md of the service's repository) and its presenters. Every object allows fields added later (`[key: string]: unknown`).
 */
import type { EventEnvelope, WebhookEvent } from './generated/events.js';

/** A page of a list: `{data, has_more}`. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}

export type SessionStatus = 'queued' | 'in_progress' | 'completed' | 'failed' | 'no_answer' | 'voicemail' | 'busy';

/** The statuses after which a session changes no more. */
export const TERMINAL_SESSION_STATUSES: readonly SessionStatus[] = [
  'completed',
  'failed',
  'no_answer',
  'voicemail',
  'busy',
];

export interface TranscriptEntry {
  role: 'agent' | 'user';
  content?: string;
  /** Seconds from session start. */
  t?: number;
}

/** One call or one WebRTC conversation. */
export interface Session {
  session_id: string;
  status: SessionStatus;
  /**
   * Why a queued session waits, null when it does not: `insufficient_credits` while the balance is
   * depleted. The set may grow (e.g. `carrier_limit`): treat an unknown value as "held".
   */
  hold_reason?: string | null;
  /** false: a production call, billed (the default when `test_mode` is left out of the request). */
  test_mode: boolean;
  /** A room's session is inbound. */
  direction?: 'outbound' | 'inbound';
  client_reference_id: string | null;
  campaign_id: string | null;
  contact_id: string | null;
  from_number: string | null;
  to_number: string | null;
  phone_number: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  voice_id: string;
  end_reason: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  actual_cost_cents: number | null;
  transcript: TranscriptEntry[];
  transcript_url: string | null;
  function_invocations: { name: string; status: string; duration_ms: number }[];
  recording?: { recording_id: string; status: string; recording_url: string | null } | null;
  [key: string]: unknown;
}

export interface Transcript {
  session_id: string;
  transcript: TranscriptEntry[];
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'suspended';
  failure_streak?: number;
  created_at: string;
  [key: string]: unknown;
}

/** The answer of create: the endpoint and its secret, shown this once. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export interface DeliveryAttempt {
  at: string;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface Delivery {
  delivery_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  [key: string]: unknown;
}

export interface Deleted {
  id: string;
  deleted: true;
}

export interface Campaign {
  campaign_id: string;
  name: string;
  channel: 'phone_call';
  session_type: 'phone_call';
  status: 'draft' | 'running' | 'paused' | 'completed';
  total_contacts: number;
  completed_sessions: number;
  failed_sessions: number;
  created_at: string;
  started_at: string | null;
  paused_at: string | null;
  completed_at: string | null;
  [key: string]: unknown;
}

export interface CampaignContact {
  contact_id: string;
  campaign_id: string;
  phone_number: string;
  status: string;
  skip_reason: string | null;
  session_id: string | null;
  [key: string]: unknown;
}

export interface CreditBalance {
  balance_cents: number;
  threshold_cents: number;
  currency: 'USD';
  [key: string]: unknown;
}

export interface Topup {
  topup_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount_cents: number;
  processor_payment_intent_id: string;
  [key: string]: unknown;
}

export interface DncEntry {
  phone_number: string;
  [key: string]: unknown;
}

export interface Room {
  room_id: string;
  room_url: string;
  expires_at: string;
  participant_id: string;
  client_reference_id: string | null;
  status?: string;
  [key: string]: unknown;
}

export interface VoiceClone {
  voice_id: string;
  name: string;
  status: string;
  [key: string]: unknown;
}

export interface PhoneNumber {
  phone_number_id: string;
  phone_number: string;
  agent_config: Record<string, unknown>;
  test_mode: boolean;
  /** `pending_verification` until its ownership is shown (a verification call, or the operator); test mode: `active`. */
  status: 'active' | 'pending_verification';
  created_at: string;
  [key: string]: unknown;
}

/** A verification call placed to one of the tenant's numbers. */
export interface PhoneNumberVerification {
  phone_number_id: string;
  /** The call's session. */
  session_id: string;
  expires_at: string;
  tries_left: number;
}

/** An item of `GET /v1/events`: a catalog event (a type added later is an envelope with another `type`). */
export type FeedEvent = WebhookEvent;
export type AnyEventEnvelope = EventEnvelope;
