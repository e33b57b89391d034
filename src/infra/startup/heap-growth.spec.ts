import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HEAP_GROWING_PERCENT } from './heap-growth';

/**
 * The bound takes effect in a real V8: a child node (the built module, `npm run build`) grows a live
 * heap through a few full collections with --trace-gc-verbose, which prints the factor of each new
 * old-generation limit (`Limit: old size: … new limit: … (f)`).
 */
const BUILT = join(__dirname, '..', '..', '..', 'dist', 'infra', 'startup', 'heap-growth.js');

function limitFactors(nodeArgs: string[], bound: boolean): { factors: number[]; applied: string } {
  const script = `
    const applied = ${bound} ? require(${JSON.stringify(BUILT)}).boundHeapGrowth() : 'not called';
    const live = [];
    for (let round = 0; round < 3; round++) { for (let i = 0; i < 200000; i++) live.push({ i }); gc(); }
    console.log('APPLIED ' + applied);`;
  const run = spawnSync(process.execPath, [...nodeArgs, '--expose-gc', '--trace-gc-verbose', '-e', script], {
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  const factors = [
    ...run.stdout.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g),
  ].map((m) => Number(m[1]));
  const applied = /APPLIED (.*)/.exec(run.stdout)?.[1] ?? '';
  return { factors, applied };
}

describe('boundHeapGrowth', () => {
  beforeAll(() => {
    if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run npm run build first`);
  });

  it("sets each old-generation limit to the live heap's size times 1.5, where V8 alone sets 4", () => {
    const unbounded = limitFactors([], false);
    expect(unbounded.factors.length).toBeGreaterThanOrEqual(3);
    // On this 64-bit machine's heap limit V8 grows by its high factor: the bound is what changes it.
    expect(Math.max(...unbounded.factors)).toBeGreaterThan(1 + HEAP_GROWING_PERCENT / 100);

    const bounded = limitFactors([], true);
    expect(bounded.applied).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(bounded.factors.length).toBeGreaterThanOrEqual(3);
    expect(new Set(bounded.factors)).toEqual(new Set([1 + HEAP_GROWING_PERCENT / 100]));
  });

  it("leaves an operator's own --heap-growing-percent alone", () => {
    const chosen = limitFactors(['--heap-growing-percent=20'], true);
    expect(chosen.applied).toBe('null');
    expect(new Set(chosen.factors)).toEqual(new Set([1.2]));
  });
});
