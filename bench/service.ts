import { loadAppConfig } from '../src/app.module';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp } from '../src/http-app';

export interface BenchService {
  app: NestFastifyApplication;
  baseUrl: string;
  apiKey: string;
  tenantId: string;
  close(): Promise<void>;
}

/** The real service, in this process, on the benchmark's database, listening on a free loopback port. */
export async function startBenchService(databaseUrl: string, env: Record<string, string> = {}): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-svc-'));
  const config = loadAppConfig({
    ADMIN_TOKEN: 'bench-admin',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    PORT: '0',
    ...env,
  });
  const app = await createHttpApp({ config, databaseUrl });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  const created = await fetch(`${baseUrl}/admin/v1/tenants`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-admin', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', email: 'bench@example.com' }),
  });
  const tenant = (await created.json()) as { tenant_id: string; api_key: string };
  return {
    app,
    baseUrl,
    apiKey: tenant.api_key,
    tenantId: tenant.tenant_id,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
