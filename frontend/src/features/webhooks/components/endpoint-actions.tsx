import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookEndpointView } from '@domain/webhooks-api';

export interface EndpointActionsProps {
  readonly endpoint: WebhookEndpointView;
  /** an action of the card is in flight */
  readonly busy: boolean;
  onEdit(): void;
  onToggle(): void;
  onTest(): void;
  onRotate(): void;
  /** Delete asks first (an inline confirmation); focus comes back to it. */
  onDelete(): void;
  readonly deleteRef: RefObject<HTMLButtonElement | null>;
  readonly logOpen: boolean;
  readonly logId: string;
  onToggleLog(): void;
}

/** An endpoint's row of actions: edit events, enable/disable, test, rotate, delete, the log. */
export function EndpointActions(props: EndpointActionsProps) {
  const { endpoint, busy } = props;
  const { t } = useTranslation('webhooks');
  return (
    <div className="webhooks-actions">
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={busy}
        onClick={props.onEdit}
        data-testid="webhook-edit-events"
      >
        {t('webhooks.actions.editEvents')}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={busy}
        onClick={props.onToggle}
        data-testid="webhook-toggle"
      >
        {endpoint.enabled ? t('webhooks.actions.disable') : t('webhooks.actions.enable')}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={busy || !endpoint.enabled}
        onClick={props.onTest}
        data-testid="webhook-test"
      >
        {t('webhooks.actions.test')}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={busy}
        onClick={props.onRotate}
        data-testid="webhook-rotate"
      >
        {t('webhooks.actions.rotate')}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        ref={props.deleteRef}
        disabled={busy}
        onClick={props.onDelete}
        data-testid="webhook-delete"
      >
        {t('webhooks.actions.delete')}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-expanded={props.logOpen}
        aria-controls={props.logId}
        onClick={props.onToggleLog}
        data-testid="webhook-log-toggle"
      >
        {props.logOpen ? t('webhooks.actions.hideLog') : t('webhooks.actions.showLog')}
      </button>
    </div>
  );
}
