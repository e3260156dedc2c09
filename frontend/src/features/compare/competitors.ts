import { GB } from '../../../../functions/domain/units';

/**
 * The competitors' columns of the comparison table (spec §1: "a comparison table
 * against two competitors"), with each company's own published figure and where it is
 * published. No web access was available when they were gathered: each figure was read from a
 * stored copy of the company's own help page on CHECKED_ON; a figure the companies' own pages
 * do not state is `notPublished`, never a guess or a third party's number. docs/decisions/,
 * "Comparison figures", lists the sources; recheck them before each marketing release.
 */
export const CHECKED_ON = '2026-11-26';

export type CompareRowId = 'freeStorage' | 'transferLimit' | 'expiry' | 'recipients' | 'encryption' | 'ads' | 'regions';

export type Figure =
  | { readonly kind: 'notPublished' }
  | { readonly kind: 'bytes'; readonly bytes: number; readonly source: string }
  | { readonly kind: 'noSizeLimit'; readonly source: string }
  | { readonly kind: 'daysDefaultMax'; readonly days: number; readonly max: number; readonly source: string };

export interface Competitor {
  readonly id: 'wetransfer' | 'smash';
  readonly name: string;
  readonly figures: Readonly<Record<CompareRowId, Figure>>;
}

const NOT_PUBLISHED: Figure = { kind: 'notPublished' };

export const WETRANSFER_TRANSFER_LIMIT_SOURCE =
  'https://help.wetransfer.com/hc/de/articles/360048959531-How-do-other-people-send-me-transfers-up-to-200GB-';
export const SMASH_SIZE_SOURCE = 'https://faq.fromsmash.com/article/179-what-is-a-guest';
export const SMASH_EXPIRY_SOURCE = 'https://faq.fromsmash.com/article/99-how-long-is-my-transfer-kept';

export const COMPETITORS: readonly Competitor[] = [
  {
    id: 'wetransfer',
    name: 'WeTransfer',
    figures: {
      // "das Limit von 2 GB des kostenlosen Serviceangebots" (WeTransfer's help centre)
      transferLimit: { kind: 'bytes', bytes: 2 * GB, source: WETRANSFER_TRANSFER_LIMIT_SOURCE },
      // The free plan's "3 GB" storage on WeTransfer's help centre is for its reviews product, not transfers.
      freeStorage: NOT_PUBLISHED,
      expiry: NOT_PUBLISHED,
      recipients: NOT_PUBLISHED,
      encryption: NOT_PUBLISHED,
      ads: NOT_PUBLISHED,
      regions: NOT_PUBLISHED,
    },
  },
  {
    id: 'smash',
    name: 'Smash',
    figures: {
      // "sending files without any size limit" (Smash FAQ)
      transferLimit: { kind: 'noSizeLimit', source: SMASH_SIZE_SOURCE },
      // "in free version, the validity period of your files is 7 days by default ... up to 14 days" (Smash FAQ)
      expiry: { kind: 'daysDefaultMax', days: 7, max: 14, source: SMASH_EXPIRY_SOURCE },
      freeStorage: NOT_PUBLISHED,
      recipients: NOT_PUBLISHED,
      encryption: NOT_PUBLISHED,
      ads: NOT_PUBLISHED,
      regions: NOT_PUBLISHED,
    },
  },
];

/** Every source a figure cites, once, in table order. */
export function competitorSources(): { competitor: string; url: string }[] {
  const seen = new Set<string>();
  const out: { competitor: string; url: string }[] = [];
  for (const c of COMPETITORS) {
    for (const figure of Object.values(c.figures)) {
      if ('source' in figure && !seen.has(figure.source)) {
        seen.add(figure.source);
        out.push({ competitor: c.name, url: figure.source });
      }
    }
  }
  return out;
}
