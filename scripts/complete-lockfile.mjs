#!/usr/bin/env node
/**
 * Keeps `npm ci` working where the npm registry lacks some of nx's optional platform binaries: npm
 * leaves unresolvable optional packages out of package-lock.json, and `npm ci` then refuses the lock
 * as out of sync. Each missing one gets a lock entry with its os/cpu/libc constraints, so npm skips it
 * as incompatible on this platform instead of failing. Runs as the root postinstall; idempotent.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'freebsd-x64': { os: ['freebsd'], cpu: ['x64'] },
  'linux-arm-gnueabihf': { os: ['linux'], cpu: ['arm'], libc: ['glibc'] },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'] },
};

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages ?? {};
const optional = packages['node_modules/nx']?.optionalDependencies ?? {};
let added = 0;
for (const [name, version] of Object.entries(optional)) {
  const key = `node_modules/${name}`;
  const platform = PLATFORMS[name.replace(/^@nx\/nx-/, '')];
  if (packages[key] || !platform) continue;
  packages[key] = { version, ...platform, dev: true, optional: true, license: 'MIT' };
  added++;
}
if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} optional nx platform entries to package-lock.json`);
}
