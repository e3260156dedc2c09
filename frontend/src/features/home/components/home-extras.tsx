import { useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/i18n/i18n';
import {
  EXAMPLE_ACTIVITY,
  EXAMPLE_TOAST_GAP_MS,
  EXAMPLE_TOAST_VISIBLE_MS,
  EXAMPLE_TOASTS_HIDDEN_KEY,
  showExampleToasts,
  toastAt,
} from '@/features/home/example-toasts';
import { countryName } from '@/lib/country-name';
import { formatBytes } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import '@/features/home/home-extras.css';

/**
 * The home page's parts that no first load carries (spec §2 "customer logos" and the
 * marketing notification toasts). home-page.tsx loads this chunk and its `marketing` catalogue
 * once the page has loaded and the browser is idle; the strip fills a slot whose height the
 * stylesheet already reserves, and the toasts are fixed to a corner, so neither moves anything.
 */
export interface HomeExtras {
  readonly LogoStrip: ComponentType;
  readonly ExampleToasts: ComponentType;
}

export async function loadHomeExtras(): Promise<HomeExtras> {
  await i18n.loadNamespaces(['marketing']);
  return { LogoStrip, ExampleToasts };
}

/**
 * The "customer logos" strip, honestly: we name no customers. It lists the systems whose browsers
 * run SendBridge and the kinds of files people send with it, as plain text (no borrowed logos).
 */
const PLATFORMS = ['Windows', 'macOS', 'Linux', 'ChromeOS', 'iOS', 'iPadOS', 'Android'] as const;
const FORMATS = ['PDF', 'DOCX', 'XLSX', 'PPTX', 'PSD', 'AI', 'DWG', 'MP4', 'MOV', 'WAV', 'RAW', 'ZIP'] as const;

function LogoStrip() {
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

function readHidden(): boolean {
  try {
    return sessionStorage.getItem(EXAMPLE_TOASTS_HIDDEN_KEY) === 'hidden';
  } catch {
    return false;
  }
}

function usePrefersReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = () => setReduced(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/**
 * The example toasts: each shown 5.8 s, the next 2 s after (example-toasts.ts). Marked
 * "Example"; never for a signed-in user nor under prefers-reduced-motion; hidden for the visit
 * by its close button. Not a live region (made-up activity is not worth announcing) and never
 * focused: a visitor's focus stays where it is.
 */
function ExampleToasts() {
  const {
    t,
    i18n: { resolvedLanguage },
  } = useTranslation('marketing');
  const lng = resolvedLanguage ?? 'en';
  const { status } = useSession();
  const reducedMotion = usePrefersReducedMotion();
  const [hidden, setHidden] = useState(readHidden);
  const [index, setIndex] = useState<number | null>(null);
  const on = showExampleToasts({ reducedMotion, signedIn: status === 'authenticated', hidden });

  useEffect(() => {
    if (!on) {
      setIndex(null);
      return;
    }
    const started = performance.now();
    const period = EXAMPLE_TOAST_GAP_MS + EXAMPLE_TOAST_VISIBLE_MS;
    let timer = 0;
    const tick = () => {
      const elapsed = performance.now() - started;
      setIndex(toastAt(elapsed));
      const within = elapsed % period;
      // wake at the next edge: the end of the gap or of the toast
      timer = window.setTimeout(tick, (within < EXAMPLE_TOAST_GAP_MS ? EXAMPLE_TOAST_GAP_MS : period) - within + 1);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [on]);

  if (!on || index === null) return null;
  const activity = EXAMPLE_ACTIVITY[index]!;
  const unknown = '?';
  const text = t(`toasts.${activity.kind}`, {
    size: formatBytes(activity.bytes, lng),
    from: countryName(activity.from, lng, unknown),
    to: countryName(activity.to, lng, unknown),
  });
  const hide = () => {
    try {
      sessionStorage.setItem(EXAMPLE_TOASTS_HIDDEN_KEY, 'hidden');
    } catch {
      // private mode: hidden for this page only
    }
    setHidden(true);
  };
  return (
    <aside className="example-toast" aria-label={t('toasts.label')} data-example-toast={index}>
      <span className="example-toast-badge">{t('toasts.example')}</span>
      <p className="example-toast-text">{text}</p>
      <button
        type="button"
        className="example-toast-close"
        aria-label={t('toasts.dismiss')}
        title={t('toasts.dismiss')}
        onClick={hide}
      >
        <span aria-hidden="true">×</span>
      </button>
    </aside>
  );
}
