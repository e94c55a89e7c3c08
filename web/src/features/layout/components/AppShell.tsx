import { Outlet } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectTokenCheckDone } from '../../auth/selectors';
import { PageVisitTracker } from '../../eventlog/components/PageVisitTracker';
import { selectSettingsReady } from '../../settings/selectors';
import { FullScreenSpinner } from '../../ui/components/FullScreenSpinner';
import { LoadingOverlay } from '../../ui/components/LoadingOverlay';
import { Header } from './Header';
import { PageTitle } from './PageTitle';

/** Every page's frame: waits for the settings and the token check, then header, page and loading overlay. */
export function AppShell() {
  const tokenChecked = useAppSelector(selectTokenCheckDone);
  const settingsReady = useAppSelector(selectSettingsReady);
  if (!tokenChecked || !settingsReady) return <FullScreenSpinner />;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
      <LoadingOverlay />
      <PageVisitTracker />
      <PageTitle />
    </>
  );
}
