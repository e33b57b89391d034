// The OTLP exporter loads node:http with a dynamic import(), which Jest's CommonJS runtime cannot run
// (it would need --experimental-vm-modules). Node's own require loads the package, as the built
// service does; it is the real exporter (the same precedent: content-disposition in test/support/app.ts).
jest.mock('@opentelemetry/exporter-trace-otlp-http', () =>
  process.getBuiltinModule('node:module').createRequire(__filename)('@opentelemetry/exporter-trace-otlp-http'),
);
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../test/support/app';
import { eventually } from '../../../test/support/eventually';
import { OpenAiStandIn } from '../../../test/support/openai-stand-in';
import { EmbeddedSynthesizer } from '../engines/embedded/embedded-synthesizer';
import { CHAT_MODEL, EMBEDDED_SPEECH_SYNTHESIZER, SPEECH_RECOGNIZER, SPEECH_SYNTHESIZER } from '../engines/engines';
import { OpenAiChatModel } from '../engines/openai/openai-chat-model';
import { OpenAiRecognizer } from '../engines/openai/openai-recognizer';
import { OpenAiSynthesizer } from '../engines/openai/openai-synthesizer';
import { CachingSynthesizer } from '../engines/synthesis-cache';
import { ConversationTelemetry } from './telemetry';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number; message?: string };
}
interface OtlpExport {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: unknown }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

/**
 * The conversations' telemetry in the whole app: with OTEL_EXPORTER_OTLP_ENDPOINT set, a turn's spans
 * reach a loopback HTTP receiver standing in for an OTLP collector (POST /v1/traces, OTLP/JSON), each
 * with the session id; the latency histograms are on /metrics. With STT_URL, TTS_URL and LLM_URL set
 * (to a stand-in of a hosted API), the ports are bound to the OpenAI-compatible adapters.
 */
