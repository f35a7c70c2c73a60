/** Writes what the built-in form factors and the hook phases declare into the files that list it (built-in-tables.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { hookPhases } from '@scoby/hooks-v1/client';
import { BUILT_IN_FORM_FACTORS } from '../src/process/built-in-form-factors.ts';
import {
  BLOCKS_FILE,
  builtInBlocksModule,
  CAPABILITIES_FILE,
  hookCapabilitiesModule,
  RBAC_FILE,
  rbacWithBuiltInRows,
  repositoryPath,
} from './built-in-tables.ts';

writeFileSync(repositoryPath(BLOCKS_FILE), builtInBlocksModule(BUILT_IN_FORM_FACTORS));
const rbac = readFileSync(repositoryPath(RBAC_FILE), 'utf8');
writeFileSync(repositoryPath(RBAC_FILE), rbacWithBuiltInRows(rbac, BUILT_IN_FORM_FACTORS));
writeFileSync(repositoryPath(CAPABILITIES_FILE), hookCapabilitiesModule(hookPhases()));
