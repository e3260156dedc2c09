import { useTranslation } from 'react-i18next';
import type { CustomizeForm } from '../use-customize-form';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/** The logo: its thumbnail, upload and removal, and whether the navigation shows it. */
export function LogoFields({ form }: { form: CustomizeForm }) {
  const { t } = useTranslation('branding');
  return (
    <>
      <h2 className="dash-label">{t('customize.logo')}</h2>
      <div className="branding-image-row">
        {form.logoSrc ? (
          <img className="branding-logo-thumb" src={form.logoSrc} alt={t('customize.logo')} />
        ) : (
          <span className="muted">{t('customize.noLogo')}</span>
        )}
        <label className="btn btn-secondary branding-file">
          {t('customize.uploadLogo')}
          <input
            type="file"
            accept={IMAGE_TYPES}
            onChange={(e) => void form.pick('logo', e)}
            data-testid="branding-logo-input"
          />
        </label>
        {form.logoSrc && (
          <button type="button" className="btn btn-ghost" onClick={form.removeLogo}>
            {t('customize.remove')}
          </button>
        )}
      </div>
      <p className="dash-hint">{t('customize.logoHint')}</p>
      {form.imageError.logo && (
        <p className="form-error" role="alert">
          {form.imageError.logo}
        </p>
      )}
      <label className="settings-check">
        <input
          type="checkbox"
          checked={form.showLogoNav}
          onChange={(e) => form.setShowLogoNav(e.currentTarget.checked)}
          data-testid="branding-logo-nav"
        />
        {t('customize.showLogoNav')}
      </label>
    </>
  );
}

/** The download page's background image: upload and removal. */
export function BackgroundImageFields({ form }: { form: CustomizeForm }) {
  const { t } = useTranslation('branding');
  return (
    <>
      <h2 className="dash-label">{t('customize.background')}</h2>
      <p className="dash-hint">{t('customize.backgroundHint')}</p>
      <div className="branding-image-row">
        <label className="btn btn-secondary branding-file">
          {t('customize.uploadBackground')}
          <input
            type="file"
            accept={IMAGE_TYPES}
            onChange={(e) => void form.pick('background', e)}
            data-testid="branding-background-input"
          />
        </label>
        {form.backgroundSrc && (
          <button type="button" className="btn btn-ghost" onClick={form.removeBackground}>
            {t('customize.remove')}
          </button>
        )}
      </div>
      {form.imageError.background && (
        <p className="form-error" role="alert">
          {form.imageError.background}
        </p>
      )}
    </>
  );
}
