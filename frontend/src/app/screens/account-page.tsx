import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
// tab 1 (plan upgrade); its catalogue (`billing`) comes with this route (app/dash-routes.tsx)
import { PlanUpgrade } from '@/features/billing/components/plan-upgrade';
import { AccountOverview } from './account-overview';

/** The account's tabs (spec §2: account, parameter tab; tab 1 is plan upgrade). */
const TABS = ['account', 'plan'] as const;

export function accountTab(raw: string | null): 0 | 1 {
  return raw === '1' ? 1 : 0;
}

/**
 * Account (spec §2 /dash/account): tab 0 the plan and its limits, usage, storage and profile;
 * tab 1 the plan upgrade.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = accountTab(params.get('tab'));
  usePageTitle(t('dashboard.account.title'));
  if (!user) return <PageLoading />;
  // Team members' plan is their admin's: no plan tab for them.
  const tabs = user.isTeamMember ? TABS.slice(0, 1) : TABS;
  const shown = user.isTeamMember ? 0 : tab;

  const select = (index: number) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (index === 0) {
          next.delete('tab');
          next.delete('plan');
          next.delete('period');
        } else next.set('tab', String(index));
        return next;
      },
      { preventScrollReset: true },
    );

  return (
    <div className="container dash-page">
      <h1>{t('dashboard.account.title')}</h1>
      {tabs.length > 1 && (
        <div className="bl-tabs" role="tablist" aria-label={t('dashboard.account.title')}>
          {tabs.map((name, index) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`account-tab-${index}`}
              aria-selected={shown === index}
              aria-controls={`account-panel-${index}`}
              tabIndex={shown === index ? 0 : -1}
              className="bl-tab"
              onClick={() => select(index)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                  const next = (index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length;
                  select(next);
                  document.getElementById(`account-tab-${next}`)?.focus();
                }
              }}
              data-testid={`account-tab-${index}`}
            >
              {tBilling(`accountTabs.${name}`)}
            </button>
          ))}
        </div>
      )}
      {/* a tab panel only when there are tabs; a lone panel is plain content */}
      <div
        id={`account-panel-${shown}`}
        {...(tabs.length > 1 ? { role: 'tabpanel', 'aria-labelledby': `account-tab-${shown}` } : {})}
      >
        {shown === 1 ? <PlanUpgrade /> : <AccountOverview />}
      </div>
    </div>
  );
}
