/**
 * Names for the response types of the API, all taken from the generated document types
 * (src/generated/api.ts, from the service's /openapi.json): nothing here is written by hand, so a
 * field the service adds, drops or makes nullable changes these with `npm run client:generate`.
 */
import type { components } from './generated/api.js';
import type { EventEnvelope, WebhookEvent } from './generated/events.js';

type Schemas = components['schemas'];

/** A page of a list: `{data, has_more}`. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}

export type Session = Schemas['Session'];
export type SessionStatus = Session['status'];
export type Transcript = Schemas['Transcript'];
export type TranscriptEntry = Transcript['transcript'][number];
export type RecordingLink = Schemas['RecordingLink'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type RotatedSecret = Schemas['RotatedSecret'];
export type TestEventSent = Schemas['TestEventSent'];
export type Delivery = Schemas['Delivery'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type DeliveryQueued = Schemas['DeliveryQueued'];
export type Recovery = Schemas['Recovery'];
export type Deleted = Schemas['Deleted'];
export type Campaign = Schemas['Campaign'];
export type CampaignContact = Schemas['CampaignContact'];
export type CreditBalance = Schemas['CreditBalance'];
export type Topup = Schemas['Topup'];
export type DncEntry = Schemas['DncEntry'];
export type DncRemoved = Schemas['DncRemoved'];
export type Room = Schemas['Room'];
export type VoiceClone = Schemas['VoiceClone'];
export type VoiceCloneQueued = Schemas['VoiceCloneQueued'];
export type PhoneNumber = Schemas['PhoneNumber'];
export type PhoneNumberVerification = Schemas['PhoneNumberVerification'];
export type AgentConfig = Schemas['AgentConfig'];
export type ApiErrorResponse = Schemas['Error'];

/** The statuses after which a session changes no more. */
export const TERMINAL_SESSION_STATUSES: readonly SessionStatus[] = [
  'completed',
  'failed',
  'no_answer',
  'voicemail',
  'busy',
];

/** An item of `GET /v1/events`: a catalog event (a type added later is an envelope with another `type`). */
export type FeedEvent = WebhookEvent;
export type AnyEventEnvelope = EventEnvelope;
