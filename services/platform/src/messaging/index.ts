export * from './file-outbox';
export * from './outbox';
export * from './rate';
export * from './smtp';
export * from './throttle';
export * from './tracking';
export * from './twilio';
export * from './types';
