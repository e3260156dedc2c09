import { lazy, Suspense } from 'react';
import { importWithRetry } from '@/lib/import-with-retry';
import type { ReviewSectionProps } from './review-section';

/** The review with its texts, in a chunk of its own: a modal without a look at it does not wait for it. */
const ReviewSection = lazy(() =>
  importWithRetry(() => import('./review-section')).then(async (m) => {
    await m.ready;
    return { default: m.ReviewSection };
  }),
);

export function LazyReviewSection(props: ReviewSectionProps) {
  return (
    <Suspense fallback={null}>
      <ReviewSection {...props} />
    </Suspense>
  );
}
