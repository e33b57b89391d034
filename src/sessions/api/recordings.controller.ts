import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Pool } from 'pg';
import { ApiError } from '../../kernel/http/api-error';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../../infra/database/database.tokens';
import { recordingPath } from '../infra/recording-files';

/**
 * Recording files at {recordings_url}. Like a public file host, the unguessable URL is the credential.
 * A purged recording answers 404 from then on.
 */
@ApiTags('recordings')
@Controller('recordings')
export class RecordingsController {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':file')
  async file(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const match = /^(rec_[a-z0-9]{10,40})\.wav$/.exec(file);
    if (!match?.[1]) throw ApiError.notFound('recording');
    const recordingId = match[1];
    const { rows } = await this.pool.query<{ recording_status: string }>(
      'SELECT recording_status FROM sessions WHERE recording_id = $1',
      [recordingId],
    );
    const status = rows[0]?.recording_status;
    if (status !== 'available' && status !== 'pending_purge') throw ApiError.notFound('recording');
    const path = recordingPath(this.config, recordingId);
    const info = await stat(path).catch(() => null);
    if (!info) throw ApiError.notFound('recording');
    await reply.header('content-type', 'audio/wav').header('content-length', info.size).send(createReadStream(path));
  }
}
