import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../database/database.tokens';
import { BLOB_STORE, type BlobStore } from './blob-store.port';
import { PostgresBlobStore } from './postgres-blob-store';
import { S3BlobStore } from './s3-blob-store';

/** The configured blob store: the S3 bucket of BLOB_STORE=s3, else PostgreSQL (the service's own database). */
export function createBlobStore(config: AppConfig, pool: Pool): BlobStore {
  return config.blobStore === 's3' && config.s3 ? new S3BlobStore(config.s3) : new PostgresBlobStore(pool);
}

export const blobStoreProvider: Provider = {
  provide: BLOB_STORE,
  inject: [APP_CONFIG, PG_POOL],
  useFactory: (config: AppConfig, pool: Pool): BlobStore => createBlobStore(config, pool),
};
