import { DeciderSpecification } from '../../../test/support/decider-specification';
import { EventCatalog } from '../../catalog/event-catalog';
import { voiceCloneEvents } from '../voices.events';
import type { SampleMeasurement } from './audio-meter';
import { decodeFailed, decodeTimedOut, tooLong } from './sample-rules';
import { type SampleFile, voiceCloneDecider, type VoiceCloneEvent } from './voice-clone.decider';

const spec = DeciderSpecification.for(voiceCloneDecider);
const VOICE = 'voi_00000000000000000001';
const who = { voice_id: VOICE, name: 'Support voice' };
const file = (n: number): SampleFile => ({
  filename: `s${n}.wav`,
  content_type: 'audio/wav',
  format: 'wav',
  bytes: 992_044,
  sha256: String(n).repeat(64).slice(0, 64),
  path: `${VOICE}/0${n}.wav`,
});
const measured: SampleMeasurement = {
  duration_ms: 31_000,
  sample_rate: 16_000,
  channels: 1,
  rms_dbfs: -13.5,
  peak_dbfs: -10.5,
  spectrum: { centroid_hz: 400, bands_db: [-40, -30, -0.1, -30, -40, -50, -60, -70] },
};
const uploaded: VoiceCloneEvent = {
  type: 'voice_clone.uploaded',
  data: { ...who, samples: [file(1), file(2), file(3)] },
};
const started: VoiceCloneEvent = { type: 'voice_clone.training_started', data: { ...who, samples: 3 } };
const measuredEvent = (index: number): VoiceCloneEvent => ({
  type: 'voice_clone.sample_measured',
  data: { voice_id: VOICE, index, measurement: measured },
});
const model = { provider: 'builtin', reference: 'builtin_abc', summary: { fingerprint: 'abc' } };
const AT = '2026-03-01T09:14:52.330Z';

describe('voice clone decider', () => {
  it('upload, then the job starts: voice_clone.training_started with the sample count', () => {
    spec
      .given([])
      .when({ type: 'upload', voiceId: VOICE, name: 'Support voice', samples: uploaded.data.samples })
      .then(uploaded);
    spec.given(uploaded).when({ type: 'start_training' }).then(started);
    spec.given([uploaded, started]).when({ type: 'start_training' }).thenNothingHappened();
  });

  it('records each measurement once, and succeeds only once every sample is measured', () => {
    spec
      .given([uploaded, started])
      .when({ type: 'record_measurement', index: 0, measurement: measured })
      .then(measuredEvent(0));
    spec
      .given([uploaded, started, measuredEvent(0)])
      .when({ type: 'record_measurement', index: 0, measurement: measured })
      .thenNothingHappened();
    spec
      .given([uploaded, started, measuredEvent(0), measuredEvent(1)])
      .when({ type: 'succeed', model, at: AT })
      .thenNothingHappened();
    spec
      .given([uploaded, started, measuredEvent(0), measuredEvent(1), measuredEvent(2)])
      .when({ type: 'succeed', model, at: AT })
      .then([
        { type: 'voice_clone.model_trained', data: { voice_id: VOICE, model } },
        { type: 'voice_clone.training_succeeded', data: { ...who, ready_at: AT } },
      ]);
  });

  it('fails once, with the error code and message', () => {
    const failure = {
      error_code: 'insufficient_samples' as const,
      error_message: 'At least 3 samples of 30 seconds each are needed; 2 were uploaded.',
    };
    const failed: VoiceCloneEvent = { type: 'voice_clone.training_failed', data: { ...who, ...failure } };
    spec
      .given([uploaded, started])
      .when({ type: 'fail', ...failure })
      .then(failed);
    spec
      .given([uploaded, started, failed])
      .when({ type: 'fail', ...failure })
      .thenNothingHappened();
    spec
      .given(uploaded)
      .when({ type: 'fail', ...failure })
      .thenNothingHappened();
  });

  it('a sample past a length bound, or a decode past its time bound, fails the voice mid-measuring', () => {
    for (const failure of [
      tooLong({ index: 1, filename: 's2.wav' }, 'sample', { sampleMaxMs: 600_000, totalMaxMs: 1_800_000 }),
      tooLong({ index: 2, filename: 's3.wav' }, 'total', { sampleMaxMs: 600_000, totalMaxMs: 1_800_000 }),
      decodeTimedOut({ index: 1, filename: 's2.wav' }, 30_000),
      decodeFailed({ index: 1, filename: 's2.wav' }),
    ]) {
      const failed: VoiceCloneEvent = { type: 'voice_clone.training_failed', data: { ...who, ...failure } };
      spec
        .given([uploaded, started, measuredEvent(0)])
        .when({ type: 'fail', ...failure })
        .then(failed);
      expect(EventCatalog.from([voiceCloneEvents]).validatePayload(failed.type, failed.data)).toEqual([]);
      spec
        .given([uploaded, started, measuredEvent(0), failed])
        .when({ type: 'record_measurement', index: 1, measurement: measured })
        .thenNothingHappened();
    }
  });

  it('a deleted voice is gone: every later command is not found', () => {
    const deleted: VoiceCloneEvent = { type: 'voice_clone.deleted', data: { voice_id: VOICE, deleted_at: AT } };
    spec.given([uploaded, started]).when({ type: 'delete', at: AT }).then(deleted);
    spec
      .given([uploaded, deleted])
      .when({ type: 'start_training' })
      .thenThrows({ code: 'not_found', param: 'voice_id' });
    spec.given([]).when({ type: 'delete', at: AT }).thenThrows('not_found');
  });

  it('an upload without samples is refused', () => {
    spec
      .given([])
      .when({ type: 'upload', voiceId: VOICE, name: 'x', samples: [] })
      .thenThrows({ code: 'invalid_request', param: 'samples' });
  });

  it('its catalog events match the catalog schema', () => {
    const catalog = EventCatalog.from([voiceCloneEvents]);
    const decided = [
      ...voiceCloneDecider.decide({ type: 'start_training' }, fold([uploaded])),
      ...voiceCloneDecider.decide(
        { type: 'succeed', model, at: AT },
        fold([uploaded, started, ...[0, 1, 2].map(measuredEvent)]),
      ),
      ...voiceCloneDecider.decide(
        { type: 'fail', error_code: 'sample_too_quiet', error_message: 'Too quiet.' },
        fold([uploaded, started]),
      ),
    ].filter((e) => catalog.isCatalogType(e.type));
    expect(decided.map((e) => e.type)).toEqual([
      'voice_clone.training_started',
      'voice_clone.training_succeeded',
      'voice_clone.training_failed',
    ]);
    for (const e of decided) expect(catalog.validatePayload(e.type, e.data)).toEqual([]);
  });
});

const fold = (events: VoiceCloneEvent[]) => events.reduce(voiceCloneDecider.evolve, voiceCloneDecider.initialState());
