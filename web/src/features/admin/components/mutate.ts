import { errorMessage } from '../../../shared/http';
import { notifyError, notifySuccess } from '../../../shared/notify';

export interface MutationTexts {
  success: string;
  /** The failure toast: a fixed text, or the server's message with a fallback (admin.md §8). */
  failure: { fixed: string } | { serverElse: string };
  /** admin.md §8: edit failures of users, templates and promotions show in a success style. */
  failureStyle?: 'error' | 'success';
}

/** Runs an admin add or edit and shows its toast; resolves with the answer, or null when it failed. */
export async function mutate<T>(call: () => Promise<T>, texts: MutationTexts): Promise<T | null> {
  try {
    const result = await call();
    if (texts.success) notifySuccess(texts.success);
    return result;
  } catch (error) {
    const message =
      'fixed' in texts.failure ? texts.failure.fixed : errorMessage(error, texts.failure.serverElse);
    (texts.failureStyle === 'success' ? notifySuccess : notifyError)(message);
    return null;
  }
}
