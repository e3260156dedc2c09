import { useTranslation } from 'react-i18next';
import type { EventType } from '@domain/webhooks-api';
import { SUBSCRIBABLE_EVENTS, eventTextKey } from '@/shared/webhooks/delivery-format';

/** One checkbox per event type. */
export function EventChecks({
  value,
  onChange,
  idPrefix,
  legend,
}: {
  value: readonly EventType[];
  onChange: (events: EventType[]) => void;
  idPrefix: string;
  legend: string;
}) {
  const { t } = useTranslation('webhooks');
  return (
    <fieldset className="webhooks-events">
      <legend className="dash-label">{legend}</legend>
      {SUBSCRIBABLE_EVENTS.map((type) => (
        <div className="webhooks-check" key={type}>
          <input
            id={`${idPrefix}-${type}`}
            type="checkbox"
            checked={value.includes(type)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...value, type] : value.filter((v) => v !== type))}
            data-testid={`webhook-event-${type}`}
          />
          <label htmlFor={`${idPrefix}-${type}`}>
            <code>{type}</code> <span className="muted">{t(`webhooks.events.${eventTextKey(type)}`)}</span>
          </label>
        </div>
      ))}
    </fieldset>
  );
}
