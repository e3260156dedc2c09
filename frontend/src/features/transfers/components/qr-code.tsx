import { create } from 'qrcode';
import { useMemo } from 'react';

/** Light modules around the symbol, as the QR standard asks for a reliable scan. */
const QUIET_ZONE = 4;

/** The dark modules of a QR symbol as one SVG path ('M x y h1v1h-1z' per module). */
export function qrPath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = modules;
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (data[row * size + col]) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: size + 2 * QUIET_ZONE, path };
}

/**
 * The link as a QR code, drawn as React SVG from the module matrix: no markup string is
 * injected, so nothing in the link can become HTML.
 */
export function QrCode({ text, label, px = 148 }: { text: string; label: string; px?: number }) {
  const { size, path } = useMemo(() => qrPath(text), [text]);
  return (
    <svg
      className="tr-qr"
      viewBox={`0 0 ${size} ${size}`}
      width={px}
      height={px}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-testid="transfer-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#0f172a" />
    </svg>
  );
}
