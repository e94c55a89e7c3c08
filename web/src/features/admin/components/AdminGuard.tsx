import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectIsLogin, selectTokenCheckDone, selectUser } from '../../auth/selectors';
import { selectSettingsReady } from '../../settings/selectors';

/**
 * Waits for the token check, then sends anyone but an admin to / (admin.md §6). `signedIn` guards on a sign-in
 * alone: the report viewer lets the server decide (a report's access users may view it). The client guard is UX
 * only; every admin call is checked by the server.
 */
export function AdminGuard({
  children,
  rule = 'admin',
}: {
  children: ReactNode;
  rule?: 'admin' | 'signedIn';
}) {
  const checked = useAppSelector(selectTokenCheckDone);
  const settingsReady = useAppSelector(selectSettingsReady);
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);
  if (!checked || !settingsReady)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
        <CircularProgress aria-label="Loading" />
      </Box>
    );
  const allowed = rule === 'admin' ? isLogin && user?.role === 'admin' : isLogin;
  return allowed ? children : <Navigate to="/" replace />;
}
