export * from './auth';
export * from './common';
export * from './events-auth';
export * from './route-types';
export * from './routes';
