/** Lets sagas move the browser to another route without importing the router (which imports every page). */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateWith: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

export function setNavigator(navigate: Navigate): void {
  navigateWith = navigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigateWith(to, options);
}

/** Leaves the single-page app (Google sign-in runs on the server). */
export function redirectBrowser(url: string): void {
  window.location.assign(url);
}
