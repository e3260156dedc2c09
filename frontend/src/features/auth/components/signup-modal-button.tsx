import { useState, type ComponentType, type ReactNode } from 'react';
import { withNamespaces } from '@/i18n/with-namespaces';
import { importWithRetry } from '@/lib/import-with-retry';
import type { SignupModal } from './signup-modal';

/**
 * The home page's free sign-up button: opens the modal. The modal (its form, checks and
 * registration calls) loads on the first press, not with the home page.
 */
export function SignupModalButton({ className, children }: { className?: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [Modal, setModal] = useState<ComponentType<Parameters<typeof SignupModal>[0]> | null>(null);
  const press = () => {
    if (Modal) {
      setOpen(true);
      return;
    }
    // home's route loaded the `account` texts already; this keeps the modal whole wherever it is used
    withNamespaces(['account'], () => importWithRetry(() => import('./signup-modal')))().then(
      (module) => {
        setModal(() => module.SignupModal);
        setOpen(true);
      },
      () => undefined,
    );
  };
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={press}
        aria-haspopup="dialog"
        data-testid="signup-modal-open"
      >
        {children}
      </button>
      {Modal && <Modal open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
