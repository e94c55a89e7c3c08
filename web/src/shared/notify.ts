import { useEffect, useRef } from 'react';

/**
 * Toasts (reader.md §9: 5000 ms, bottom-right, dark; set once on the container). A toastId collapses repeats.
 *
 * react-toastify is loaded with the first toast, not on the first page load (its 10 KB are a large share of the
 * first-load budget). Toasts asked for before its container has mounted are queued by react-toastify and shown as
 * soon as it mounts; ToastHost (main.tsx) mounts the container once a toast is needed.
 */
type Toastify = typeof import('react-toastify');

let loading: Promise<Toastify> | null = null;
const needListeners = new Set<() => void>();

/** The toast library, loaded once; the first call tells ToastHost to mount the container. */
export function loadToasts(): Promise<Toastify> {
  if (!loading) {
    loading = import('react-toastify');
    for (const listener of needListeners) listener();
  }
  return loading;
}

/** Whether a toast has been asked for yet (then the container must be mounted). */
export const toastsNeeded = (): boolean => loading !== null;

/** Calls `listener` when the first toast is asked for; returns the unsubscribe. */
export function onToastsNeeded(listener: () => void): () => void {
  needListeners.add(listener);
  return () => {
    needListeners.delete(listener);
  };
}

/** Problems (errors and warnings) on screen: a new step of a flow clears them, they were about the last one. */
const problems = new Set<string | number>();

function show(kind: 'success' | 'error' | 'warning', message: string, toastId?: string): void {
  void loadToasts().then(({ toast }) => {
    const id = toast[kind](message, toastId ? { toastId } : undefined);
    if (kind !== 'success') problems.add(id);
  });
}

/** Clears the error and warning toasts still shown (a step changed); success toasts stay for their 5 s. */
export function clearProblemToasts(): void {
  if (!loading || problems.size === 0) return;
  const ids = [...problems];
  problems.clear();
  void loading.then(({ toast }) => {
    for (const id of ids) toast.dismiss(id);
  });
}

/** Clears the problem toasts whenever `step` changes (not when the component goes away: a success may follow). */
export function useClearProblemsOnStep(step: unknown): void {
  const previous = useRef(step);
  useEffect(() => {
    if (previous.current !== step) clearProblemToasts();
    previous.current = step;
  }, [step]);
}

export const notifySuccess = (message: string, toastId?: string): void => show('success', message, toastId);
export const notifyError = (message: string, toastId?: string): void => show('error', message, toastId);
export const notifyWarning = (message: string, toastId?: string): void => show('warning', message, toastId);
