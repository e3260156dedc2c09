import { useEffect, useRef, useState } from 'react';

/** How long 'Link Copied!' stays up. */
const COPIED_MS = 3000;

/**
 * Copies a link to the clipboard and says so for a few seconds ('Link Copied!'). Without
 * clipboard permission (or on an insecure origin) it selects the link's text box, so Ctrl+C works.
 * The send form's done view and the TransferModal share it.
 */
export function useCopyLink(link: string) {
  const box = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      box.current?.select();
      setCopied(document.execCommand?.('copy') ?? false);
    }
  };

  return { box, copied, copy };
}
