import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what a full collection kept alive before it collects
 * again: 50 % (decision 177). V8's own factor goes up to 4× on a machine with a large heap limit, and
 * then how high the service's memory climbs depends on when the last full collection happened to
 * run: the same build's peak varied widely from run to run. Bounded, it peaks lower and steadier for
 * the same CPU per call (the figures: decision 177 and docs/benchmarks.md).
 *
 * V8 reads this flag each time it sets the next limit, so setting it at start-up takes effect from
 * the first full collection after the modules have loaded (the one or two during loading keep V8's
 * own factor). An operator who chose otherwise on node's command line
 * (`node --heap-growing-percent=<n> dist/main.js`; 0 is V8's own) is left alone. NODE_OPTIONS
 * cannot carry this flag (node refuses it there).
 */
export const HEAP_GROWING_PERCENT = 50;

const FLAG = '--heap-growing-percent';

/** Applies HEAP_GROWING_PERCENT unless the flag was given; answers the flag applied, or null. */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): string | null {
  if (execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`))) return null;
  const flag = `${FLAG}=${HEAP_GROWING_PERCENT}`;
  setFlagsFromString(flag);
  return flag;
}
