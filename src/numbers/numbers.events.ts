/** The numbers context's part of the event catalog: number.*. */
import { defineEvents } from '../catalog/event-fragment';
import { fraction, object, text, timestamp } from '../catalog/payload-schema';

const PHONE = 'International format with a leading +.';

export interface NumberAnswerRateDegradedData {
  phone_number: string;
  answer_rate: number;
  window_start: string;
  window_end: string;
}

const numberAnswerRateDegraded = object<NumberAnswerRateDegradedData>({
  phone_number: text(PHONE),
  answer_rate: fraction('Answered share of inbound calls over the window, between 0 and 1.'),
  window_start: timestamp(),
  window_end: timestamp(),
});

export type NumberPayloads = {
  'number.answer_rate_degraded': NumberAnswerRateDegradedData;
};

// Example values shared with the other contexts' examples, so the documented events tell one consistent story.
const EX = {
  callerId: '+14155550199',
} as const;

export const numberEvents = defineEvents<NumberPayloads>({
  groups: { number: 'Phone number events' },
  events: {
    'number.answer_rate_degraded': {
      description: "An inbound number's answer rate fell below 80% over a rolling 24 hours.",
      payload: numberAnswerRateDegraded,
      example: {
        phone_number: EX.callerId,
        answer_rate: 0.62,
        window_start: '2026-03-01T17:00:00.000Z',
        window_end: '2026-03-02T17:00:00.000Z',
      },
    },
  },
});
