// Builds the embedded speech engines' warm helpers (native/*.c) into dist/speech/: a recogniser on
// pocketsphinx and a synthesiser on flite, each loaded once and then serving utterances over
// stdin/stdout (src/conversations/engines/embedded/). They need a C compiler and Debian's
// libpocketsphinx-dev, libsphinxbase-dev and flite1-dev (.ci/run installs them). Without those it
// says so and builds nothing: the platform then starts, and a conversation that needs an embedded
// engine fails with a message naming the missing helper.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'speech');
mkdirSync(out, { recursive: true });

const pkgConfig = (names) => {
  const r = spawnSync('pkg-config', ['--cflags', '--libs', ...names], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split(/\s+/).filter(Boolean) : null;
};

const HELPERS = [
  {
    name: 'speech-recognizer',
    flags: () => pkgConfig(['pocketsphinx', 'sphinxbase']),
    needs: 'libpocketsphinx-dev libsphinxbase-dev',
  },
  {
    name: 'speech-synthesizer',
    flags: () =>
      existsSync('/usr/include/flite/flite.h')
        ? ['-lflite_cmu_us_slt', '-lflite_usenglish', '-lflite_cmulex', '-lflite', '-lm']
        : null,
    needs: 'flite1-dev',
  },
];

for (const helper of HELPERS) {
  const flags = helper.flags();
  if (!flags) {
    process.stdout.write(`build: ${helper.name} skipped: install ${helper.needs} (apt-get) to build it\n`);
    continue;
  }
  const source = join(root, 'native', `${helper.name}.c`);
  const r = spawnSync('cc', ['-O2', '-Wall', '-o', join(out, helper.name), source, ...flags], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`build: ${helper.name} failed to compile\n`);
    process.exit(1);
  }
}
