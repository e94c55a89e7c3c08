import { toast } from 'react-toastify';

/** Toasts (reader.md §9: 5000 ms, bottom-right, dark; set once on the container). A toastId collapses repeats. */
export const notifySuccess = (message: string, toastId?: string): void => {
  toast.success(message, toastId ? { toastId } : undefined);
};
export const notifyError = (message: string, toastId?: string): void => {
  toast.error(message, toastId ? { toastId } : undefined);
};
export const notifyWarning = (message: string, toastId?: string): void => {
  toast.warning(message, toastId ? { toastId } : undefined);
};
