export * from './EmailLayout';
export * from './render';
