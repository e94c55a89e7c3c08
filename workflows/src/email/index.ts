export * from './model';
export * from './render';
