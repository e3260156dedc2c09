import { useTranslation } from 'react-i18next';
import { ANALYTICS_INTERVALS, type AnalyticsInterval } from '@domain/dashboard-api';
import { RANGE_PRESETS, presetRange, type DayRange, type RangePreset } from '../date-range';
import { isInterval, type RangeUpdate } from '../use-analytics-range';

/** The range form: the presets, both ends of the range and the interval. */
export function AnalyticsControls({
  range,
  interval,
  preset,
  update,
}: {
  range: DayRange;
  interval: AnalyticsInterval;
  preset: RangePreset | null;
  update: (next: RangeUpdate) => void;
}) {
  const { t } = useTranslation('insights');
  return (
    <form
      className="analytics-controls card"
      onSubmit={(e) => e.preventDefault()}
      aria-label={t('analytics.range.label')}
    >
      <fieldset className="analytics-presets" aria-label={t('analytics.range.presets')}>
        {RANGE_PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            className="btn btn-ghost btn-sm analytics-preset"
            aria-pressed={preset === days}
            onClick={() => update(presetRange(days, Date.now()))}
            data-testid={`analytics-preset-${days}`}
          >
            {t(`analytics.range.last${days}`)}
          </button>
        ))}
      </fieldset>
      <DateField
        label={t('analytics.range.from')}
        value={range.from}
        max={range.to}
        onPick={(from) => update({ from })}
        testId="analytics-from"
      />
      <DateField
        label={t('analytics.range.to')}
        value={range.to}
        min={range.from}
        onPick={(to) => update({ to })}
        testId="analytics-to"
      />
      <label className="analytics-field">
        <span>{t('analytics.interval.label')}</span>
        <select
          value={interval}
          onChange={(e) => isInterval(e.target.value) && update({ interval: e.target.value })}
          data-testid="analytics-interval"
        >
          {ANALYTICS_INTERVALS.map((value) => (
            <option key={value} value={value}>
              {t(`analytics.interval.${value}`)}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

/** One end of the date range; a cleared field changes nothing. */
function DateField({
  label,
  value,
  min,
  max,
  onPick,
  testId,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onPick: (day: string) => void;
  testId: string;
}) {
  return (
    <label className="analytics-field">
      <span>{label}</span>
      <input
        type="date"
        value={value}
        min={min}
        max={max}
        onChange={(e) => e.target.value && onPick(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}
