import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { guardRedirect } from '../rules';
import { selectIsLogin } from '../selectors';

/** The guard of protected pages: signed-out visitors go to `redirectTo` (/ unless the page says otherwise). */
export function RequireAuth({ redirectTo = '/', children }: { redirectTo?: string; children: ReactNode }) {
  const isLogin = useAppSelector(selectIsLogin);
  const target = guardRedirect(isLogin, redirectTo);
  return target ? <Navigate to={target} replace /> : children;
}
