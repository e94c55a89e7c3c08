export * from './outbox';
export * from './smtp';
export * from './twilio';
export * from './types';
