/**
 * The phrases the agent acts on without a model, matched on keywords rather than whole sentences:
 * recognition is imperfect (pocketsphinx hears flite's "Transfer me to a human please" as
 * "transformation of human please"), so one telling word is enough. Opt-out is checked first
 * ("do not call me, I want a person" is an opt-out), then a transfer request, then goodbye.
 */
export type Intent = 'opt_out' | 'transfer' | 'goodbye' | null;

const OPT_OUT = [
  /\bstop (calling|call|ringing)\b/,
  /\b(do not|don't|dont|never) (call|ring|contact)\b/,
  /\bremove me\b/,
  /\b(take|put) me off\b/,
  /\bunsubscribe\b/,
];
const TRANSFER =
  /\b(human|humans|person|real person|agent|agents|representative|representatives|operator|somebody|someone)\b/;
const GOODBYE = /\b(goodbye|good bye|bye|bye bye)\b/;

export function intentOf(words: string): Intent {
  const text = ` ${words
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')} `;
  if (OPT_OUT.some((re) => re.test(text))) return 'opt_out';
  if (TRANSFER.test(text)) return 'transfer';
  if (GOODBYE.test(text)) return 'goodbye';
  return null;
}

/** The agent's lines for these intents (both dialogues). */
export const LINES = {
  transferring: 'Of course. I am transferring you to a person now.',
  cannotTransfer: 'I am sorry, I cannot transfer this call.',
  transferFailed: 'I am sorry, I could not reach anyone to transfer you to. I am still here with you.',
  optedOut: 'I understand. You will not be called again. Goodbye.',
  goodbye: 'Goodbye!',
  stillWorking: 'One moment please, I am still working on that.',
  toolRoundsExceeded: 'I am sorry, I could not finish that.',
} as const;

/**
 * A warm transfer's briefing when the agent has no `transfer_summary`: what the caller said first
 * and last (each cut to MAX_BRIEFING_WORDS characters), then that they are being connected.
 */
export function briefingOf(userWords: readonly string[]): string {
  const said = [...new Set([userWords[0], userWords.at(-1)].filter((w): w is string => !!w?.trim()))];
  const quoted = said.map((w) => `"${briefWords(w)}"`).join(', then ');
  return said.length
    ? `Hello, I have a caller on the line for you. They said: ${quoted}. I am connecting you now.`
    : 'Hello, I have a caller on the line for you. I am connecting you now.';
}

const MAX_BRIEFING_WORDS = 200;

function briefWords(words: string): string {
  const text = words.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_BRIEFING_WORDS) return text;
  const cut = text.lastIndexOf(' ', MAX_BRIEFING_WORDS);
  return `${text.slice(0, cut > 0 ? cut : MAX_BRIEFING_WORDS)}…`;
}

/** Keys as the agent says them back: "1", "1 2 3", "star", "pound". */
export function spokenKeys(digits: string): string {
  return [...digits].map((d) => (d === '*' ? 'star' : d === '#' ? 'pound' : d)).join(' ');
}
