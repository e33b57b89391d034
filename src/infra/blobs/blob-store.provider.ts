import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { PG_POOL } from '../database/database.tokens';
import { BLOB_STORE, type BlobStore } from './blob-store.port';
import { PostgresBlobStore } from './postgres-blob-store';

/**
 * The configured blob store: the S3 bucket of BLOB_STORE=s3, else PostgreSQL (the service's own
 * database). The S3 adapter (and the AWS SDK) is loaded only when it is the one configured (decision 176).
 */
export async function createBlobStore(config: AppConfig, pool: Pool): Promise<BlobStore> {
  if (config.blobStore === 's3' && config.s3) return new (await import('./s3-blob-store.js')).S3BlobStore(config.s3);
  return new PostgresBlobStore(pool);
}

export const blobStoreProvider: Provider = {
  provide: BLOB_STORE,
  inject: [APP_CONFIG, PG_POOL],
  useFactory: (config: AppConfig, pool: Pool): Promise<BlobStore> => createBlobStore(config, pool),
};
