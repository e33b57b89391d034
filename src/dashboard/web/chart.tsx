import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only what the dashboard draws: bars and lines on category/linear axes (the rest is tree-shaken).
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#444';
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;

/** Colours that read apart (and against white) for each outcome. */
export const COLOURS = {
  completed: '#1a7f37',
  voicemail: '#8250df',
  no_answer: '#bf8700',
  busy: '#d1742f',
  failed: '#cf222e',
  open: '#6e7781',
  line: '#0969da',
  skipped: '#6e7781',
} as const;

export interface Series {
  label: string;
  values: (number | null)[];
  colour: string;
  /** Shown in the figures' table: e.g. money or a percentage. */
  format?: (value: number | null) => string;
}

/**
 * A Chart.js chart with its text alternative: the canvas is an image named by `summary`, and the same
 * figures are in a table under a "Figures" disclosure (keyboard and screen readers reach it).
 */
export function ChartFigure({
  id,
  title,
  summary,
  labels,
  series,
  type,
  stacked = false,
  yFormat,
  yMax,
  category = 'Day',
}: {
  /** The heading of the table's first column (what a label is). */
  category?: string;
  id: string;
  title: string;
  summary: string;
  labels: string[];
  series: Series[];
  type: 'bar' | 'line';
  stacked?: boolean;
  yFormat?: (value: number) => string;
  yMax?: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const config: ChartConfiguration<'bar' | 'line'> = {
      type,
      data: {
        labels,
        datasets: series.map((s) => ({
          label: s.label,
          data: s.values,
          backgroundColor: s.colour,
          borderColor: s.colour,
          pointRadius: 3,
          maxBarThickness: 48,
          spanGaps: true,
        })),
      },
      options: {
        responsive: true,
        plugins: {
          legend: { display: series.length > 1, position: 'bottom', labels: { boxWidth: 12 } },
          tooltip: {
            callbacks: yFormat ? { label: (item) => `${item.dataset.label ?? ''}: ${yFormat(Number(item.raw))}` } : {},
          },
        },
        scales: {
          x: { stacked, grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
          y: {
            stacked,
            beginAtZero: true,
            ...(yMax !== undefined ? { max: yMax } : {}),
            ticks: { precision: 0, ...(yFormat ? { callback: (v) => yFormat(Number(v)) } : {}) },
          },
        },
      },
    };
    if (chart.current) {
      chart.current.data = config.data;
      chart.current.update();
    } else chart.current = new Chart(canvas.current, config);
  }, [JSON.stringify(labels), JSON.stringify(series.map((s) => s.values))]);
  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );
  return (
    <figure class="chart" aria-labelledby={`${id}-title`} data-testid={`chart-${id}`}>
      <figcaption id={`${id}-title`}>
        <h2>{title}</h2>
        <p class="muted small" data-testid={`chart-${id}-summary`}>
          {summary}
        </p>
      </figcaption>
      <div class="chart-canvas">
        <canvas ref={canvas} role="img" aria-label={`${title}. ${summary}`} />
      </div>
      <details class="figures">
        <summary>Figures</summary>
        <div class="table-wrap" role="region" aria-label={`${title}: figures`} tabIndex={0}>
          <table>
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{category}</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((l, i) => (
                <tr key={l}>
                  <th scope="row">{l}</th>
                  {series.map((s) => (
                    <td key={s.label} data-label={s.label}>
                      {(s.format ?? ((v) => (v === null ? '—' : String(v))))(s.values[i] ?? null)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
