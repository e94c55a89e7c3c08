import { lazy, Suspense, useEffect, useState } from 'react';
import { loadToasts, onToastsNeeded, toastsNeeded } from '../../../shared/notify';

const ToastContainer = lazy(() => loadToasts().then((module) => ({ default: module.ToastContainer })));

/**
 * The toast container (reader.md §9: bottom-right, 5000 ms, dark), mounted once the first toast is asked for. At the
 * bottom on a phone too, so the header stays readable. One toast per event: a problem shown at its field is not
 * toasted too, and a flow's problem toasts clear when its step changes (shared/notify.ts).
 */
export function ToastHost() {
  const [needed, setNeeded] = useState(toastsNeeded);
  useEffect(() => {
    if (toastsNeeded()) setNeeded(true);
    return onToastsNeeded(() => setNeeded(true));
  }, []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer position="bottom-right" autoClose={5000} theme="dark" />
    </Suspense>
  );
}
