export * from './types.ts';
export * from './paths.ts';
