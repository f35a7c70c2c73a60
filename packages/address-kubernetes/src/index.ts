export { createObjectReader, type ObjectReaderOptions } from './object-reader.ts';
