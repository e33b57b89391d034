import { appendVsInsertBench } from './append.bench';
import { replayBench } from './replay.bench';
import { webhooksBench } from './webhooks.bench';
import { callsBench } from './calls.bench';
import { lifecycleBench } from './lifecycle.bench';
import { campaignBench } from './campaign.bench';
import { neighboursBench } from './neighbours.bench';
import { loginFloodBench } from './login-flood.bench';
import { agentBench } from './agent.bench';
import { roomAudioBench } from './room-audio.bench';
import { sipBench } from './sip.bench';
import { sipInputBench } from './sip-input.bench';
import { sipEchoBench } from './sip-echo.bench';
import { voicemailBench } from './voicemail.bench';
import type { Benchmark } from './support';

/**
 * Every benchmark `npm run bench` knows, by the name its results are stored under. Each runs in a
 * fresh migrated database of its own (BenchContext). To add one (webhook deliveries, the calls
 * API…), write `bench/<name>.bench.ts` exporting a `Benchmark` and list it here.
 * Select some on the command line by name or unambiguous prefix: `npm run bench -- append replay`.
 */
export const BENCHMARKS: Record<string, Benchmark> = {
  append_vs_insert: appendVsInsertBench,
  replay: replayBench,
  webhooks: webhooksBench,
  calls: callsBench,
  lifecycle: lifecycleBench,
  campaign: campaignBench,
  neighbours: neighboursBench,
  login_flood: loginFloodBench,
  agent: agentBench,
  room_audio: roomAudioBench,
  sip: sipBench,
  sip_input: sipInputBench,
  sip_echo: sipEchoBench,
  voicemail: voicemailBench,
};
