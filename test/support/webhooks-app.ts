/**
 * The real application in-process (createHttpApp through test/support/app.ts, workers running),
 * listening on a random loopback port so the suites talk to it over real HTTP.
 */
import type { AddressInfo } from 'node:net';
import { startTestApp, TestApp } from './app';
import { apiClient, ApiCall } from './webhooks-harness';

export interface ListeningApp {
  t: TestApp;
  baseUrl: string;
  call: ApiCall;
  close(): Promise<void>;
}

export async function startListeningApp(env: Record<string, string>): Promise<ListeningApp> {
  const t = await startTestApp({ env });
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await t.close();
    throw err;
  }
  const address = t.app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return { t, baseUrl, call: apiClient(() => baseUrl).call, close: () => t.close() };
}
