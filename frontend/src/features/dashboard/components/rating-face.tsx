import type { FeedbackRating } from '../feedback';

/** Drawn, not emoji: emoji fonts are missing on some systems and differ on the rest. */
export function RatingFace({ rating }: { rating: FeedbackRating }) {
  const mouth = {
    Bad: <path d="M8.5 16.5c1.9-2 5.1-2 7 0" />,
    Fine: <path d="M8.5 14.5c1.9 1.6 5.1 1.6 7 0" />,
    Fantastic: <path d="M7.5 13.5h9c0 2.8-2 4.5-4.5 4.5s-4.5-1.7-4.5-4.5z" />,
  }[rating];
  return (
    <svg
      className="dash-rating-face"
      viewBox="0 0 24 24"
      width="28"
      height="28"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9.5" />
      <circle cx="9" cy="9.8" r="0.9" fill="currentColor" stroke="none" />
      <circle cx="15" cy="9.8" r="0.9" fill="currentColor" stroke="none" />
      {mouth}
    </svg>
  );
}
