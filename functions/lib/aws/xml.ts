/**
 * Just enough XML for S3's answers: the text of named elements, read by tag, with the five
 * predefined entities and numeric character references decoded. S3's answers are flat records
 * and lists of them without attributes or CDATA; only the fields functions/ reads are read.
 */

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/gu;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlText(text: string): string {
  return text.replace(ENTITY, (_m, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name) return NAMED[name]!;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}

export function escapeXmlText(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]!};`);
}

const blockPattern = (tag: string) => new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${tag}>)`, 'gu');

/** The raw inner XML of every `<tag>` element (in document order; a self-closing one is ''). */
export function xmlBlocks(xml: string, tag: string): string[] {
  return [...xml.matchAll(blockPattern(tag))].map((m) => m[1] ?? '');
}

/** The decoded text of the first `<tag>` element, or undefined. */
export function xmlText(xml: string, tag: string): string | undefined {
  const first = blockPattern(tag).exec(xml);
  return first ? decodeXmlText(first[1] ?? '') : undefined;
}

/** The name of the document's root element (after any declaration). */
export function xmlRoot(xml: string): string | undefined {
  return /^\s*(?:<\?xml[^>]*\?>\s*)?<([A-Za-z][\w.-]*)/u.exec(xml)?.[1];
}
