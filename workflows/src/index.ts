export * from './activities';
export * from './bandit';
export * from './email';
export * from './scheduler/embedded';
export * from './scheduler/renewals';
export * from './scheduler/standalone';
export * from './slots';
