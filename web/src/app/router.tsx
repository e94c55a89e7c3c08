import { createBrowserRouter } from 'react-router-dom';
import { AboutPage } from '../features/about/components/AboutPage';
import { LoginPage } from '../features/auth/components/LoginPage';
import { RequireAuth } from '../features/auth/components/RequireAuth';
import { HomePage } from '../features/feed/components/HomePage';
import { AppShell } from '../features/layout/components/AppShell';
import { NotFoundPage } from '../features/layout/components/NotFoundPage';
import { RouteErrorPage } from '../features/layout/components/RouteErrorPage';
import { LazyPostPage } from '../features/post/components/LazyPostPage';
import { TermsPage } from '../features/privacy/components/TermsPage';
import { SettingsPage } from '../features/profile/components/SettingsPage';
import { subscriptionRoutes } from '../features/subscription/routes';
import { UnsubscribePage } from '../features/unsubscribe/components/UnsubscribePage';

/** The admin screens live in their own lazily loaded chunk (DESIGN.md §8): the reader's first load has none of it. */
const adminRoute = (
  path: string,
  pick: (m: typeof import('../features/admin/entry')) => () => React.JSX.Element,
) => ({
  path,
  errorElement: <RouteErrorPage />,
  lazy: async () => ({ Component: pick(await import('../features/admin/entry')) }),
});

/** reader.md §2 routes built so far; the others fall through to the 404 page until they are built. */
export const createAppRouter = () =>
  createBrowserRouter([
    // admin.md §2: full-width screens outside the reader's narrow layout.
    adminRoute('/dashboard', (m) => m.DashboardRoute),
    adminRoute('/create', (m) => m.CreatePostRoute),
    adminRoute('/report/:id', (m) => m.ReportViewerRoute),
    {
      path: '/',
      element: <AppShell />,
      errorElement: <RouteErrorPage />,
      children: [
        { index: true, element: <HomePage /> },
        { path: 'login', element: <LoginPage /> },
        { path: 'register', element: <LoginPage /> },
        {
          path: 'setting',
          element: (
            <RequireAuth redirectTo="/login">
              <SettingsPage />
            </RequireAuth>
          ),
        },
        { path: 'aboutus', element: <AboutPage /> },
        { path: 'terms', element: <TermsPage /> },
        { path: 'post/:id', element: <LazyPostPage /> },
        { path: 'unsubscribe/:id', element: <UnsubscribePage /> },
        ...subscriptionRoutes,
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
