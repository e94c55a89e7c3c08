export * from './answer-json';
export * from './app';
export * from './auth';
export { fixClientReading, readClientOnce, reserveClientReading } from './client';
export * from './internal-client';
export * from './user-data';
export * from './validate';
