import { useTranslation } from 'react-i18next';
import type { RegionId } from '@domain/regions';
import type { RegionView } from '@domain/settings-api';
import { signalBars } from '@domain/signal';
import { SignalBars } from './signal-bars';

/** An offered region: its name, its speed from here, and the button that makes it the default. */
export function RegionRow({
  region,
  name,
  ms,
  speedText,
  isCurrent,
  mayChoose,
  busy,
  saving,
  planNoteId,
  onChoose,
}: {
  region: RegionView;
  name: string;
  ms: number | undefined;
  speedText: string;
  isCurrent: boolean;
  mayChoose: boolean;
  busy: boolean;
  saving: boolean;
  planNoteId: string;
  onChoose: (region: RegionId) => void;
}) {
  const { t } = useTranslation('settings');
  const bars = ms === undefined ? null : signalBars(ms);
  return (
    <li className={`region-row${isCurrent ? ' region-row-current' : ''}`} data-testid={`region-row-${region.regionId}`}>
      <div className="region-name">
        <span>{name}</span>
        {isCurrent && (
          <span className="badge badge-brand" data-testid="region-current">
            {t('residency.current')}
          </span>
        )}
      </div>
      <div className="region-speed">
        <span
          className="region-ms"
          data-testid={`region-ms-${region.regionId}`}
          data-ms={ms === undefined || !Number.isFinite(ms) ? '' : String(Math.round(ms))}
        >
          {speedText}
        </span>
        <SignalBars
          bars={bars}
          label={bars === null ? '' : t('residency.bars', { bars })}
          testId={`region-bars-${region.regionId}`}
        />
      </div>
      <div className="region-action">
        {!region.available ? (
          <span className="muted">{t('residency.notAvailable')}</span>
        ) : isCurrent ? null : (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={!mayChoose || busy}
            aria-describedby={!mayChoose ? planNoteId : undefined}
            onClick={() => onChoose(region.regionId)}
            data-testid={`region-choose-${region.regionId}`}
          >
            {saving ? t('residency.saving') : t('residency.choose', { region: name })}
          </button>
        )}
      </div>
    </li>
  );
}
