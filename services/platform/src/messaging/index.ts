export * from './types';
export * from './outbox';
export * from './smtp';
export * from './twilio';
