export * from './compose';
export * from './file-outbox';
export * from './outbox';
export * from './smtp';
export * from './tracking';
export * from './twilio';
export * from './types';
