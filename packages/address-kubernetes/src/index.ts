export { createObjectReader } from './object-reader.ts';
