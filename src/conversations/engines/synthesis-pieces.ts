import { resample } from '../../kernel/audio/rate-converter';
import type { SynthesizedSpeech } from './engines';

/**
 * The longest text a synthesiser is handed at once (UTF-16 code units, so at most as many
 * characters): a spoken line longer than this is synthesised in pieces, in order. A piece of 400
 * characters is about 25 s of speech.
 */
export const MAX_SYNTHESIS_PIECE = 400;

/** A sentence ends at . ! ? or … (then closing quotes or brackets) before a space. */
const SENTENCE_END = /[.!?…]["'”’)\]]*$/u;
const CLAUSE_END = /[,;:—–]["'”’)\]]*$/u;
const MARK = /\p{M}/u;

/**
 * Cuts `text` (its runs of white space made one space) into pieces of at most `max` code units, in
 * order, at the last sentence end that fits, else the last clause end (, ; : dash), else the last
 * space, else (a word longer than `max`) anywhere but inside a surrogate pair or before a combining
 * mark. Each piece costs at most `max` steps to cut: the whole is linear in the text's length.
 * Nothing but spaces at the cuts is lost; '' and white space give no piece.
 */
export function synthesisPieces(text: string, max = MAX_SYNTHESIS_PIECE): string[] {
  if (max < 2) throw new RangeError('A synthesis piece holds at least 2 code units.');
  const line = text.replace(/\s+/g, ' ').trim();
  const pieces: string[] = [];
  let at = 0;
  while (line.length - at > max) {
    const cut = cutPoint(line, at, max);
    const piece = line.slice(at, cut).trim();
    if (piece) pieces.push(piece);
    at = cut;
    while (line[at] === ' ') at++;
  }
  const rest = line.slice(at).trim();
  if (rest) pieces.push(rest);
  return pieces;
}

/** Where the piece starting at `at` (longer than `max`) ends: an index in (at, at + max]. */
function cutPoint(line: string, at: number, max: number): number {
  const end = at + max;
  // A space at `end` itself ends a piece of exactly `max`.
  let lastSpace = -1;
  let lastClause = -1;
  for (let i = end; i > at; i--) {
    if (line[i] !== ' ') continue;
    const before = line.slice(Math.max(at, i - 4), i);
    if (SENTENCE_END.test(before)) return i;
    if (lastClause < 0 && CLAUSE_END.test(before)) lastClause = i;
    if (lastSpace < 0) lastSpace = i;
  }
  if (lastClause > at) return lastClause;
  if (lastSpace > at) return lastSpace;
  // One word longer than `max`: cut it, not inside a surrogate pair or before a combining mark.
  let cut = end;
  while (cut > at + 1 && (isLowSurrogate(line.charCodeAt(cut)) || MARK.test(line[cut] ?? ''))) cut--;
  return cut;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Speaks `text` with `speak`, one piece of at most `max` characters after the other (never two at
 * once), and joins their samples with one copy: what an engine does when handed a line longer than
 * a piece (the pipeline itself hands pieces, so that the first plays while the next is made). A
 * piece at another rate than the first is converted to it.
 */
export async function synthesizeInPieces(
  text: string,
  speak: (piece: string) => Promise<SynthesizedSpeech>,
  max = MAX_SYNTHESIS_PIECE,
): Promise<SynthesizedSpeech> {
  const pieces = synthesisPieces(text, max);
  if (pieces.length <= 1) return speak(pieces[0] ?? '');
  const made: Int16Array[] = [];
  let sampleRate = 0;
  let length = 0;
  for (const piece of pieces) {
    const speech = await speak(piece);
    if (made.length === 0) sampleRate = speech.sampleRate;
    const samples =
      speech.sampleRate === sampleRate ? speech.samples : resample(speech.samples, speech.sampleRate, sampleRate);
    made.push(samples);
    length += samples.length;
  }
  const samples = new Int16Array(length);
  let offset = 0;
  for (const part of made) {
    samples.set(part, offset);
    offset += part.length;
  }
  return { sampleRate, samples };
}
