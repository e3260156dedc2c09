import type { CSSProperties } from 'react';
import type { PublicBranding } from '@domain/branding-api';

/**
 * The sender's colours as CSS variables (buttons take the accent with the server's readable
 * text colour; links take it only when it reads on white) and the background.
 */
export function brandStyle(b: PublicBranding): CSSProperties {
  const vars: Record<string, string> = {};
  if (b.accentColor) {
    vars['--brand-accent'] = b.accentColor;
    vars['--brand-accent-text'] = b.accentTextColor ?? '#fff';
    if (b.accentTextColor === '#ffffff') vars['--brand'] = b.accentColor;
  }
  if (b.backgroundColor) vars.backgroundColor = b.backgroundColor;
  if (b.backgroundUrl) vars.backgroundImage = `url("${b.backgroundUrl}")`;
  return vars as CSSProperties;
}