describe('ConversationTelemetry (OTLP traces, /metrics) and the engines the settings bind', () => {
  let t: TestApp;
  let collector: Server;
  let standIn: OpenAiStandIn;
  const posts: { path: string; type: string; body: OtlpExport }[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        posts.push({
          path: req.url ?? '',
          type: req.headers['content-type'] ?? '',
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    standIn = await OpenAiStandIn.start();
    const engine = { URL: standIn.url, API_KEY: standIn.apiKey, MODEL: 'stand-in' };
    t = await startTestApp({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`,
        ...Object.fromEntries(
          ['STT', 'TTS', 'LLM'].flatMap((p) => Object.entries(engine).map(([k, v]) => [`${p}_${k}`, v])),
        ),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await standIn?.close();
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  });

  it('binds each port to the OpenAI-compatible adapter when its URL is set, keeping the embedded synthesiser for apologies', () => {
    expect(t.app.get(SPEECH_RECOGNIZER)).toBeInstanceOf(OpenAiRecognizer);
    // Behind the cache of synthesised lines (synthesis-cache.ts).
    const synthesizer = t.app.get<CachingSynthesizer>(SPEECH_SYNTHESIZER);
    expect(synthesizer).toBeInstanceOf(CachingSynthesizer);
    expect(synthesizer.engine).toBeInstanceOf(OpenAiSynthesizer);
    expect(t.app.get(CHAT_MODEL)).toBeInstanceOf(OpenAiChatModel);
    expect(t.app.get(EMBEDDED_SPEECH_SYNTHESIZER)).toBeInstanceOf(EmbeddedSynthesizer);
  });

  it('exports a turn as a span with child spans, each carrying the session and tenant ids, under the service name, to <endpoint>/v1/traces', async () => {
    const telemetry = t.app.get(ConversationTelemetry);
    const close = telemetry.forPipeline().opened?.('ses_telemetry_test', 'ten_telemetry_test');
    const turn = telemetry.turn('ses_telemetry_test');
    turn.span('endpointing').end();
    turn.span('recognition').end();
    turn.span('model.first_token').end();
    const tool = turn.span('tool_call', { 'tool.name': 'lookup_order' });
    await new Promise((r) => setTimeout(r, 20));
    tool.end({ 'tool.status': 'timeout' });
    turn.span('synthesis.first_audio'); // still open when the turn ends: ended with it
    turn.end({ interrupted: false });
    close?.();
    await telemetry.flush();

    const spans = await eventually(() => {
      const all = posts.flatMap((p) => p.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      expect(all.filter((s) => attr(s, 'session.id') === 'ses_telemetry_test')).toHaveLength(6);
      return all;
    });
    expect(posts[0]).toMatchObject({ path: '/v1/traces', type: expect.stringMatching(/^application\/json/) });
    // The service is named (not unknown_service:node), and every span says whose call it is.
    const resource = posts[0]!.body.resourceSpans[0]!.resource;
    expect(resource?.attributes?.find((a) => a.key === 'service.name')?.value).toEqual({
      stringValue: 'voice-agent-platform',
    });
    expect(spans.every((s) => attr(s, 'tenant.id') === 'ten_telemetry_test')).toBe(true);
    const root = spans.find((s) => s.name === 'conversation.turn');
    expect(root).toBeDefined();
    expect(attr(root!, 'interrupted')).toBe(false);
    const children = spans.filter((s) => s.parentSpanId === root!.spanId);
    expect(children.map((s) => s.name).sort()).toEqual([
      'endpointing',
      'model.first_token',
      'recognition',
      'synthesis.first_audio',
      'tool_call',
    ]);
    for (const span of [root!, ...children]) {
      expect(span.traceId).toBe(root!.traceId);
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
    }
    const toolSpan = children.find((s) => s.name === 'tool_call')!;
    expect(attr(toolSpan, 'tool.name')).toBe('lookup_order');
    expect(attr(toolSpan, 'tool.status')).toBe('timeout');
    expect(toolSpan.status).toMatchObject({ code: 2, message: 'timeout' }); // ERROR
    expect(BigInt(toolSpan.endTimeUnixNano) - BigInt(toolSpan.startTimeUnixNano)).toBeGreaterThanOrEqual(15_000_000n);
    expect(
      attr(
        children.find((s) => s.name === 'synthesis.first_audio')!,
        'turn.ended_first',
      ),
    ).toBe(true);
  });

  it('serves the latency histograms on /metrics, with buckets up to 5 s', async () => {
    const telemetry = t.app.get(ConversationTelemetry);
    telemetry.observe('voice_to_voice', 640);
    telemetry.observe('voice_to_voice', 1400);
    telemetry.observe('stt', 210);
    telemetry.observe('llm_first_token', 330);
    telemetry.observe('tts_first_audio', 90);
    telemetry.observe('barge_in_stop', 120);
    telemetry.observe('stt', -5); // dropped
    telemetry.engineFailed('model');
    const res = await t.admin({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('conversation_voice_to_voice_ms_bucket{le="1000"} 1');
    expect(res.body).toContain('conversation_voice_to_voice_ms_bucket{le="1500"} 2');
    expect(res.body).toContain('conversation_voice_to_voice_ms_bucket{le="5000"} 2');
    expect(res.body).toContain('conversation_voice_to_voice_ms_count 2');
    expect(res.body).toContain('conversation_stt_ms_count 1');
    for (const name of ['llm_first_token', 'tts_first_audio', 'barge_in_stop']) {
      expect(res.body).toContain(`# TYPE conversation_${name}_ms histogram`);
      expect(res.body).toContain(`conversation_${name}_ms_count 1`);
    }
    expect(res.body).toContain('conversation_engine_failures_total{engine="model"} 1');
    expect(res.body).toContain('conversation_engine_failures_total{engine="recognition"} 0');
    // The runtime's own metrics are still there.
    expect(res.body).toContain('processor_event_failures_total');
    // Without the operator's token: refused, as before.
    expect((await t.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  });
});

function attr(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.boolValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
}
