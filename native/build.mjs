// Builds the native parts (native/*.c) into dist/speech/: the embedded speech engines' warm helpers,
// a recogniser on pocketsphinx and a synthesiser on flite, each loaded once and then serving
// utterances over stdin/stdout (src/conversations/engines/embedded/); and the echo canceller, a Node
// addon on speexdsp (echo-canceller.node, src/kernel/media/echo-canceller.ts). They need a C compiler
// and Debian's libpocketsphinx-dev, libsphinxbase-dev, flite1-dev and libspeexdsp-dev (.ci/run installs
// them). A part whose package is missing is skipped with a notice naming it, and the others are built:
// the platform then starts, a conversation that needs an embedded engine fails with a message naming
// the missing helper, and no echo is cancelled.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'speech');
mkdirSync(out, { recursive: true });

// Node's own headers (node_api.h), beside the Node that runs this script (/usr/include/node for /usr/bin/node).
const nodeHeaders = resolve(dirname(process.execPath), '..', 'include', 'node');

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
  {
    // A shared object that Node loads (N-API); its N-API symbols resolve from the node binary at load.
    name: 'echo-canceller',
    output: 'echo-canceller.node',
    shared: true,
    flags: () => {
      const flags = existsSync(join(nodeHeaders, 'node_api.h')) ? pkgConfig(['speexdsp']) : null;
      return flags ? [`-I${nodeHeaders}`, ...flags] : null;
    },
    needs: existsSync(join(nodeHeaders, 'node_api.h'))
      ? 'libspeexdsp-dev'
      : `Node's headers (${nodeHeaders}/node_api.h, in NodeSource's nodejs or Debian's libnode-dev)`,
  },
];

for (const helper of HELPERS) {
  const flags = helper.flags();
  if (!flags) {
    process.stdout.write(`build: ${helper.name} skipped: install ${helper.needs} (apt-get) to build it\n`);
    continue;
  }
  const source = join(root, 'native', `${helper.name}.c`);
  const shared = helper.shared ? ['-shared', '-fPIC'] : [];
  const target = join(out, helper.output ?? helper.name);
  const r = spawnSync('cc', ['-O2', '-Wall', ...shared, '-o', target, source, ...flags], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`build: ${helper.name} failed to compile\n`);
    process.exit(1);
  }
}
