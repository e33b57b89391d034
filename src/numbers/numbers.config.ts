import { defineSettings } from '../config/config-section';

export interface NumbersSettings {
  /** Inbound calls ended in a number's 24 h window before its answer-rate alert can fire (ANSWER_RATE_MIN_CALLS). */
  answerRateMinCalls: number;
}

/** The numbers context's settings (docs/configuration.md, "Phone numbers"). */
export const numbersSettings = defineSettings<NumbersSettings>({
  title: 'Phone numbers',
  variables: [
    {
      variable: 'ANSWER_RATE_MIN_CALLS',
      default: '`10`',
      meaning:
        "Inbound calls ended in a number's rolling 24 h window before `number.answer_rate_degraded` can fire: an integer from 1 to 1000000. See [numbers.md](numbers.md).",
    },
  ],
  parse: ({ int }) => ({ answerRateMinCalls: int('ANSWER_RATE_MIN_CALLS', 10, 1, 1_000_000) }),
});
