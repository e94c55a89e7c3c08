import { AdminGuard } from './components/AdminGuard';
import { AdminTheme } from './components/AdminTheme';
import { CreatePostPage } from './components/CreatePostPage';
import { DashboardPage } from './components/DashboardPage';
import { ReportViewerPage } from './report/ReportViewerPage';
import { startAdminSagas } from './saga';

/**
 * The admin chunk's entry, loaded by the router only when an admin route opens (DESIGN.md §8). Importing it injects
 * the admin slices (each list module injects its own) and starts the admin sagas.
 */
startAdminSagas();

export function DashboardRoute() {
  return (
    <AdminTheme>
      <AdminGuard>
        <DashboardPage />
      </AdminGuard>
    </AdminTheme>
  );
}

export function CreatePostRoute() {
  return (
    <AdminTheme>
      <AdminGuard>
        <CreatePostPage />
      </AdminGuard>
    </AdminTheme>
  );
}

/** Guarded on a sign-in only: the server answers 'Access Denied' to those who may not see the report. */
export function ReportViewerRoute() {
  return (
    <AdminTheme>
      <AdminGuard rule="signedIn">
        <ReportViewerPage />
      </AdminGuard>
    </AdminTheme>
  );
}
