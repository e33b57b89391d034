/**
 * The client package as a consumer gets it (clients/node built by `npm run build`: dist/esm and
 * dist/cjs with their declarations, resolved through package.json `exports`): `tsc` compiles small
 * consumer projects, one ES module and one CommonJS, including narrowing on `event.type` and
 * refusing wrong code; and both module systems load it at run time.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/process';

jest.setTimeout(120_000);

const CONSUMER = `
import { VoiceAgent, VoiceAgentError, webhooks, type WebhookEvent, type Session } from '@voice-agent/client';

const client = new VoiceAgent();

export async function place(): Promise<Session> {
  const session = await client.calls.create({
    to: '+14155550100',
    from: '+14155550199',
    agent_config: { prompt: 'Hi' },
    test_mode: true,
  });
  const again: Session = await client.sessions.get(session.session_id);
  for await (const s of client.sessions.list({ status: 'completed', limit: 10 })) console.log(s.session_id);
  return again;
}

export function amount(event: WebhookEvent): number {
  switch (event.type) {
    case 'session.ended':
      return event.data.duration_seconds;
    case 'credits.low_balance':
      return event.data.balance_cents - event.data.threshold_cents;
    case 'campaign.contact_skipped':
      return event.data.skip_reason === 'dnc_blocked' ? 1 : 0;
    default:
      return 0;
  }
}

export function handle(rawBody: Buffer, headers: Record<string, string>, secret: string): string {
  try {
    const event = webhooks.verify(rawBody, headers, secret, { toleranceSeconds: 300 });
    return event.id;
  } catch (err) {
    if (err instanceof VoiceAgentError) return String(err.status) + err.type + (err.param ?? '') + err.request_id;
    throw err;
  }
}

export function wrong(event: WebhookEvent): unknown {
  // @ts-expect-error duration_seconds is not a field of session.started
  if (event.type === 'session.started') return event.data.duration_seconds;
  return null;
}

// @ts-expect-error agent_config is required
void client.calls.create({ to: '+14155550100', from: '+14155550199' });
`;

function project(type: 'module' | 'commonjs'): string {
  const dir = mkdtempSync(join(tmpdir(), `vap-consumer-${type}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type }));
  mkdirSync(join(dir, 'node_modules', '@voice-agent'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'clients', 'node'), join(dir, 'node_modules', '@voice-agent', 'client'), 'dir');
  symlinkSync(join(REPO_ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'), 'dir');
  writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
      },
      files: ['consumer.ts'],
    }),
  );
  return dir;
}

function tsc(dir: string): string {
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', dir], { stdio: 'pipe' });
    return '';
  } catch (err) {
    return String((err as { stdout?: Buffer }).stdout ?? err);
  }
}

describe('the client package as published', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it.each(['module', 'commonjs'] as const)('tsc compiles a %s consumer against its declarations', (type) => {
    const dir = project(type);
    dirs.push(dir);
    expect(tsc(dir)).toBe('');
  });

  it('a consumer that reads a field of the wrong event type does not compile', () => {
    const dir = project('module');
    dirs.push(dir);
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import type { WebhookEvent } from '@voice-agent/client';
export const f = (e: WebhookEvent) => (e.type === 'room.created' ? e.data.room_url : e.data.duration_seconds);\n`,
    );
    expect(tsc(dir)).toMatch(/duration_seconds/);
  });

  it('loads with require() and with import, and vap runs with node', () => {
    const dir = project('commonjs');
    dirs.push(dir);
    const run = (args: string[]): string =>
      execFileSync(process.execPath, args, {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, VOICE_AGENT_API_KEY: 'vap_x' },
      });
    expect(
      run([
        '-e',
        "const m = require('@voice-agent/client'); console.log(typeof new m.VoiceAgent().calls.create, typeof m.webhooks.verify)",
      ]),
    ).toBe('function function\n');
    expect(
      run([
        '--input-type=module',
        '-e',
        "import { VoiceAgent, webhooks, VERSION } from '@voice-agent/client'; console.log(typeof new VoiceAgent().sessions.list, typeof webhooks.verify, VERSION)",
      ]),
    ).toBe('function function 0.1.0-preview.0\n');
    expect(run([join(dir, 'node_modules', '@voice-agent', 'client', 'dist', 'cjs', 'cli.js'), '--version'])).toBe(
      '0.1.0-preview.0\n',
    );
  });
});
