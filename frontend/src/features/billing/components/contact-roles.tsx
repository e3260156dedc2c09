import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '@domain/plans';
import { usePlanName } from '@/lib/use-plan-name';
import { fetchBillingConfig } from '../billing-api';
import { contactRolesOf } from '../price-choice';

/** The plans offered as 'Contact us': GET /billing/config's list once it answers, the plan table's until then. */
export function useContactRoles(): readonly Role[] {
  const [roles, setRoles] = useState<readonly Role[]>(() => contactRolesOf(null));
  useEffect(() => {
    let live = true;
    fetchBillingConfig()
      .then((config) => live && setRoles(contactRolesOf(config)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return roles;
}

/** Plans the spec prices as 'not shown' (businessplus and above): no trial, a mail to support. */
export function ContactRoles({ roles, email }: { readonly roles: readonly Role[]; readonly email: string }) {
  const { t } = useTranslation('billing');
  const planName = usePlanName();
  if (roles.length === 0) return null;
  const plans = roles.map(planName).join(', ');
  return (
    <aside className="callout bl-contact-roles" aria-labelledby="bl-contact-roles" data-testid="pricing-contact">
      <h2 id="bl-contact-roles">{t('offer.contactTitle')}</h2>
      <p>{t('offer.contactBody', { plans })}</p>
      <a
        href={`mailto:${email}?subject=${encodeURIComponent(t('offer.contactSubject', { plan: plans }))}`}
        className="btn btn-primary"
        data-testid="pricing-contact-us"
      >
        {t('offer.contactUs')}
      </a>
    </aside>
  );
}
