export * from './app';
export * from './auth';
export { fixClientReading, readClientOnce, reserveClientReading } from './client';
export * from './validate';
