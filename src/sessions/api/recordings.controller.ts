import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiDoc } from '../../kernel/http/api-docs';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../kernel/http/api-error';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { BLOB_STORE, type BlobStore } from '../../infra/blobs/blob-store.port';
import { openRecording } from '../infra/recording-files';
import { RecordingLinks } from '../infra/recording-links';
import { SessionsQueries } from '../application/sessions.queries';

const RENEW_HINT = 'GET /v1/sessions/{session_id}/recording (with the API key) answers with a fresh link.';

/**
 * Recording files at {recordings_url}, served only through the expiring signed links of
 * recording-links.ts. A link that is unsigned or whose signature does not match is a 403 (checked
 * before anything is looked up, so it reveals nothing about the recording); a genuine link past its
 * expiry is a 410, so that a client knows to renew it; a purged recording is a 404 (docs/calls-and-test-pool.md, "Recording links").
 */
@ApiTags('recordings')
@Controller('recordings')
export class RecordingsController {
  constructor(
    private readonly sessions: SessionsQueries,
    private readonly links: RecordingLinks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  @Get(':file')
  @ApiQuery({ name: 'expires', required: true, description: 'Unix seconds the link expires at.' })
  @ApiQuery({ name: 'signature', required: true, description: 'The link’s signature.' })
  @ApiDoc({
    id: 'getRecordingFile',
    summary: 'Download a recording',
    description:
      'The recording’s WAV file, behind an expiring signed link (a session’s `recording.recording_url`). The link is the credential: no API key. An unsigned or altered link is a 403, an expired one a 410 (renew it with GET /v1/sessions/{id}/recording), a purged recording a 404.',
    body: { type: 'string', contentMediaType: 'audio/wav' },
    contentType: 'audio/wav',
    returns: 'The WAV file.',
    errors: [403, 404, 410],
  })
  async file(
    @Param('file') file: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const match = /^(rec_[a-z0-9]{10,40})\.wav$/.exec(file);
    if (!match?.[1]) throw ApiError.notFound('recording');
    const recordingId = match[1];
    switch (this.links.check(recordingId, expires, signature)) {
      case 'invalid':
        throw new ApiError(
          403,
          'forbidden',
          `This recording link is not signed, or its signature does not match. ${RENEW_HINT}`,
        );
      case 'expired':
        throw new ApiError(410, 'gone', `This recording link has expired. ${RENEW_HINT}`);
      case 'valid':
        break;
    }
    const status = await this.sessions.recordingStatus(recordingId);
    if (status !== 'available' && status !== 'pending_purge') throw ApiError.notFound('recording');
    // From the blob store, whichever instance stored it
    // (docs/decisions/0065-recordings-and-voice-samples-live-in-one-blob-store-that.md).
    const blob = await openRecording(this.blobs, this.config, recordingId);
    if (!blob) throw ApiError.notFound('recording');
    await reply
      .header('content-type', 'audio/wav')
      .header('content-length', blob.size)
      // The link is the credential: no shared cache keeps a copy, and a purge is not outlived.
      .header('cache-control', 'private, no-store')
      .send(blob.stream);
  }
}
