import { createAction } from '@reduxjs/toolkit';

/** Dispatched once, before the first render: loads the site settings and checks the stored token. */
export const appStarted = createAction('app/started');
