import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { appStarted } from './app/actions';
import { setNavigator } from './app/navigation';
import { createAppRouter } from './app/router';
import { store } from './app/store';
import { takeGoogleSignInError } from './features/auth/rules';
import { ToastHost } from './features/ui/components/ToastHost';
import { notifyError } from './shared/notify';
import './styles.css';

// Google's failed return is a full page load: take the error out of the URL before the router reads it.
const googleReturn = takeGoogleSignInError(window.location.href);
if (googleReturn.failed) window.history.replaceState(window.history.state, '', googleReturn.cleanUrl);

const router = createAppRouter();
setNavigator((to, options) => {
  void router.navigate(to, options);
});
store.dispatch(appStarted());

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastHost />
    </Provider>
  </StrictMode>,
);

if (googleReturn.failed) notifyError('Google sign-in failed. Please try again.', 'google-signin-failed');
