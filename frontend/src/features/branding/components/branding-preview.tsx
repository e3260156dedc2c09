import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeHexColour, readableTextOn } from '@domain/branding';
import type { CustomizeForm } from '../use-customize-form';

/** The download page as the recipients will see it with the form's logo, background and accent. */
export function BrandingPreview({ id, form }: { id: string; form: CustomizeForm }) {
  const { t } = useTranslation('branding');
  const { accent, accentOk, background, backgroundOk, backgroundSrc, logoSrc } = form;
  const accentColour = accentOk && accent ? normalizeHexColour(accent) : null;
  const previewStyle: CSSProperties = {
    ...(backgroundOk && background ? { backgroundColor: normalizeHexColour(background)! } : {}),
    ...(backgroundSrc ? { backgroundImage: `url("${backgroundSrc}")` } : {}),
  };
  const buttonStyle: CSSProperties = accentColour
    ? { background: accentColour, color: readableTextOn(accentColour), borderColor: accentColour }
    : {};

  return (
    <section className="card branding-preview-card" aria-labelledby={id}>
      <h2 id={id} className="dash-label">
        {t('customize.preview')}
      </h2>
      <div className="branding-preview" style={previewStyle} data-testid="branding-preview">
        <div className="branding-preview-card-inner">
          {logoSrc && (
            <img className="branding-preview-logo" src={logoSrc} alt="" data-testid="branding-preview-logo" />
          )}
          <p className="branding-preview-files">{t('customize.previewFiles')}</p>
          <span
            className="btn btn-primary branding-preview-button"
            style={buttonStyle}
            data-testid="branding-preview-button"
          >
            {t('customize.previewDownload')}
          </span>
        </div>
      </div>
    </section>
  );
}
