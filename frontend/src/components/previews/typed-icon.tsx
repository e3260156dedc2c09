import type { IconKind } from '@domain/previews';

/** Each kind's mark inside a page outline; decorative (the tile names the kind in text). */
const MARKS: Readonly<Record<IconKind, string>> = {
  image: 'M8 16l2.5-3 2 2.5L15 12l3 4zM9 10.5a1.2 1.2 0 1 0 0-.01',
  audio: 'M10 17.5a1.5 1.5 0 1 1-1.5-1.5H10V10l5-1v6.5a1.5 1.5 0 1 1-1.5-1.5H15',
  video: 'M8 11h6v5H8zM14 12.5l3-1.5v4l-3-1.5',
  pdf: 'M8 12h8M8 15h8M8 18h5',
  text: 'M8 12h8M8 15h8M8 18h6',
  archive: 'M11 9h2M11 11h2M11 13h2M10.5 15h3v3h-3z',
  document: 'M8 12h8M8 15h8M8 18h8',
  spreadsheet: 'M8 11h8v7H8zM8 14.5h8M12 11v7',
  presentation: 'M8 11h8v5H8zM12 16v2',
  code: 'M10 12l-2 2.5 2 2.5M14 12l2 2.5-2 2.5',
  file: '',
};

export function TypedIcon({ kind }: { kind: IconKind }) {
  return (
    <svg
      className={`pv-typed pv-typed-${kind}`}
      width="48"
      height="48"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
      {MARKS[kind] && <path d={MARKS[kind]} />}
    </svg>
  );
}
