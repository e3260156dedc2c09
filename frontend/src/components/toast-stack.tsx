import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Toast } from '@/lib/use-toasts';
import { XIcon } from './send-icons';

/**
 * The send flow's notifications. The container is a polite live region that exists before any
 * toast does, so additions are announced; errors are alerts and interrupt.
 */
export function ToastStack({ toasts, onDismiss }: { toasts: readonly Toast[]; onDismiss(id: number): void }) {
  const { t } = useTranslation();
  return (
    <div
      className="qs-toasts"
      aria-live="polite"
      aria-relevant="additions"
      role="region"
      aria-label={t('send.toast.region')}
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`qs-toast qs-toast-${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
        >
          <div className="qs-toast-text">
            <p className="qs-toast-title">{toast.title}</p>
            {toast.body && <p className="qs-toast-body">{toast.body}</p>}
            {toast.action &&
              ('to' in toast.action ? (
                <Link className="qs-toast-action" to={toast.action.to}>
                  {toast.action.label}
                </Link>
              ) : (
                <a className="qs-toast-action" href={toast.action.href}>
                  {toast.action.label}
                </a>
              ))}
          </div>
          <button
            type="button"
            className="qs-icon-button"
            aria-label={t('send.toast.dismiss')}
            onClick={() => onDismiss(toast.id)}
          >
            <XIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
