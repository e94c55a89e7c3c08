/** What the browser keeps between visits (reader.md §6: the token lives in local storage as 'token'). */
const TOKEN_KEY = 'token';
const RETURN_URL_KEY = 'returnUrl';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the app still works for this visit.
  }
}

export const readToken = (): string | null => read(TOKEN_KEY);
export const storeToken = (token: string): void => write(TOKEN_KEY, token);
export const clearToken = (): void => write(TOKEN_KEY, null);

export const readReturnUrl = (): string | null => read(RETURN_URL_KEY);
export const storeReturnUrl = (url: string): void => write(RETURN_URL_KEY, url);
export const clearReturnUrl = (): void => write(RETURN_URL_KEY, null);

const PAYMENT_POST_KEY = 'paymentReturnPost';

/** The locked post a checkout started from: after the payment the reader goes back to it (a post id, or null). */
export const readPaymentReturnPost = (): string | null => {
  const id = read(PAYMENT_POST_KEY);
  return id && /^[\w-]{1,64}$/.test(id) ? id : null;
};
export const storePaymentReturnPost = (id: string | null): void => write(PAYMENT_POST_KEY, id);
