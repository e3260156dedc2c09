import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { InferableField, PlanLimits } from '../../../../../functions/domain/plans';
import { formatBytes, formatCount, formatPrice } from '@/lib/format';
import { LISTED_ROLES, plan, type ListedRole } from '@/lib/plans';

/**
 * Every listed plan with every limit; values the domain marks as inferred carry an asterisk.
 * `action`: each row's button (Free trial, Try free or Contact us) under `actionHeader`.
 */
export function PlanTable({
  yearly,
  selected,
  action,
  actionHeader,
}: {
  yearly: boolean;
  selected: string | null;
  action?: (role: ListedRole) => ReactNode;
  actionHeader?: string;
}) {
  const { t, i18n } = useTranslation();
  // the storage-region column's header is in the lazy `settings` catalogue, fetched on
  // first use (not waited for by the route, so the entry chunk stays as it was)
  const { t: tSettings, ready: settingsReady } = useTranslation('settings', { useSuspense: false });
  const lng = i18n.resolvedLanguage ?? 'en';
  const none = t('pricing.table.none');

  const mark = (limits: PlanLimits, field: InferableField, text: string) =>
    limits.inferred.includes(field) && text !== none ? (
      <>
        {text}
        <sup>*</sup>
      </>
    ) : (
      text
    );

  const priceText = (limits: PlanLimits) => {
    if (!limits.price) return limits.role === 'anon' ? none : t('pricing.contact');
    if (limits.price.monthly === 0) return formatPrice(0, lng);
    return yearly
      ? `${formatPrice(limits.price.yearly, lng)}${t('pricing.perYear')}`
      : `${formatPrice(limits.price.monthly, lng)}${t('pricing.perMonth')}`;
  };

  return (
    <div className="table-wrap plan-table-wrap">
      <table className="data-table plan-table">
        <caption>{t('pricing.table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('pricing.table.plan')}</th>
            <th scope="col">{t('pricing.table.price')}</th>
            <th scope="col">{t('pricing.table.upload')}</th>
            <th scope="col">{t('pricing.table.storage')}</th>
            <th scope="col">{t('pricing.table.recipients')}</th>
            <th scope="col">{t('pricing.table.files')}</th>
            <th scope="col">{t('pricing.table.team')}</th>
            <th scope="col">{t('pricing.table.emailDomain')}</th>
            <th scope="col" data-testid="plan-region-choice-header">
              {settingsReady ? tSettings('planTable.regionChoice') : null}
            </th>
            <th scope="col">{t('pricing.table.transfers')}</th>
            {action && (
              <th scope="col">
                <span className="sr-only">{actionHeader}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {LISTED_ROLES.map((role) => {
            const limits = plan(role);
            return (
              <tr key={role} className={selected === role ? 'row-selected' : undefined}>
                <th scope="row">{t(`plans.${role}`)}</th>
                <td>{mark(limits, 'price', priceText(limits))}</td>
                <td>{mark(limits, 'uploadLimit', formatBytes(limits.uploadLimit, lng))}</td>
                <td>{mark(limits, 'storage', formatBytes(limits.storage, lng))}</td>
                <td>{mark(limits, 'emailTo', formatCount(limits.emailTo, lng))}</td>
                <td>{mark(limits, 'files', formatCount(limits.files, lng))}</td>
                <td>{mark(limits, 'teamLimit', limits.teamLimit > 0 ? formatCount(limits.teamLimit, lng) : none)}</td>
                <td>{limits.emailDomain ? t('pricing.table.yes') : none}</td>
                <td data-testid={`plan-region-choice-${role}`}>
                  {limits.regionChoice ? t('pricing.table.yes') : none}
                </td>
                <td>
                  {mark(
                    limits,
                    'monthlyTransfers',
                    limits.monthlyTransfers === null
                      ? t('pricing.table.unlimited')
                      : t('pricing.table.perMonth', { count: limits.monthlyTransfers }),
                  )}
                </td>
                {action && <td>{action(role)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="table-note">{t('pricing.table.provisional')}</p>
    </div>
  );
}
