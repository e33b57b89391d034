/**
 * The Python client (clients/python) as a user gets it, against the real service (node dist/main.js):
 * `pip install` of the package into a fresh venv of Debian's Python (its httpx and pytest come from
 * the system site packages: --no-deps, and no index is reached), then its integration tests
 * (tests/integration, a real webhook receiver on loopback in the Python process) and every ```python
 * example of its README, each run as a script of its own with the venv's interpreter.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallsService, startCallsService, stopCallsSuite } from '../../support/calls-harness';
import { REPO_ROOT } from '../../support/process';
import { createTenant } from '../../support/webhooks-harness';

jest.setTimeout(180_000);

const SYSTEM_PYTHON = '/usr/bin/python3';
const PACKAGE = join(REPO_ROOT, 'clients', 'python');

interface Run {
  code: number;
  out: string;
}

/** Runs a command to its end, never throwing: its exit code and its output (stdout then stderr). */
function run(file: string, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        env: {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          PIP_NO_INDEX: '1',
          PIP_DISABLE_PIP_VERSION_CHECK: '1',
          ...env,
        },
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

/** The ```python blocks of a Markdown document, in order. */
function pythonExamples(markdown: string): string[] {
  return [...markdown.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('Python client against the real service', () => {
  let service: CallsService;
  let work: string;
  let python: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'vap-python-'));
    const [started] = await Promise.all([
      startCallsService({ SIM_TIME_SCALE: '0.01', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      (async () => {
        const venv = await run(SYSTEM_PYTHON, ['-m', 'venv', '--system-site-packages', join(work, 'venv')]);
        if (venv.code !== 0) throw new Error(`python3 -m venv failed:\n${venv.out}`);
      })(),
    ]);
    service = started;
    python = join(work, 'venv', 'bin', 'python');
  });

  afterAll(async () => {
    await stopCallsSuite(service);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs with pip install ./clients/python (httpx its only dependency), and imports from the venv', async () => {
    // A copy: setuptools writes build/ and *.egg-info next to the sources it builds.
    const copy = join(work, 'python');
    cpSync(PACKAGE, copy, {
      recursive: true,
      filter: (src) => !/(__pycache__|\.pytest_cache|\.egg-info|[/\\]build)$/.test(src),
    });
    const install = await run(python, ['-m', 'pip', 'install', '--no-deps', '--no-build-isolation', copy]);
    expect(install).toMatchObject({ code: 0 });
    const meta = await run(python, [
      '-c',
      'import importlib.metadata as m, voice_agent; print(voice_agent.__file__); print(m.requires("voice-agent")); print(voice_agent.VERSION)',
    ]);
    expect(meta.code).toBe(0);
    const [file, requires, version] = meta.out.trim().split('\n');
    expect(file).toContain(join(work, 'venv'));
    expect(requires).toMatch(/^\['httpx ?\(?>=0\.23\)?'\]$/);
    expect(version).toBe('0.1.0a0');
  });

  it('passes its integration tests against the service (calls, events, webhooks with both schemes, pages, errors, async)', async () => {
    const tenant = await createTenant(service.call, service.svc.adminToken, 'Python Client');
    const result = await run(
      python,
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-rs', join(PACKAGE, 'tests', 'integration')],
      { VOICE_AGENT_BASE_URL: service.svc.baseUrl, VOICE_AGENT_API_KEY: tenant.api_key },
    );
    if (result.code !== 0) throw new Error(`pytest failed (${result.code}):\n${result.out}\n${service.diagnostics()}`);
    expect(result.out).toMatch(/\b7 passed\b/);
    expect(result.out).not.toMatch(/skipped/);
  });

  it('runs every python example of its README and the main quick start, each as a script, to exit code 0', async () => {
    const examples = pythonExamples(readFileSync(join(PACKAGE, 'README.md'), 'utf8'));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const quickStart = pythonExamples(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(quickStart).toHaveLength(1);
    examples.push(...quickStart);
    const tenant = await createTenant(service.call, service.svc.adminToken, 'Python README');
    const env = { VOICE_AGENT_BASE_URL: service.svc.baseUrl, VOICE_AGENT_API_KEY: tenant.api_key };
    for (const [i, code] of examples.entries()) {
      const file = join(work, `readme-example-${i + 1}.py`);
      writeFileSync(file, code);
      const result = await run(python, [file], env, 60_000);
      if (result.code !== 0)
        throw new Error(`README example ${i + 1} exited ${result.code}:\n${code}\n--- output ---\n${result.out}`);
    }
  });
});
