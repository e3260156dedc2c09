import { useEffect, useId, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { OwnBranding } from '@domain/branding-api';
import { paths } from '@/app/paths';
import { fetchOwnBranding } from '@/shared/branding/branding-api';
import './branding-strip.css';

/** The TransferModal's preview of the branding its recipients see (the storage owner's); nothing when there is none. */
export function BrandingStrip() {
  const { t, ready } = useTranslation('branding', { useSuspense: false });
  const ids = useId();
  const [branding, setBranding] = useState<OwnBranding | null>(null);
  useEffect(() => {
    let live = true;
    fetchOwnBranding().then(
      (b) => live && setBranding(b),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (
    !ready ||
    !branding ||
    (!branding.logoUrl && !branding.accentColor && !branding.backgroundColor && !branding.backgroundUrl)
  )
    return null;
  const area: CSSProperties = {
    ...(branding.backgroundColor ? { backgroundColor: branding.backgroundColor } : {}),
    ...(branding.backgroundUrl ? { backgroundImage: `url("${branding.backgroundUrl}")` } : {}),
  };
  return (
    <section className="tr-section" aria-labelledby={`${ids}-brand`} data-testid="transfer-branding">
      <h3 id={`${ids}-brand`}>{t('modal.title')}</h3>
      <div className="branding-strip" style={area}>
        {branding.logoUrl && <img className="branding-strip-logo" src={branding.logoUrl} alt="" />}
        {branding.accentColor && (
          <span
            className="btn branding-strip-button"
            style={{
              background: branding.accentColor,
              color: branding.accentTextColor ?? '#fff',
              borderColor: branding.accentColor,
            }}
          >
            {t('customize.previewDownload')}
          </span>
        )}
      </div>
      {branding.editable && (
        <Link className="text-link" to={paths.accountCustomize()}>
          {t('modal.edit')}
        </Link>
      )}
    </section>
  );
}
