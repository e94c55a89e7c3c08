export * from './route-types';
export * from './routes';
export * from './common';
export * from './auth';
export * from './events-auth';
