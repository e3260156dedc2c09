import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import type { OwnBranding } from '@domain/branding-api';
import { PageLoading } from '@/components/page-loading';
import { fetchOwnBranding } from '@/shared/branding/branding-api';
import { errorTextOf } from '@/i18n/error-keys';
import { usePageTitle } from '@/lib/use-page-title';
import { useCustomizeForm } from '../use-customize-form';
import { BackgroundImageFields, LogoFields } from './brand-image-fields';
import { BrandingPreview } from './branding-preview';
import { ColourField } from './colour-field';
import '@/features/branding/branding.css';

/** /dash/account/customize (spec §2): logo, logo in the navigation, download-page background and accent colour, previewed live. */
export function CustomizePage() {
  const { t } = useTranslation('branding');
  usePageTitle(t('customize.title'));
  const [branding, setBranding] = useState<OwnBranding | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { t: tApp } = useTranslation();
  useEffect(() => {
    fetchOwnBranding().then(setBranding, (err: unknown) => {
      const text = errorTextOf(err);
      setLoadError(tApp(text.key, text.params));
    });
  }, [tApp]);
  if (loadError)
    return (
      <p className="container dash-page form-error" role="alert">
        {loadError}
      </p>
    );
  if (!branding) return <PageLoading />;
  return <CustomizeForm initial={branding} onSaved={setBranding} />;
}

function CustomizeForm({ initial, onSaved }: { initial: OwnBranding; onSaved(b: OwnBranding): void }) {
  const { t } = useTranslation('branding');
  const ids = useId();
  const form = useCustomizeForm(initial, onSaved);
  const { action } = form;

  return (
    <div className="container dash-page branding-page">
      <h1>{t('customize.title')}</h1>
      <p className="lead muted">
        {t('customize.lead')}{' '}
        <Link className="text-link" to={paths.accountPoweredBy()} data-testid="branding-powered-by-link">
          {t('poweredBy.title')}
        </Link>
      </p>
      {form.readOnly && (
        <p className="branding-note" data-testid="branding-member-note">
          {t('customize.memberNote')}
        </p>
      )}
      <div className="branding-grid">
        <form
          className="card branding-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void form.save();
          }}
        >
          <fieldset disabled={form.readOnly} className="branding-fieldset">
            <LogoFields form={form} />
            <BackgroundImageFields form={form} />
            <ColourField
              id={`${ids}-bg`}
              label={t('customize.backgroundColor')}
              value={form.background}
              ok={form.backgroundOk}
              onChange={form.setBackground}
              testId="branding-background-color"
            />
            <ColourField
              id={`${ids}-accent`}
              label={t('customize.accentColor')}
              hint={t('customize.accentHint')}
              value={form.accent}
              ok={form.accentOk}
              onChange={form.setAccent}
              testId="branding-accent-color"
            />
            <div className="branding-actions">
              <button
                type="submit"
                className="btn btn-primary"
                disabled={action.busy || !form.accentOk || !form.backgroundOk}
                data-testid="branding-save"
              >
                {action.busy ? t('customize.saving') : t('customize.save')}
              </button>
              <span role="status" className="muted">
                {form.saved ? t('customize.saved') : ''}
              </span>
            </div>
            {action.error && (
              <p className="form-error" role="alert" data-testid="branding-error">
                {action.error}
              </p>
            )}
          </fieldset>
        </form>

        <BrandingPreview id={`${ids}-preview`} form={form} />
      </div>
    </div>
  );
}
