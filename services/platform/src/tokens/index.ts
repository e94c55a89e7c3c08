export * from './keys';
export * from './tokens';
