import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';
import { ApiDoc, DELETED, TenantApi } from '../../kernel/http/api-docs';
import { VOICE_CLONE, VOICE_CLONE_PAGE, VOICE_CLONE_QUEUED, VOICE_EXAMPLE } from './voices.schemas';
import type { FastifyRequest } from 'fastify';
import { basename } from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { pageLimit } from '../../kernel/http/page-limit';
import { ApiError } from '../../kernel/http/api-error';
import { CurrentTenant } from '../../kernel/http/current-tenant';
import type { AuthenticatedTenant } from '../../kernel/http/current-tenant';
import { newResourceId } from '../../kernel/idempotency-context';
import { ApiKeyGuard } from '../../tenants';
import { ChangeVoiceClone, UploadVoiceClone } from '../application/voice-clone.commands';
import { type UploadReservation, VoiceQuota } from '../application/voice-quota';
import { VoicesQueries } from '../application/voices.queries';
import { UPLOAD_LIMITS } from '../domain/sample-rules';
import { DECODE_POOL, type DecodePool } from '../infra/decode-pool';
import { SAMPLE_STORE, type SampleStore } from '../infra/sample-store';
import { type ReceivedUpload, receiveSamples } from './sample-upload';
import { presentVoice } from './voice-view';

/** Voice clones: samples uploaded as multipart/form-data, trained by a durable job (docs/voices.md). */
@TenantApi('voice clones')
@UseGuards(ApiKeyGuard)
@Controller('v1/voice_clones')
export class VoicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly voices: VoicesQueries,
    @Inject(SAMPLE_STORE) private readonly store: SampleStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DECODE_POOL) private readonly decoding: DecodePool,
    private readonly quota: VoiceQuota,
  ) {}

  @Post()
  @ApiDoc({
    id: 'createVoiceClone',
    summary: 'Clone a voice from samples',
    description:
      'Uploads recordings of one voice (multipart/form-data) and queues its training; `voice_clone.ready` or `voice_clone.failed` follows. Each file is checked (type, decodable audio, length); beyond the limits it is a 413, a non-audio file a 415, a tenant over its voice or storage quota a 422.',
    status: 202,
    body: VOICE_CLONE_QUEUED,
    returns: 'The voice, queued for training.',
    example: { voice_id: VOICE_EXAMPLE.voice_id, name: VOICE_EXAMPLE.name, status: 'queued' },
    errors: [400, 403, 409, 413, 415, 422, 429],
  })
  @HttpCode(202)
  @RouteConfig({ multipart: true })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['name', 'samples'],
      properties: {
        name: { type: 'string', maxLength: UPLOAD_LIMITS.maxNameLength, example: 'Support voice' },
        samples: {
          type: 'array',
          maxItems: UPLOAD_LIMITS.maxFiles,
          items: { type: 'string', format: 'binary' },
          description:
            'WAV, FLAC, MP3 or Ogg (Vorbis, Opus) recordings of one voice, each at most 20 MB; training needs at least 3 of 30 seconds each, ' +
            'each at most 10 minutes long and at most 30 minutes together (by default). A tenant over its voice or storage quota gets a 422.',
        },
      },
    },
  })
  async create(@CurrentTenant() tenant: AuthenticatedTenant, @Req() request: FastifyRequest) {
    // Refused before a byte of the body is stored (the command refuses it too).
    if (tenant.status === 'suspended')
      throw new ApiError(403, 'forbidden', 'This account is suspended; voices cannot be cloned.');
    const done = this.quota.admit();
    try {
      // A tenant at its quotas is refused before the body is read; the upload is checked again below.
      await this.quota.ensureRoom(tenant.tenantId);
      const upload = await receiveSamples(request, this.store, this.config.httpRequestTimeoutMs, this.decoding);
      return await this.record(tenant.tenantId, upload);
    } finally {
      done();
    }
  }

  /**
   * Reserves the upload's room (refused when its voice id, made from the Idempotency-Key, already has
   * an upload), stores its files apart from any other attempt's, records it, and releases the room.
   * On failure only this upload's own files go, and only when the voice does not record them.
   */
  private async record(tenantId: string, upload: ReceivedUpload) {
    const voiceId = newResourceId('voi');
    const bytes = upload.samples.reduce((sum, s) => sum + s.bytes, 0);
    let reservation: UploadReservation;
    try {
      reservation = await this.quota.reserve(tenantId, voiceId, bytes);
    } catch (err) {
      await this.store.discard(upload.staging);
      throw err;
    }
    const uploadId = reservation.uploadId;
    try {
      await this.store.commit(upload.staging, voiceId, uploadId);
      await this.commands.execute(
        new UploadVoiceClone(
          tenantId,
          voiceId,
          upload.name,
          upload.samples.map((s) => ({
            filename: s.filename,
            content_type: s.content_type,
            format: s.format,
            bytes: s.bytes,
            sha256: s.sha256,
            path: `${voiceId}/${uploadId}/${basename(s.file)}`,
          })),
        ),
      );
    } catch (err) {
      await this.store.discard(upload.staging);
      if (!(await this.quota.recordsUpload(voiceId, uploadId).catch(() => true)))
        await this.store.removeUpload(voiceId, uploadId).catch(() => undefined);
      throw err;
    } finally {
      await reservation.release().catch(() => undefined);
    }
    return { voice_id: voiceId, name: upload.name, status: 'queued' as const };
  }

  @Get()
  @ApiDoc({
    id: 'listVoiceClones',
    summary: 'List voice clones',
    description: 'The tenant’s voices, newest first, with their samples and training status.',
    body: VOICE_CLONE_PAGE,
    returns: 'A page of voices.',
    example: { data: [VOICE_EXAMPLE], has_more: false },
    errors: [400, 404],
  })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 20' })
  @ApiQuery({ name: 'starting_after', required: false, description: 'A voice id: the page after it' })
  async list(
    @CurrentTenant() tenant: AuthenticatedTenant,
    @Query('limit') limitText?: string,
    @Query('starting_after') startingAfter?: string,
  ) {
    const limit = pageLimit(limitText);
    const page = await this.voices.list(tenant.tenantId, { startingAfter, limit });
    if (!page) throw ApiError.notFound('voice clone', 'starting_after');
    return { data: page.data.map(presentVoice), has_more: page.hasMore };
  }

  @Get(':id')
  @ApiDoc({
    id: 'getVoiceClone',
    summary: 'Get a voice clone',
    description: 'The voice, its samples (measured once training has read them) and its training status.',
    body: VOICE_CLONE,
    returns: 'The voice.',
    example: VOICE_EXAMPLE,
    errors: [404],
  })
  async get(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const row = await this.voices.get(tenant.tenantId, id);
    if (!row) throw ApiError.notFound('voice clone', 'voice_id');
    return presentVoice(row);
  }

  /** Deletes the voice and its samples; calls already placed with it keep its id. */
  @Delete(':id')
  @ApiDoc({
    id: 'deleteVoiceClone',
    summary: 'Delete a voice clone',
    description: 'Deletes the voice and its samples; calls already placed with it keep its id.',
    body: DELETED,
    returns: 'The id, deleted.',
    example: { id: VOICE_EXAMPLE.voice_id, deleted: true },
    errors: [404],
  })
  async remove(@CurrentTenant() tenant: AuthenticatedTenant, @Param('id') id: string) {
    const row = await this.voices.get(tenant.tenantId, id);
    if (!row) throw ApiError.notFound('voice clone', 'voice_id');
    await this.commands.execute(new ChangeVoiceClone(tenant.tenantId, id, { type: 'delete' }, true));
    // At once here; the voices reactor's timer removes them too, should this process stop first.
    await this.store.removeVoice(id);
    return { id, deleted: true };
  }
}
