import { lazy, type ReactNode, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { LoadingLine } from '../ui/components/StatusLines';

/**
 * The subscription, payment and check-in pages (reader.md §2), each loaded with React.lazy when first visited, so
 * the first load stays small. Guards live in the pages: /upgrade and /bilinghistory send signed-out visitors to
 * /login with a toast (our rule; the spec leaves it open).
 */
const UpgradePage = lazy(() => import('./components/UpgradePage').then((m) => ({ default: m.UpgradePage })));
const PaymentSuccessPage = lazy(() =>
  import('../payments/components/PaymentSuccessPage').then((m) => ({ default: m.PaymentSuccessPage })),
);
const PaymentFailedPage = lazy(() =>
  import('../payments/components/PaymentFailedPage').then((m) => ({ default: m.PaymentFailedPage })),
);
const PaymentHistoryPage = lazy(() =>
  import('../payments/components/PaymentHistoryPage').then((m) => ({ default: m.PaymentHistoryPage })),
);
const CheckinPage = lazy(() =>
  import('../checkin/components/CheckinPage').then((m) => ({ default: m.CheckinPage })),
);

function PageLoading() {
  return <LoadingLine label="Loading…" size={32} hideLabel />;
}

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

export const subscriptionRoutes: RouteObject[] = [
  { path: 'upgrade', element: lazyPage(<UpgradePage />) },
  { path: 'payment-success', element: lazyPage(<PaymentSuccessPage />) },
  { path: 'payment-failed', element: lazyPage(<PaymentFailedPage />) },
  { path: 'bilinghistory', element: lazyPage(<PaymentHistoryPage />) },
  { path: 'checkin', element: lazyPage(<CheckinPage />) },
];
