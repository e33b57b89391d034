import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodePcm16Wav } from '../../kernel/audio/wav';

/**
 * The rooms context's static files (the landing page, its script and style, the agent's greeting)
 * live in src/rooms/assets/ and are read from there both by the compiled service (dist/rooms/infra/)
 * and by the tests (src/rooms/infra/): both sit three levels below the repository root.
 */
export const ROOM_ASSETS_DIR = resolve(__dirname, '..', '..', '..', 'src', 'rooms', 'assets');

let greeting: Int16Array | null = null;

/**
 * The simulator agent's greeting: 8 kHz mono 16-bit PCM, shipped as greeting.wav (docs/rooms.md says
 * how it was made). Read once.
 */
export function agentGreeting(): Int16Array {
  if (greeting) return greeting;
  const audio = decodePcm16Wav(readFileSync(join(ROOM_ASSETS_DIR, 'greeting.wav')));
  if (audio.sampleRate !== 8000 || audio.channels !== 1) throw new Error('greeting.wav must be 8 kHz mono');
  greeting = audio.samples;
  return greeting;
}
