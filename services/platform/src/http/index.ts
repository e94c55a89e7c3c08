export * from './app';
export * from './auth';
export { fixClientReading, readClientOnce } from './client';
export * from './validate';
