import { readFileSync } from 'node:fs';

/**
 * Voice activity detection by WebRTC's VAD (libfvad compiled to WebAssembly, `@echogarden/fvad-wasm`):
 * one decision per 20 ms frame of 16 kHz audio, cheap enough to run on the event loop with no
 * worker.
 *
 * The package's JavaScript glue is an ES module that reads `import.meta`, which neither this
 * CommonJS build nor Jest can load; its WebAssembly is plain, so it is instantiated here, once per
 * process, with the export names read from the glue (the glue maps `_fvad_new` and the others to
 * minified names that change between builds of the package). Each detector is one fvad instance in
 * that module's memory.
 */

/** WebRTC VAD mode 3, "very aggressive": the fewest noise frames taken for speech (decision 110). */
export const VAD_MODE = 3;

/** The parts of the WebAssembly API used here (this project's `lib` has no DOM types, where they live). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
};

interface FvadExports {
  memory: WasmMemory;
  fvad_new(): number;
  fvad_free(handle: number): void;
  fvad_set_mode(handle: number, mode: number): number;
  fvad_set_sample_rate(handle: number, rate: number): number;
  fvad_process(handle: number, frame: number, length: number): number;
  malloc(size: number): number;
}

let loaded: { fvad: FvadExports; scratch: number; scratchSamples: number } | null = null;

const NAMES = ['fvad_new', 'fvad_free', 'fvad_set_mode', 'fvad_set_sample_rate', 'fvad_process', 'malloc'] as const;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const dir = require.resolve('@echogarden/fvad-wasm/package.json').replace(/package\.json$/, '');
  const glue = readFileSync(`${dir}fvad.js`, 'utf8');
  const exportOf = (name: string): string => {
    const found = new RegExp(`Module\\["_${name}"\\]=wasmExports\\["(\\w+)"\\]`).exec(glue);
    if (!found?.[1]) throw new Error(`@echogarden/fvad-wasm: no export for ${name} in fvad.js (a new build?)`);
    return found[1];
  };
  const memoryName = /wasmMemory=wasmExports\["(\w+)"\]/.exec(glue)?.[1];
  const ctorsName = /___wasm_call_ctors=wasmExports\["(\w+)"\]/.exec(glue)?.[1];
  const importNames = /var wasmImports=\{(\w+):___assert_fail,(\w+):_emscripten_resize_heap\}/.exec(glue);
  if (!memoryName || !ctorsName || !importNames?.[1] || !importNames[2]) {
    throw new Error('@echogarden/fvad-wasm: fvad.js is not the emscripten glue this loader reads (a new build?)');
  }
  let memory: WasmMemory | null = null;
  const module = new WebAssembly.Module(readFileSync(`${dir}fvad.wasm`));
  const instance = new WebAssembly.Instance(module, {
    a: {
      [importNames[1]]: () => {
        throw new Error('fvad: assertion failed');
      },
      [importNames[2]]: (requested: number) => {
        if (!memory) return 0;
        const pages = Math.ceil(((requested >>> 0) - memory.buffer.byteLength) / 65536);
        try {
          memory.grow(Math.max(0, pages));
          return 1;
        } catch {
          return 0;
        }
      },
    },
  });
  const raw = instance.exports;
  memory = raw[memoryName] as WasmMemory;
  (raw[ctorsName] as () => void)();
  const fn = Object.fromEntries(NAMES.map((name) => [name, raw[exportOf(name)]]));
  const fvad = { memory, ...fn } as FvadExports;
  // One scratch buffer for every detector's frame: the process is single-threaded and each call is synchronous.
  const scratchSamples = 480; // 30 ms at 16 kHz, the largest frame fvad takes
  loaded = { fvad, scratch: fvad.malloc(scratchSamples * 2), scratchSamples };
  return loaded;
}

/** One VAD stream (a conversation's user side): 16 kHz frames of 10, 20 or 30 ms in, speech or not out. */
export class VoiceActivityDetector {
  private handle: number;

  constructor(mode = VAD_MODE) {
    const { fvad } = load();
    this.handle = fvad.fvad_new();
    if (this.handle === 0) throw new Error('fvad: out of memory');
    if (fvad.fvad_set_mode(this.handle, mode) !== 0 || fvad.fvad_set_sample_rate(this.handle, 16000) !== 0) {
      throw new Error(`fvad: mode ${mode} at 16 kHz refused`);
    }
  }

  /** Whether this frame (160, 320 or 480 samples at 16 kHz) holds speech. */
  isSpeech(frame: Int16Array): boolean {
    const { fvad, scratch, scratchSamples } = load();
    if (this.handle === 0) return false;
    if (frame.length !== 160 && frame.length !== 320 && frame.length !== 480) {
      throw new RangeError(`fvad takes 10, 20 or 30 ms at 16 kHz (got ${frame.length} samples)`);
    }
    new Int16Array(fvad.memory.buffer, scratch, scratchSamples).set(frame);
    return fvad.fvad_process(this.handle, scratch, frame.length) === 1;
  }

  close(): void {
    if (this.handle !== 0) load().fvad.fvad_free(this.handle);
    this.handle = 0;
  }
}
