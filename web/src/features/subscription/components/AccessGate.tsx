import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate } from 'react-router-dom';
import { notifyWarning } from '../../../shared/notify';
import type { PageAccess } from '../access';

/**
 * Lets the page through or redirects (see access.ts). The toast is only for visitors who arrived signed out: signing
 * out on the page also leaves it, without being told to sign in.
 */
export function AccessGate({ access, children }: { access: PageAccess; children: ReactNode }) {
  const arrivedRefused = useRef(access.kind === 'redirect');
  const toast = access.kind === 'redirect' && arrivedRefused.current ? access.toast : undefined;

  useEffect(() => {
    if (toast) notifyWarning(toast, 'page-access');
  }, [toast]);

  if (access.kind === 'redirect') return <Navigate to={access.to} replace />;
  return children;
}
