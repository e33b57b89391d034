/**
 * The built-in analysis (no model): a deterministic summary from the first and last things the caller
 * said and how the call ended; never structured data nor a success verdict.
 */
import type { AnalysisRequest } from '../domain/analysis-evaluator';
import type { TranscriptEntry } from '../sessions.events';
import {
  BuiltInAnalysisEvaluator,
  builtInAnalysis,
  builtInSummary,
  MAX_QUOTE_CHARS,
} from './builtin-analysis-evaluator';

const COMPLETED = { status: 'completed', end_reason: 'completed' } as const;
const agent = (content: string): TranscriptEntry => ({ role: 'agent', content });
const user = (content: string): TranscriptEntry => ({ role: 'user', content });

describe('the built-in analysis', () => {
  it('quotes the first and the last things the caller said, and how the call ended', () => {
    expect(
      builtInSummary(
        [
          agent('Hi, this is Ava.'),
          user('Sure, what is it about?'),
          agent('A cleaning.'),
          user('Thursday at 3 works.'),
        ],
        COMPLETED,
      ),
    ).toBe('The caller said: "Sure, what is it about?". Last: "Thursday at 3 works.". The call ended completed.');
  });

  it('the end reason in brackets when it is not the status; one thing said: no Last', () => {
    expect(
      builtInSummary([user('I would rather talk to a person.')], { status: 'completed', end_reason: 'transferred' }),
    ).toBe('The caller said: "I would rather talk to a person.". The call ended completed (transferred).');
    expect(builtInSummary([user('Hello?')], { status: 'failed', end_reason: 'media_lost' })).toBe(
      'The caller said: "Hello?". The call ended failed (media_lost).',
    );
  });

  it('a caller who said nothing; keys pressed; spaces folded; a long turn cut', () => {
    expect(builtInSummary([agent('Hello?')], COMPLETED)).toBe('The caller said nothing. The call ended completed.');
    expect(builtInSummary([{ role: 'user', content: '', dtmf: '42#' }, user('  Yes,\n  please. ')], COMPLETED)).toBe(
      'The caller said: "[pressed the keys 42#]". Last: "Yes, please.". The call ended completed.',
    );
    const long = builtInSummary([user('a'.repeat(500))], COMPLETED);
    expect(long).toBe(`The caller said: "${'a'.repeat(MAX_QUOTE_CHARS - 1)}…". The call ended completed.`);
  });

  it('no structured data and no verdict; no summary unless asked', async () => {
    const request: AnalysisRequest = {
      transcript: [user('Book me in.')],
      plan: { summary: true, structured_data: { type: 'object' }, success_criteria: 'Booked.' },
      outcome: COMPLETED,
    };
    await expect(new BuiltInAnalysisEvaluator().analyse(request)).resolves.toEqual({
      summary: 'The caller said: "Book me in.". The call ended completed.',
      structured_data: null,
      success: null,
    });
    expect(builtInAnalysis({ ...request, plan: { success_criteria: 'Booked.' } })).toEqual({
      summary: null,
      structured_data: null,
      success: null,
    });
  });
});
