import { useEffect, useId, useState, type ChangeEvent, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { normalizeHexColour, readableTextOn, type BrandImageKind } from '@domain/branding';
import type { BrandingUpdateInput, OwnBranding } from '@domain/branding-api';
import { PageLoading } from '@/components/page-loading';
import { putFile } from '@/shared/account/account-api';
import { fetchOwnBranding, requestBrandImageUpload, saveBranding } from '@/shared/branding/branding-api';
import { brandImageProblem } from '@/features/branding/image-check';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import '@/features/branding/branding.css';

/** A picked image: its upload key once stored, and a local preview URL meanwhile. */
interface Picked {
  readonly key: string;
  readonly preview: string;
}

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'saved' } | { kind: 'failed'; message: string };

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
  const { t: tApp } = useTranslation();
  const { reloadUser } = useSession();
  const ids = useId();
  const [accent, setAccent] = useState(initial.accentColor ?? '');
  const [background, setBackground] = useState(initial.backgroundColor ?? '');
  const [showLogoNav, setShowLogoNav] = useState(initial.showLogoNav);
  const [logo, setLogo] = useState<Picked | null | undefined>(undefined);
  const [backgroundImage, setBackgroundImage] = useState<Picked | null | undefined>(undefined);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [imageError, setImageError] = useState<Partial<Record<BrandImageKind, string>>>({});
  const readOnly = !initial.editable;

  const accentOk = accent === '' || normalizeHexColour(accent) !== null;
  const backgroundOk = background === '' || normalizeHexColour(background) !== null;
  const logoSrc = logo === undefined ? initial.logoUrl : (logo?.preview ?? null);
  const backgroundSrc = backgroundImage === undefined ? initial.backgroundUrl : (backgroundImage?.preview ?? null);

  async function pick(kind: BrandImageKind, event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const problem = brandImageProblem(kind, file);
    if (problem) {
      setImageError((e) => ({ ...e, [kind]: t(problem === 'type' ? 'customize.imageType' : 'customize.imageSize') }));
      return;
    }
    setImageError((e) => ({ ...e, [kind]: undefined }));
    setStatus({ kind: 'busy' });
    try {
      const target = await requestBrandImageUpload({ kind, contentType: file.type, size: file.size });
      await putFile(target.url, target.headers, file);
      const picked = { key: target.key, preview: URL.createObjectURL(file) };
      if (kind === 'logo') setLogo(picked);
      else setBackgroundImage(picked);
      setStatus({ kind: 'idle' });
    } catch (err) {
      const text = errorTextOf(err);
      setStatus({ kind: 'failed', message: tApp(text.key, text.params) });
    }
  }

  async function save() {
    if (!accentOk || !backgroundOk || readOnly) return;
    const body: BrandingUpdateInput = {
      accentColor: accent,
      backgroundColor: background,
      showLogoNav,
      ...(logo !== undefined ? { logoKey: logo?.key ?? '' } : {}),
      ...(backgroundImage !== undefined ? { backgroundKey: backgroundImage?.key ?? '' } : {}),
    };
    setStatus({ kind: 'busy' });
    try {
      const saved = await saveBranding(body);
      onSaved(saved);
      setLogo(undefined);
      setBackgroundImage(undefined);
      setStatus({ kind: 'saved' });
      // The top navigation shows the logo from the session's user.
      await reloadUser().catch(() => undefined);
    } catch (err) {
      const text = errorTextOf(err);
      setStatus({ kind: 'failed', message: tApp(text.key, text.params) });
    }
  }

  const accentColour = accentOk && accent ? normalizeHexColour(accent) : null;
  const previewStyle: CSSProperties = {
    ...(backgroundOk && background ? { backgroundColor: normalizeHexColour(background)! } : {}),
    ...(backgroundSrc ? { backgroundImage: `url("${backgroundSrc}")` } : {}),
  };
  const buttonStyle: CSSProperties = accentColour
    ? { background: accentColour, color: readableTextOn(accentColour), borderColor: accentColour }
    : {};

  return (
    <div className="container dash-page branding-page">
      <h1>{t('customize.title')}</h1>
      <p className="lead muted">
        {t('customize.lead')}{' '}
        <Link className="text-link" to={paths.accountPoweredBy()} data-testid="branding-powered-by-link">
          {t('poweredBy.title')}
        </Link>
      </p>
      {readOnly && (
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
            void save();
          }}
        >
          <fieldset disabled={readOnly} className="branding-fieldset">
            <h2 className="dash-label">{t('customize.logo')}</h2>
            <div className="branding-image-row">
              {logoSrc ? (
                <img className="branding-logo-thumb" src={logoSrc} alt={t('customize.logo')} />
              ) : (
                <span className="muted">{t('customize.noLogo')}</span>
              )}
              <label className="btn btn-secondary branding-file">
                {t('customize.uploadLogo')}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  onChange={(e) => void pick('logo', e)}
                  data-testid="branding-logo-input"
                />
              </label>
              {logoSrc && (
                <button type="button" className="btn btn-ghost" onClick={() => setLogo(null)}>
                  {t('customize.remove')}
                </button>
              )}
            </div>
            <p className="dash-hint">{t('customize.logoHint')}</p>
            {imageError.logo && (
              <p className="form-error" role="alert">
                {imageError.logo}
              </p>
            )}
            <label className="settings-check">
              <input
                type="checkbox"
                checked={showLogoNav}
                onChange={(e) => setShowLogoNav(e.currentTarget.checked)}
                data-testid="branding-logo-nav"
              />
              {t('customize.showLogoNav')}
            </label>

            <h2 className="dash-label">{t('customize.background')}</h2>
            <p className="dash-hint">{t('customize.backgroundHint')}</p>
            <div className="branding-image-row">
              <label className="btn btn-secondary branding-file">
                {t('customize.uploadBackground')}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  onChange={(e) => void pick('background', e)}
                  data-testid="branding-background-input"
                />
              </label>
              {backgroundSrc && (
                <button type="button" className="btn btn-ghost" onClick={() => setBackgroundImage(null)}>
                  {t('customize.remove')}
                </button>
              )}
            </div>
            {imageError.background && (
              <p className="form-error" role="alert">
                {imageError.background}
              </p>
            )}
            <ColourField
              id={`${ids}-bg`}
              label={t('customize.backgroundColor')}
              value={background}
              ok={backgroundOk}
              onChange={setBackground}
              testId="branding-background-color"
            />
            <ColourField
              id={`${ids}-accent`}
              label={t('customize.accentColor')}
              hint={t('customize.accentHint')}
              value={accent}
              ok={accentOk}
              onChange={setAccent}
              testId="branding-accent-color"
            />
            <div className="branding-actions">
              <button
                type="submit"
                className="btn btn-primary"
                disabled={status.kind === 'busy' || !accentOk || !backgroundOk}
                data-testid="branding-save"
              >
                {status.kind === 'busy' ? t('customize.saving') : t('customize.save')}
              </button>
              <span role="status" className="muted">
                {status.kind === 'saved' ? t('customize.saved') : ''}
              </span>
            </div>
            {status.kind === 'failed' && (
              <p className="form-error" role="alert" data-testid="branding-error">
                {status.message}
              </p>
            )}
          </fieldset>
        </form>

        <section className="card branding-preview-card" aria-labelledby={`${ids}-preview`}>
          <h2 id={`${ids}-preview`} className="dash-label">
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
      </div>
    </div>
  );
}

function ColourField(props: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  ok: boolean;
  onChange(v: string): void;
  testId: string;
}) {
  const { t } = useTranslation('branding');
  const normalized = props.ok && props.value ? normalizeHexColour(props.value)! : '#ffffff';
  return (
    <div className="branding-colour">
      <label className="dash-label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint && <p className="dash-hint">{props.hint}</p>}
      <div className="branding-colour-row">
        <input
          type="color"
          value={normalized}
          aria-label={props.label}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
        <input
          id={props.id}
          className="dash-input"
          type="text"
          inputMode="text"
          spellCheck={false}
          placeholder="#1d4ed8"
          maxLength={7}
          value={props.value}
          aria-invalid={!props.ok || undefined}
          aria-describedby={!props.ok ? `${props.id}-err` : undefined}
          onChange={(e) => props.onChange(e.currentTarget.value.trim())}
          data-testid={props.testId}
        />
      </div>
      {!props.ok && (
        <p id={`${props.id}-err`} className="form-error">
          {t('customize.colourInvalid')}
        </p>
      )}
    </div>
  );
}
