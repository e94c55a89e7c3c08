export * from './user-directory';
