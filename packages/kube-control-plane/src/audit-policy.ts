/**
 * The API server's audit log, kept for one group of ServiceAccounts only: tests that run several
 * controller replicas give each a ServiceAccount in AUDITED_NAMESPACE and count each replica's
 * requests from the API server's own record; every other client (the admin, the components, other
 * test suites' controllers) is not recorded, so it costs them nothing.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

/** ServiceAccounts of this namespace are audited (their group is system:serviceaccounts:<namespace>). */
export const AUDITED_NAMESPACE = 'scoby-ha';

/** Resources whose writes the audit log keeps with the object the API server answered (RequestResponse). */
export interface AuditedBodies {
  group: string;
  resources: string[];
}

/**
 * Metadata: who, verb, URI, object, response code and timestamps, no bodies; except for Leases, whose
 * writes are recorded with the request's body (level Request): judging a write against the Lease terms
 * of the replicas needs the holder each Lease write names. The writes of `bodies` are recorded with
 * the stored object the API server answered (RequestResponse, managedFields left out): its
 * resourceVersion orders them, and what it holds tells which desired state each write carried.
 * RequestReceived is left out: every request has ResponseComplete (or Panic), and a watch also
 * ResponseStarted.
 */
export function auditPolicy(
  namespace: string = AUDITED_NAMESPACE,
  bodies: readonly AuditedBodies[] = [],
): Record<string, unknown> {
  const userGroups = [`system:serviceaccounts:${namespace}`];
  return {
    apiVersion: 'audit.k8s.io/v1',
    kind: 'Policy',
    omitStages: ['RequestReceived'],
    ...(bodies.length === 0 ? {} : { omitManagedFields: true }),
    rules: [
      { level: 'Request', userGroups, resources: [{ group: 'coordination.k8s.io', resources: ['leases'] }] },
      ...(bodies.length === 0
        ? []
        : [
            {
              level: 'RequestResponse',
              userGroups,
              verbs: ['create', 'update', 'patch'],
              resources: bodies.map(({ group, resources }) => ({ group, resources: [...resources] })),
            },
          ]),
      { level: 'Metadata', userGroups },
      { level: 'None' },
    ],
  };
}

/**
 * kube-apiserver's flags for a JSON audit log at `logPath`. Blocking mode (the default of the log
 * backend, spelled out): an event is written before the response is sent, so a test that has its
 * answer finds the event in the file. Without bodies no rotation settings: the log is small (one
 * namespace's ServiceAccounts) and the rotation at 100 MB (lumberjack's default) is never reached.
 */
export async function auditFlags(
  files: { policyPath: string; logPath: string },
  bodies: readonly AuditedBodies[] = [],
): Promise<string[]> {
  await writeFile(files.policyPath, stringify(auditPolicy(AUDITED_NAMESPACE, bodies)));
  return [
    `--audit-policy-file=${files.policyPath}`,
    `--audit-log-path=${files.logPath}`,
    '--audit-log-format=json',
    '--audit-log-mode=blocking',
    // A soak with bodies writes hundreds of MB; a reader that follows the file must not see it rotated.
    ...(bodies.length === 0 ? [] : ['--audit-log-maxsize=16384']),
  ];
}
