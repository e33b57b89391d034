/**
 * Rooms, voice clones and phone numbers, at the paths the platform's docs name. Their routes are newer than
 * the generated types, so these go through the transport's untyped `request` (same retries, keys and
 * errors); once `npm run client:generate` has run against a service that has them, they can move to
 * typed calls like the others.
 */
import type { RequestOptions, Transport } from './http.js';
import type { Deleted, ListPage, PhoneNumber, PhoneNumberVerification, Room, Session, VoiceClone } from './models.js';
import { AutoPaginatingList } from './pagination.js';

export interface CreateRoomParams {
  client_reference_id?: string;
  agent_config?: { prompt: string; voice_id?: string; [key: string]: unknown };
  voice_id?: string;
  /** 1 to 604800. */
  expires_in_seconds?: number;
  test_scenario?: 'agent_unreachable';
}

export class Rooms {
  constructor(private readonly t: Transport) {}

  /** Creates a WebRTC room and mints the participant's signed `room_url`. */
  create(params: CreateRoomParams = {}, options?: RequestOptions): Promise<Room> {
    return this.t.request('POST', '/v1/rooms', { body: params }, options);
  }

  get(roomId: string, options?: RequestOptions): Promise<Room> {
    return this.t.request('GET', `/v1/rooms/${encodeURIComponent(roomId)}`, {}, options);
  }
}

/** One audio sample: its bytes and file name (the type is taken from the name when not given). */
export interface VoiceSample {
  data: Blob | Uint8Array | ArrayBuffer;
  filename: string;
  contentType?: string;
}

export class VoiceClones {
  constructor(private readonly t: Transport) {}

  /** Uploads samples (multipart) and queues the training; resolves to `{voice_id, name, status: "queued"}`. */
  create(params: { name: string; samples: VoiceSample[] }, options?: RequestOptions): Promise<VoiceClone> {
    const form = new FormData();
    form.set('name', params.name);
    for (const sample of params.samples) {
      const blob =
        sample.data instanceof Blob
          ? sample.data
          : new Blob([new Uint8Array(sample.data)], sample.contentType ? { type: sample.contentType } : {});
      form.append('samples', blob, sample.filename);
    }
    return this.t.request('POST', '/v1/voice_clones', { body: form }, options);
  }

  get(voiceId: string, options?: RequestOptions): Promise<VoiceClone> {
    return this.t.request('GET', `/v1/voice_clones/${encodeURIComponent(voiceId)}`, {}, options);
  }

  list(params: { limit?: number } = {}, options?: RequestOptions): AutoPaginatingList<VoiceClone> {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.request<ListPage<VoiceClone>>(
          'GET',
          '/v1/voice_clones',
          { query: { limit: params.limit, starting_after: cursor } },
          options,
        ),
      (v) => v.voice_id,
    );
  }

  delete(voiceId: string, options?: RequestOptions): Promise<Deleted> {
    return this.t.request('DELETE', `/v1/voice_clones/${encodeURIComponent(voiceId)}`, {}, options);
  }
}

export interface CreatePhoneNumberParams {
  phone_number: string;
  agent_config: { prompt: string; voice_id?: string; [key: string]: unknown };
  test_mode?: boolean;
}

export class PhoneNumbers {
  constructor(private readonly t: Transport) {}

  create(params: CreatePhoneNumberParams, options?: RequestOptions): Promise<PhoneNumber> {
    return this.t.request('POST', '/v1/phone_numbers', { body: params }, options);
  }

  get(phoneNumberId: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.t.request('GET', `/v1/phone_numbers/${encodeURIComponent(phoneNumberId)}`, {}, options);
  }

  list(params: { limit?: number } = {}, options?: RequestOptions): AutoPaginatingList<PhoneNumber> {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.request<ListPage<PhoneNumber>>(
          'GET',
          '/v1/phone_numbers',
          { query: { limit: params.limit, starting_after: cursor } },
          options,
        ),
      (p) => p.phone_number_id,
    );
  }

  update(
    phoneNumberId: string,
    params: Partial<Omit<CreatePhoneNumberParams, 'phone_number'>>,
    options?: RequestOptions,
  ): Promise<PhoneNumber> {
    return this.t.request('PATCH', `/v1/phone_numbers/${encodeURIComponent(phoneNumberId)}`, { body: params }, options);
  }

  delete(phoneNumberId: string, options?: RequestOptions): Promise<Deleted> {
    return this.t.request('DELETE', `/v1/phone_numbers/${encodeURIComponent(phoneNumberId)}`, {}, options);
  }

  /** Places a verification call to the number: its agent speaks a 6-digit code (1 a minute, 5 a day). */
  requestVerification(phoneNumberId: string, options?: RequestOptions): Promise<PhoneNumberVerification> {
    return this.t.request('POST', `/v1/phone_numbers/${encodeURIComponent(phoneNumberId)}/verification`, {}, options);
  }

  /** The code heard on the verification call: resolves to the number, now `active` (5 tries per code). */
  confirmVerification(phoneNumberId: string, params: { code: string }, options?: RequestOptions): Promise<PhoneNumber> {
    return this.t.request(
      'POST',
      `/v1/phone_numbers/${encodeURIComponent(phoneNumberId)}/verification/confirm`,
      { body: params },
      options,
    );
  }

  /** Test mode: plays one inbound call on the simulator; resolves to the new session. */
  testInboundCall(
    phoneNumberId: string,
    params: { from_number: string; answered?: boolean },
    options?: RequestOptions,
  ): Promise<Session> {
    return this.t.request(
      'POST',
      `/v1/phone_numbers/${encodeURIComponent(phoneNumberId)}/test_inbound_calls`,
      { body: params },
      options,
    );
  }
}
