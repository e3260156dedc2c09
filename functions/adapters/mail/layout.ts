/**
 * The shared HTML shell and building blocks of product mail. Table-based with inline styles
 * because mail clients (Outlook's Word engine, Gmail's style stripping) ignore most CSS; no
 * images, so a mail reads the same with images blocked.
 *
 * Every block takes `Html`, a branded string that only `escapeHtml` and `trustedHtml` make,
 * so user text cannot reach the markup without passing through the escaper.
 */

export type Html = string & { readonly __brand: 'Html' };
/** An absolute http(s) URL, made only by `safeLink`. */
export type SafeUrl = string & { readonly __brand: 'SafeUrl' };

export const BRAND = 'SendBridge';

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const INK = '#1f2933';
const MUTED = '#6b7280';
const ACCENT = '#1b4dd8';
const CANVAS = '#f4f5f7';
const RULE = '#e5e7eb';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): Html {
  return text.replace(/[&<>"']/gu, (c) => ESCAPES[c] ?? c) as Html;
}

/** Markup written in this module or the templates, never anything user-supplied. */
export function trustedHtml(markup: string): Html {
  return markup as Html;
}

export function joinHtml(parts: readonly Html[], separator = ''): Html {
  return parts.join(separator) as Html;
}

export class UnsafeLinkError extends Error {
  constructor(reason: string) {
    super(`Mail link rejected: ${reason}`);
    this.name = 'UnsafeLinkError';
  }
}

/**
 * Links in mail must be absolute http(s): a `javascript:` or `data:` href would run or render
 * attacker content in clients that follow it. Throws rather than dropping the link, since a
 * mail without its link is useless and the caller built it wrong.
 */
export function safeLink(link: string): SafeUrl {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    throw new UnsafeLinkError('not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UnsafeLinkError(`scheme ${url.protocol} is not http(s)`);
  }
  if (url.username || url.password) throw new UnsafeLinkError('credentials in URL');
  return url.href as SafeUrl;
}

// ---- blocks --------------------------------------------------------------------------------

export function heading(content: Html): Html {
  return trustedHtml(
    `<h1 style="margin:0 0 16px;font-family:${FONT};font-size:22px;line-height:30px;font-weight:bold;color:${INK};">${content}</h1>`,
  );
}

export function paragraph(content: Html, options: { muted?: boolean; small?: boolean } = {}): Html {
  const size = options.small ? '13px;line-height:20px' : '15px;line-height:23px';
  const color = options.muted ? MUTED : INK;
  return trustedHtml(`<p style="margin:0 0 16px;font-family:${FONT};font-size:${size};color:${color};">${content}</p>`);
}

/** Text that may be long and unbroken (file names, addresses, URLs) wraps instead of widening the mail. */
export function breakable(content: Html): Html {
  return trustedHtml(`<span style="word-break:break-word;overflow-wrap:anywhere;">${content}</span>`);
}

export function strong(content: Html): Html {
  return trustedHtml(`<strong style="color:${INK};">${content}</strong>`);
}

/** The sender's message: a quoted box that keeps its line breaks. */
export function quote(text: string): Html {
  const body = escapeHtml(text).replace(/\n/gu, '<br>');
  return trustedHtml(
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;">` +
      `<tr><td style="padding:12px 16px;border-left:4px solid ${ACCENT};background-color:${CANVAS};font-family:${FONT};font-size:15px;line-height:23px;color:${INK};word-break:break-word;overflow-wrap:anywhere;">${body}</td></tr></table>`,
  );
}

/** A bulletproof button: a coloured table cell, so it shows as a button without CSS support. */
export function button(href: SafeUrl, label: Html): Html {
  return trustedHtml(
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 20px;">` +
      `<tr><td align="center" bgcolor="${ACCENT}" style="border-radius:6px;background-color:${ACCENT};">` +
      `<a href="${escapeHtml(href)}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 28px;font-family:${FONT};font-size:16px;font-weight:bold;line-height:20px;color:#ffffff;text-decoration:none;border-radius:6px;">${label}</a>` +
      `</td></tr></table>`,
  );
}

/** The same link written out, for clients that hide the button or readers who copy it. */
export function linkFallback(intro: Html, href: SafeUrl): Html {
  const url = escapeHtml(href);
  return paragraph(
    trustedHtml(
      `${intro}<br><a href="${url}" target="_blank" rel="noopener" style="color:${ACCENT};word-break:break-all;">${url}</a>`,
    ),
    { muted: true, small: true },
  );
}

/** Rows of two cells: file name and size, or a label and its value. */
export function rows(items: readonly (readonly [Html, Html])[], options: { labels?: boolean } = {}): Html {
  const body = items
    .map(([left, right]) => {
      const leftStyle = options.labels
        ? `padding:6px 12px 6px 0;font-family:${FONT};font-size:14px;line-height:20px;color:${MUTED};white-space:nowrap;vertical-align:top;`
        : `padding:6px 12px 6px 0;font-family:${FONT};font-size:14px;line-height:20px;color:${INK};word-break:break-word;overflow-wrap:anywhere;vertical-align:top;`;
      const rightStyle = options.labels
        ? `padding:6px 0;font-family:${FONT};font-size:14px;line-height:20px;color:${INK};word-break:break-word;overflow-wrap:anywhere;vertical-align:top;`
        : `padding:6px 0;font-family:${FONT};font-size:14px;line-height:20px;color:${MUTED};white-space:nowrap;text-align:right;vertical-align:top;`;
      return `<tr><td style="${leftStyle}border-bottom:1px solid ${RULE};">${left}</td><td style="${rightStyle}border-bottom:1px solid ${RULE};">${right}</td></tr>`;
    })
    .join('');
  return trustedHtml(
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;">${body}</table>`,
  );
}

/** A one-column list (recipients). */
export function list(items: readonly Html[]): Html {
  const body = items
    .map(
      (item) =>
        `<tr><td style="padding:4px 0;font-family:${FONT};font-size:14px;line-height:20px;color:${INK};word-break:break-word;overflow-wrap:anywhere;">${item}</td></tr>`,
    )
    .join('');
  return trustedHtml(
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;">${body}</table>`,
  );
}

/** The verification code, large and spaced so it is easy to read and type. */
export function codeBox(code: Html): Html {
  return trustedHtml(
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 20px;">` +
      `<tr><td style="padding:14px 24px;background-color:${CANVAS};border:1px solid ${RULE};border-radius:6px;font-family:'SFMono-Regular',Menlo,Consolas,'Courier New',monospace;font-size:30px;line-height:36px;font-weight:bold;letter-spacing:8px;color:${INK};">${code}</td></tr></table>`,
  );
}

// ---- shell ---------------------------------------------------------------------------------

export interface LayoutInput {
  readonly lang: string;
  /** the subject, also the document title */
  readonly title: string;
  /** the preview line inbox lists show beside the subject */
  readonly preheader: string;
  readonly body: Html;
  /** why the reader got this mail */
  readonly footer: string;
}

export function renderLayout(input: LayoutInput): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(input.lang)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(input.title)}</title>
</head>
<body style="margin:0;padding:0;background-color:${CANVAS};-webkit-text-size-adjust:100%;">
<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;">${escapeHtml(input.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${CANVAS};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid ${RULE};border-radius:8px;">
<tr><td style="padding:20px 32px;border-bottom:1px solid ${RULE};font-family:${FONT};font-size:20px;line-height:28px;font-weight:bold;color:${ACCENT};">${BRAND}</td></tr>
<tr><td style="padding:28px 32px 12px;">
${input.body}
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td style="padding:16px 32px;font-family:${FONT};font-size:12px;line-height:18px;color:${MUTED};">${escapeHtml(input.footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** The plain-text part: blocks separated by blank lines, then the signature delimiter and footer. */
export function renderText(blocks: readonly (string | undefined | false)[], footer: string): string {
  const body = blocks.filter((b): b is string => typeof b === 'string' && b.length > 0).join('\n\n');
  return `${body}\n\n-- \n${footer}\n${BRAND}\n`;
}
