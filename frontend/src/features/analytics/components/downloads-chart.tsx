import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { toChartData, type SeriesPoint } from '../series';

const HEIGHT = 260;
/** x splits fall on whole buckets only */
const WHOLE_STEPS = [1, 2, 3, 5, 7, 10, 14, 20, 30, 50, 100, 200, 500];
const COUNT_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000,
];

function cssColor(el: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/**
 * Downloads per bucket as bars (uPlot: docs/decisions/). The canvas is hidden from assistive
 * technology: the same numbers are in the table the screen shows beside it.
 */
/** The narrowest chart; its box is about 280 px on a 320 px phone, so the chart never widens the page there. */
const MIN_CHART_WIDTH = 200;

export function DownloadsChart({
  series,
  bucketName,
  bucketTick,
  bucketTitle,
  countName,
  seriesName,
}: {
  series: readonly SeriesPoint[];
  /** a bucket in full (the hover readout) */
  bucketName: (start: string) => string;
  /** a bucket on the axis, short */
  bucketTick: (start: string) => string;
  /** what a bucket is: Day, Week starting, Month */
  bucketTitle: string;
  countName: (count: number) => string;
  seriesName: string;
}) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const brand = cssColor(el, '--brand', '#1f4fd8');
    const ink = cssColor(el, '--muted', '#56657a');
    const grid = cssColor(el, '--line', '#e2e8f0');
    const nameAt = (i: number) => (Number.isInteger(i) && series[i] ? bucketName(series[i].start) : '');
    const tickAt = (i: number) => (Number.isInteger(i) && series[i] ? bucketTick(series[i].start) : '');
    const opts: uPlot.Options = {
      width: Math.max(MIN_CHART_WIDTH, el.clientWidth),
      height: HEIGHT,
      scales: {
        x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      series: [
        { label: bucketTitle, value: (_u, v) => (v === null ? '' : nameAt(v)) },
        {
          label: seriesName,
          stroke: brand,
          fill: `${brand}b3`,
          width: 0,
          paths: uPlot.paths.bars!({ size: [0.7, 48] }),
          points: { show: false },
          value: (_u, v) => (v === null ? '' : countName(v)),
        },
      ],
      axes: [
        {
          stroke: ink,
          grid: { show: false },
          ticks: { stroke: grid },
          incrs: WHOLE_STEPS,
          space: 64,
          values: (_u, splits) => splits.map(tickAt),
        },
        {
          stroke: ink,
          grid: { stroke: grid },
          ticks: { show: false },
          incrs: COUNT_STEPS,
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? countName(v) : '')),
        },
      ],
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      legend: { live: true },
    };
    const plot = new uPlot(opts, toChartData(series), el);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(MIN_CHART_WIDTH, el.clientWidth), height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, bucketName, bucketTick, bucketTitle, countName, seriesName]);

  return <div ref={ref} className="analytics-chart" aria-hidden="true" data-testid="analytics-chart" />;
}
