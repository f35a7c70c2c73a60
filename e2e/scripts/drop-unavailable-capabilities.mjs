#!/usr/bin/env node
// Called by runc-in-bounding-set.sh with runc's arguments, before it runs runc. A --privileged
// container asks for every capability, and where this process's capability bounding set lacks some
// (CAP_SYS_RESOURCE on these machines) runc fails with "unable to apply caps: operation not permitted".
// This removes from the OCI spec runc is given (create's --bundle config.json, exec's --process file)
// the capabilities no process here can hold.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

// linux/capability.h, in bit order.
const CAPABILITIES = [
  'CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP LINUX_IMMUTABLE',
  'NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK IPC_OWNER SYS_MODULE SYS_RAWIO',
  'SYS_CHROOT SYS_PTRACE SYS_PACCT SYS_ADMIN SYS_BOOT SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG',
  'MKNOD LEASE AUDIT_WRITE AUDIT_CONTROL SETFCAP MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM',
  'BLOCK_SUSPEND AUDIT_READ PERFMON BPF CHECKPOINT_RESTORE',
]
  .join(' ')
  .split(' ')
  .map((name) => `CAP_${name}`);

// SCOBY_CAP_BOUNDING (hex, as CapBnd in /proc/self/status) stands in for this process's set in tests.
const boundingHex =
  process.env.SCOBY_CAP_BOUNDING ??
  /^CapBnd:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))[1];
const bounding = BigInt(`0x${boundingHex}`);
const unavailable = new Set(CAPABILITIES.filter((_, bit) => ((bounding >> BigInt(bit)) & 1n) === 0n));

function optionValue(args, names) {
  for (let i = 0; i < args.length; i++) {
    for (const name of names) {
      if (args[i] === name) return args[i + 1];
      if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
    }
  }
  return undefined;
}

function withoutUnavailable(processSpec) {
  const capabilities = processSpec?.capabilities;
  if (capabilities === undefined) return false;
  let changed = false;
  for (const [set, names] of Object.entries(capabilities)) {
    const kept = names.filter((name) => !unavailable.has(name));
    changed ||= kept.length !== names.length;
    capabilities[set] = kept;
  }
  return changed;
}

const args = process.argv.slice(2);
const bundle = optionValue(args, ['--bundle', '-b']);
const processFile = args.includes('exec') ? optionValue(args, ['--process', '-p']) : undefined;
if (unavailable.size > 0 && bundle !== undefined && args.includes('create')) {
  const file = join(bundle, 'config.json');
  const spec = JSON.parse(readFileSync(file, 'utf8'));
  if (withoutUnavailable(spec.process)) writeFileSync(file, JSON.stringify(spec));
}
if (unavailable.size > 0 && processFile !== undefined) {
  const spec = JSON.parse(readFileSync(processFile, 'utf8'));
  if (withoutUnavailable(spec)) writeFileSync(processFile, JSON.stringify(spec));
}
