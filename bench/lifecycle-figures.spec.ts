import {
  alternationOrder,
  compareBuilds,
  kneeOf,
  lowerMedian,
  median,
  peakRssAt,
  ratio,
  RunFigures,
  StepFigures,
  xactsPerCallAt,
} from './lifecycle-figures';

const step = (phase: StepFigures['phase'], rate: number, pass: boolean, xacts: number, rss: number | null = null) => ({
  phase,
  rate_per_s: rate,
  pass,
  postgres: { xacts_per_call: xacts },
  service_rss_mb: { peak_sampled: rss },
});

describe('kneeOf', () => {
  it('is the last passing ladder rate before the first failure, the transactions phase aside', () => {
    const steps = [
      step('xacts', 5, false, 58),
      step('xacts', 20, true, 40),
      step('ladder', 20, true, 40),
      step('ladder', 50, true, 33),
      step('ladder', 75, false, 30),
      // Would not run (the ladder stops), and must not count if it had.
      step('ladder', 100, true, 28),
    ];
    expect(kneeOf(steps)).toBe(50);
  });

  it('is 0 when the first ladder step failed, or there is no ladder', () => {
    expect(kneeOf([step('ladder', 20, false, 40)])).toBe(0);
    expect(kneeOf([step('xacts', 5, true, 40)])).toBe(0);
  });
});

describe('figures at a rate', () => {
  const steps = [step('xacts', 20, true, 41), step('ladder', 20, true, 39, 200), step('ladder', 100, false, 30, 360)];

  it('takes transactions per call from the transactions phase first, then from the ladder', () => {
    expect(xactsPerCallAt(steps, 20)).toBe(41);
    expect(xactsPerCallAt(steps, 100)).toBe(30);
    expect(xactsPerCallAt(steps, 5)).toBeNull();
  });

  it('takes peak RSS from the ladder step at that rate, failed or not', () => {
    expect(peakRssAt(steps, 100)).toBe(360);
    expect(peakRssAt(steps, 50)).toBeNull();
  });
});

describe('alternationOrder', () => {
  it('starts with the previous build and swaps the pair every round', () => {
    expect(alternationOrder(3).map((r) => `${r.round}${r.build[0]}`)).toEqual(['1p', '1t', '2t', '2p', '3p', '3t']);
  });

  it('refuses fewer than one round or a fraction', () => {
    expect(() => alternationOrder(0)).toThrow(/rounds/);
    expect(() => alternationOrder(1.5)).toThrow(/rounds/);
  });
});

describe('median and ratio', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([75, 50, 100])).toBe(75);
    expect(median([75, 100])).toBe(87.5);
    expect(median([])).toBeNull();
  });

  it('takes for knees the lower of the two middle values, a rate the ladder measured', () => {
    expect(lowerMedian([100, 75, 125])).toBe(100);
    expect(lowerMedian([100, 0])).toBe(0);
    expect(lowerMedian([125, 100, 75, 150])).toBe(100);
    expect(lowerMedian([])).toBeNull();
  });

  it('answers null rather than dividing by zero or by a missing figure', () => {
    expect(ratio(100, 75)).toBe(1.33);
    expect(ratio(0, 75)).toBe(0);
    expect(ratio(100, 0)).toBeNull();
    expect(ratio(null, 75)).toBeNull();
  });
});

describe('compareBuilds', () => {
  const run = (idle: number, steps: StepFigures[]): RunFigures => ({ idle: { xacts_per_s: idle }, steps });
  const previous = [
    run(2.2, [
      step('xacts', 5, true, 58.6),
      step('xacts', 20, true, 40.4),
      step('ladder', 50, true, 33),
      step('ladder', 75, true, 31, 300),
      step('ladder', 100, false, 30, 360),
    ]),
  ];
  const today = [
    run(2.0, [
      step('xacts', 5, true, 35),
      step('xacts', 20, true, 30.3),
      step('ladder', 100, true, 25, 280),
      step('ladder', 125, false, 24, 310),
    ]),
    run(2.4, [step('xacts', 5, true, 37), step('xacts', 20, true, 32.3), step('ladder', 100, false, 26, 290)]),
  ];

  it("summarises each build by the median of its runs and divides today's by the previous", () => {
    const c = compareBuilds(previous, today, [5, 20], 100);
    expect(c.previous).toMatchObject({ knees: [75], knee: 75, idle_xacts_per_s: 2.2, peak_rss_mb: 360 });
    expect(c.previous.xacts_per_call).toEqual({ '5': 58.6, '20': 40.4 });
    expect(c.today).toMatchObject({ knees: [100, 0], knee: 0, idle_xacts_per_s: 2.2, peak_rss_mb: 285 });
    expect(c.today.xacts_per_call).toEqual({ '5': 36, '20': 31.3 });
    expect(c.ratios.knee).toBe(0);
    expect(c.ratios.xacts_per_call).toEqual({ '5': 0.61, '20': 0.77 });
  });

  it('leaves a ratio null where a build did not measure that rate', () => {
    const c = compareBuilds(previous, today, [5, 10], 150);
    expect(c.ratios.xacts_per_call).toEqual({ '5': 0.61, '10': null });
    expect(c.today.peak_rss_mb).toBeNull();
  });
});
