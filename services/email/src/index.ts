export * from './EmailLayout';
export * from './render';
export * from './subject';
