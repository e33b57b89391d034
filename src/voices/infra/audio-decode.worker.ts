/**
 * The entry point of a decoding worker thread (node:worker_threads), started by DecodePool: it takes
 * one job at a time from the pool, decodes with audio-decoder.ts on this thread, and answers. All of
 * a sample's PCM lives and dies here; only the measurement (a few numbers) goes back.
 */
import { parentPort } from 'node:worker_threads';
import { measureAudio, probeAudio } from './audio-decoder';
import type { DecodeJob, DecodeReply } from './decode-pool';

const port = parentPort;
if (!port) throw new Error('audio-decode.worker must run as a worker thread');

port.on('message', (job: DecodeJob) => {
  const run = job.op === 'probe' ? probeAudio(job.path, job.format) : measureAudio(job.path, job.format, job.maxMs);
  run.then(
    (result): void => port.postMessage({ ok: true, result } satisfies DecodeReply),
    (err: unknown): void =>
      port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) } satisfies DecodeReply),
  );
});
