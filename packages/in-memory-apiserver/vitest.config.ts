import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Three files at a time rather than vitest's one on two cores (cores - 1): the files mostly wait on
// their servers over HTTP and on imports. 302 s one at a time (load 10-12), 104 s three at a time
// (load 3-6), every test passing both ways.
export default mergeConfig(shared, defineConfig({ test: { name: 'in-memory-apiserver', maxWorkers: 3 } }));
