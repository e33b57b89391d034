/**
 * Rooms, voice clones and phone numbers over the generated types, like the other resources: each
 * method is one typed openapi-fetch call whose answer's body it resolves to. The voice upload is
 * multipart, sent by the transport's `request` and typed from the generated response.
 */
import type { RequestOptions, Transport } from './http.js';
import type { BodyOf, QueryOf } from './resources.js';
import type { VoiceCloneQueued } from './types.js';
import { AutoPaginatingList } from './pagination.js';

export type CreateRoomParams = BodyOf<'/v1/rooms', 'post'>;
export type ListRoomsParams = Omit<QueryOf<'/v1/rooms', 'get'>, 'starting_after'>;
export type CreatePhoneNumberParams = BodyOf<'/v1/phone_numbers', 'post'>;
export type UpdatePhoneNumberParams = BodyOf<'/v1/phone_numbers/{id}', 'patch'>;
export type TestInboundCallParams = BodyOf<'/v1/phone_numbers/{id}/test_inbound_calls', 'post'>;
export type ConfirmVerificationParams = BodyOf<'/v1/phone_numbers/{id}/verification/confirm', 'post'>;

const str = (n: number | undefined): string | undefined => (n === undefined ? undefined : String(n));

export class Rooms {
  constructor(private readonly t: Transport) {}

  /** Creates a WebRTC room and mints the participant's signed `room_url`. */
  create(params: CreateRoomParams = {}, options?: RequestOptions) {
    return this.t.body(this.t.api.POST('/v1/rooms', { body: params, ...this.t.with(options) }));
  }

  get(roomId: string, options?: RequestOptions) {
    return this.t.body(
      this.t.api.GET('/v1/rooms/{room_id}', { params: { path: { room_id: roomId } }, ...this.t.with(options) }),
    );
  }

  /** Newest first. `await` it for one page, or `for await` over every room. */
  list(params: ListRoomsParams = {}, options?: RequestOptions) {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/rooms', {
            params: { query: { ...params, limit: str(params.limit), starting_after: cursor } },
            ...this.t.with(options),
          }),
        ),
      (r) => r.room_id,
    );
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
  create(params: { name: string; samples: VoiceSample[] }, options?: RequestOptions): Promise<VoiceCloneQueued> {
    const form = new FormData();
    form.set('name', params.name);
    for (const sample of params.samples) {
      const blob =
        sample.data instanceof Blob
          ? sample.data
          : new Blob([new Uint8Array(sample.data)], sample.contentType ? { type: sample.contentType } : {});
      form.append('samples', blob, sample.filename);
    }
    return this.t.request<VoiceCloneQueued>('POST', '/v1/voice_clones', { body: form }, options);
  }

  get(voiceId: string, options?: RequestOptions) {
    return this.t.body(
      this.t.api.GET('/v1/voice_clones/{id}', { params: { path: { id: voiceId } }, ...this.t.with(options) }),
    );
  }

  list(params: { limit?: number } = {}, options?: RequestOptions) {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/voice_clones', {
            params: { query: { limit: str(params.limit), starting_after: cursor } },
            ...this.t.with(options),
          }),
        ),
      (v) => v.voice_id,
    );
  }

  delete(voiceId: string, options?: RequestOptions) {
    return this.t.body(
      this.t.api.DELETE('/v1/voice_clones/{id}', { params: { path: { id: voiceId } }, ...this.t.with(options) }),
    );
  }
}

export class PhoneNumbers {
  constructor(private readonly t: Transport) {}

  create(params: CreatePhoneNumberParams, options?: RequestOptions) {
    return this.t.body(this.t.api.POST('/v1/phone_numbers', { body: params, ...this.t.with(options) }));
  }

  get(phoneNumberId: string, options?: RequestOptions) {
    return this.t.body(
      this.t.api.GET('/v1/phone_numbers/{id}', { params: { path: { id: phoneNumberId } }, ...this.t.with(options) }),
    );
  }

  list(params: { limit?: number } = {}, options?: RequestOptions) {
    return new AutoPaginatingList(
      (cursor) =>
        this.t.body(
          this.t.api.GET('/v1/phone_numbers', {
            params: { query: { limit: str(params.limit), starting_after: cursor } },
            ...this.t.with(options),
          }),
        ),
      (p) => p.phone_number_id,
    );
  }

  update(phoneNumberId: string, params: UpdatePhoneNumberParams, options?: RequestOptions) {
    return this.t.body(
      this.t.api.PATCH('/v1/phone_numbers/{id}', {
        params: { path: { id: phoneNumberId } },
        body: params,
        ...this.t.with(options),
      }),
    );
  }

  delete(phoneNumberId: string, options?: RequestOptions) {
    return this.t.body(
      this.t.api.DELETE('/v1/phone_numbers/{id}', { params: { path: { id: phoneNumberId } }, ...this.t.with(options) }),
    );
  }

  /** Places a verification call to the number: its agent speaks a 6-digit code (1 a minute, 5 a day). */
  requestVerification(phoneNumberId: string, options?: RequestOptions) {
    return this.t.body(
      this.t.api.POST('/v1/phone_numbers/{id}/verification', {
        params: { path: { id: phoneNumberId } },
        ...this.t.with(options),
      }),
    );
  }

  /** The code heard on the verification call: resolves to the number, now `active` (5 tries per code). */
  confirmVerification(phoneNumberId: string, params: ConfirmVerificationParams, options?: RequestOptions) {
    return this.t.body(
      this.t.api.POST('/v1/phone_numbers/{id}/verification/confirm', {
        params: { path: { id: phoneNumberId } },
        body: params,
        ...this.t.with(options),
      }),
    );
  }

  /** Test mode: plays one inbound call on the simulator; resolves to the new session. */
  testInboundCall(phoneNumberId: string, params: TestInboundCallParams, options?: RequestOptions) {
    return this.t.body(
      this.t.api.POST('/v1/phone_numbers/{id}/test_inbound_calls', {
        params: { path: { id: phoneNumberId } },
        body: params,
        ...this.t.with(options),
      }),
    );
  }
}
