import { useTranslation } from 'react-i18next';

/**
 * The "customer logos" strip, honestly: we name no customers. It lists the systems whose browsers
 * run SendBridge and the kinds of files people send with it, as plain text (no borrowed logos).
 */
const PLATFORMS = ['Windows', 'macOS', 'Linux', 'ChromeOS', 'iOS', 'iPadOS', 'Android'] as const;
const FORMATS = ['PDF', 'DOCX', 'XLSX', 'PPTX', 'PSD', 'AI', 'DWG', 'MP4', 'MOV', 'WAV', 'RAW', 'ZIP'] as const;

export function LogoStrip() {
  const { t } = useTranslation('marketing');
  return (
    <section className="logo-strip" aria-labelledby="logo-strip-title">
      <h2 id="logo-strip-title" className="logo-strip-title">
        {t('strip.title')}
      </h2>
      <div className="logo-strip-row">
        <span className="logo-strip-label" id="logo-strip-platforms">
          {t('strip.platforms')}
        </span>
        <ul aria-labelledby="logo-strip-platforms">
          {PLATFORMS.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </div>
      <div className="logo-strip-row">
        <span className="logo-strip-label" id="logo-strip-formats">
          {t('strip.formats')}
        </span>
        <ul aria-labelledby="logo-strip-formats">
          {FORMATS.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </div>
      <p className="logo-strip-note">{t('strip.formatsNote')}</p>
    </section>
  );
}
