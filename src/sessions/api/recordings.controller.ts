import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ApiError } from '../../kernel/http/api-error';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { recordingPath } from '../infra/recording-files';
import { SessionsQueries } from '../application/sessions.queries';

/**
 * Recording files at {recordings_url}. Like a public file host, the unguessable URL is the credential.
 * A purged recording answers 404 from then on.
 */
@ApiTags('recordings')
@Controller('recordings')
export class RecordingsController {
  constructor(
    private readonly sessions: SessionsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':file')
  async file(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const match = /^(rec_[a-z0-9]{10,40})\.wav$/.exec(file);
    if (!match?.[1]) throw ApiError.notFound('recording');
    const recordingId = match[1];
    const status = await this.sessions.recordingStatus(recordingId);
    if (status !== 'available' && status !== 'pending_purge') throw ApiError.notFound('recording');
    const path = recordingPath(this.config, recordingId);
    const info = await stat(path).catch(() => null);
    if (!info) throw ApiError.notFound('recording');
    await reply.header('content-type', 'audio/wav').header('content-length', info.size).send(createReadStream(path));
  }
}
