#!/usr/bin/env node
/**
 * `vap`: the Voice Agent Platform from a terminal. The API key and base URL come from
 * `VOICE_AGENT_API_KEY` and `VOICE_AGENT_BASE_URL`, or `--api-key` and `--base-url`.
 */
import { Command, InvalidArgumentError } from 'commander';
import { VoiceAgent } from './client.js';
import { VoiceAgentError } from './errors.js';
import { listen } from './listen.js';
import { VERSION } from './version.js';

interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const json = (value: unknown): void => out(JSON.stringify(value, null, 2));

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function client(program: Command): { client: VoiceAgent; apiKey: string } {
  const options = program.opts<GlobalOptions>();
  const apiKey = options.apiKey ?? process.env.VOICE_AGENT_API_KEY;
  if (!apiKey) throw new Error('No API key: set VOICE_AGENT_API_KEY or pass --api-key.');
  return { client: new VoiceAgent({ apiKey, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) }), apiKey };
}

export function buildProgram(): Command {
  const program = new Command('vap')
    .description('Voice Agent Platform CLI: place calls, read sessions and events, receive webhooks locally.')
    .version(VERSION)
    .option('--api-key <key>', 'API key (default: $VOICE_AGENT_API_KEY)')
    .option('--base-url <url>', 'API base URL (default: $VOICE_AGENT_BASE_URL, else http://127.0.0.1:3000)')
    .showHelpAfterError();

  program
    .command('listen')
    .description(
      'Follow the events feed and POST each event to a local URL, signed with a local secret (printed at start). ' +
        'Resumes after the last event forwarded when restarted.',
    )
    .requiredOption('--forward-to <url>', 'local URL that receives the events, e.g. http://localhost:4242/webhooks')
    .option('--events <types>', 'comma-separated types or prefixes, e.g. session.*,campaign.completed (default: all)')
    .option('--after <event id>', 'start after this event (default: where it stopped, else the tail of the feed now)')
    .option('--attempts <n>', 'tries per event while the local server fails, before moving on', positiveInt, 4)
    .action(async (opts: { forwardTo: string; events?: string; after?: string; attempts: number }) => {
      try {
        new URL(opts.forwardTo);
      } catch {
        throw new InvalidArgumentError(`--forward-to: not a URL: ${opts.forwardTo}`);
      }
      const { client: api, apiKey } = client(program);
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      await listen(api, {
        apiKey,
        forwardTo: opts.forwardTo,
        events: opts.events
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean),
        after: opts.after,
        attempts: opts.attempts,
        signal: stop.signal,
        out,
      });
      out('Stopped.');
    });

  const calls = program.command('calls').description('Outbound calls');
  calls
    .command('create')
    .description('Place one outbound call (prints the queued session)')
    .requiredOption('--to <number>', 'destination, international format (+14155550100)')
    .option('--from <number>', 'caller number (default with --test: +14155550199)')
    .option('--prompt <text>', "the agent's instructions", 'You are a friendly voice agent.')
    .option('--voice-id <id>', 'a trained voice')
    .option('--test', 'test mode: the call plays on the test pool, no carrier, no credits')
    .option('--idempotency-key <key>', 'sent as Idempotency-Key (default: a new one)')
    .action(
      async (opts: {
        to: string;
        from?: string;
        prompt: string;
        voiceId?: string;
        test?: boolean;
        idempotencyKey?: string;
      }) => {
        const from = opts.from ?? (opts.test ? '+14155550199' : undefined);
        if (!from) throw new InvalidArgumentError('--from is required unless --test');
        const { client: api } = client(program);
        const session = await api.calls.create(
          {
            to: opts.to,
            from,
            agent_config: { prompt: opts.prompt, ...(opts.voiceId ? { voice_id: opts.voiceId } : {}) },
            test_mode: opts.test === true,
          },
          opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {},
        );
        json(session);
      },
    );

  program
    .command('sessions')
    .description('Sessions (calls and room conversations)')
    .command('get <session_id>')
    .description('Print one session')
    .action(async (sessionId: string) => json(await client(program).client.sessions.get(sessionId)));

  program
    .command('events')
    .description("The tenant's events feed")
    .command('list')
    .description('Print the latest events, or those after --after, oldest first (one line each, or --json)')
    .option('--type <type>', 'only this catalog type')
    .option('--after <event id>', 'after this event')
    .option('--limit <n>', 'at most this many (default 20)', positiveInt, 20)
    .option('--json', 'print the envelopes as JSON')
    .action(async (opts: { type?: string; after?: string; limit: number; json?: boolean }) => {
      const events = client(program).client.events;
      const limit = Math.min(100, opts.limit);
      const type = opts.type ? { type: opts.type } : {};
      // After a cursor: commit order from it. Without one: the latest events, printed oldest first.
      const page = opts.after
        ? await events.page({ ...type, after: opts.after, limit })
        : await events.page({ ...type, order: 'desc', limit });
      const list = opts.after ? page.data : [...page.data].reverse();
      if (opts.json) return json(list);
      for (const e of list) out(`${e.created_at}  ${e.type.padEnd(36)} ${e.id}`);
    });

  return program;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof VoiceAgentError) {
      process.stderr.write(
        `error: ${err.message} (status ${err.status}, type ${err.type}${err.param ? `, param ${err.param}` : ''}` +
          `${err.request_id ? `, request ${err.request_id}` : ''})\n`,
      );
    } else process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
