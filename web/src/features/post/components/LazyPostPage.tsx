import { lazy, Suspense } from 'react';
import { LoadingLine } from '../../ui/components/StatusLines';

// The post page (comments, carousel, sign-in modal) loads on demand, so the home page's first load stays small.
const PostPage = lazy(() => import('./PostPage'));

export function LazyPostPage() {
  return (
    <Suspense fallback={<LoadingLine label="Loading…" />}>
      <PostPage />
    </Suspense>
  );
}
