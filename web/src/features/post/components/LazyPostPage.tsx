import { lazy, Suspense } from 'react';
import { Spinner } from '../../ui/components/Spinner';

// The post page (comments, carousel, sign-in modal) loads on demand, so the home page's first load stays small.
const PostPage = lazy(() => import('./PostPage'));

export function LazyPostPage() {
  return (
    <Suspense
      fallback={
        <div className="inline-status" role="status">
          <Spinner />
          <span>Loading…</span>
        </div>
      }
    >
      <PostPage />
    </Suspense>
  );
}
