import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/project-root';
import { decodePcm16Wav } from '../../kernel/audio/wav';

/**
 * The rooms context's static files (the landing page, its script and style, the agent's greeting)
 * live in src/rooms/assets/ and are read from there by the compiled service and by the tests.
 */
export const ROOM_ASSETS_DIR = join(PROJECT_ROOT, 'src', 'rooms', 'assets');

/** The web SDK's browser module (clients/web), which the landing page's script imports. */
export const WEB_SDK_FILE = join(PROJECT_ROOT, 'clients', 'web', 'dist', 'index.js');

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
