/** Writes what the built-in form factors declare into the files that list it (built-in-tables.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { BUILT_IN_FORM_FACTORS } from '../src/process/built-in-form-factors.ts';
import {
  BLOCKS_FILE,
  builtInBlocksModule,
  RBAC_FILE,
  rbacWithBuiltInRows,
  repositoryPath,
} from './built-in-tables.ts';

writeFileSync(repositoryPath(BLOCKS_FILE), builtInBlocksModule(BUILT_IN_FORM_FACTORS));
const rbac = readFileSync(repositoryPath(RBAC_FILE), 'utf8');
writeFileSync(repositoryPath(RBAC_FILE), rbacWithBuiltInRows(rbac, BUILT_IN_FORM_FACTORS));
