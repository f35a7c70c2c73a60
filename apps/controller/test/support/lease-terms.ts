/**
 * Judges replicas' writes against the registration Leases' terms, from the API server's own record
 * of requests in arrival order (the in-memory server's request log, or kube-apiserver's audit log).
 *
 * A term of registration X begins with a successful claim of `scoby-registration-X` (a write that
 * names a holder) and ends with the next write of that Lease by anyone else, or with its release
 * (a write that empties the holder). A write for X's objects is right only when its writer holds the
 * current term: any other is a stale write (the writer held X in an earlier term, which has ended) or
 * a double write (a second writer in a term that is not its own), which fencing must make impossible.
 */
export interface RecordedRequest {
  user: string;
  method: string;
  path: string;
  code: number;
  /** For writes of registration Leases: the holder the Lease names afterwards ('' when released). */
  leaseHolder?: string | undefined;
}

export interface TermViolation {
  registration: string;
  user: string;
  request: string;
  /** Who held the registration's term when the write arrived; undefined: nobody. */
  termHolder: string | undefined;
  /** stale: the writer's own term of the registration had ended; double: the writer held no term of it. */
  kind: 'stale' | 'double';
}

const LEASE_PATH = /\/apis\/coordination\.k8s\.io\/v1\/namespaces\/[^/]+\/leases\/scoby-registration-(.+)$/;

export interface TermsReport {
  /** Writes for registrations' objects, per writer. */
  writesByUser: Record<string, number>;
  violations: TermViolation[];
  /** Terms begun per registration (the first claim counts). */
  terms: Record<string, number>;
}

/**
 * `registrationOf` names the registration whose object a path writes, or undefined for paths that
 * belong to none (Leases, access reviews, Events on cluster-scoped objects).
 */
export function judgeTerms(
  requests: readonly RecordedRequest[],
  registrationOf: (path: string) => string | undefined,
): TermsReport {
  const holder = new Map<string, string | undefined>();
  const heldBefore = new Map<string, Set<string>>();
  const report: TermsReport = { writesByUser: {}, violations: [], terms: {} };
  for (const request of requests) {
    if (request.method === 'GET' || request.method === 'LIST' || request.method === 'WATCH') continue;
    const lease = LEASE_PATH.exec(request.path);
    if (lease) {
      if (request.code >= 300) continue;
      const registration = decodeURIComponent(lease[1] ?? '');
      if (request.method === 'DELETE') {
        holder.set(registration, undefined);
        continue;
      }
      const named = request.leaseHolder ? request.user : undefined;
      if (named !== undefined && holder.get(registration) !== named) {
        report.terms[registration] = (report.terms[registration] ?? 0) + 1;
        heldBefore.set(registration, (heldBefore.get(registration) ?? new Set()).add(named));
      }
      holder.set(registration, named);
      continue;
    }
    const registration = registrationOf(request.path);
    if (registration === undefined) continue;
    report.writesByUser[request.user] = (report.writesByUser[request.user] ?? 0) + 1;
    const termHolder = holder.get(registration);
    if (termHolder !== request.user) {
      report.violations.push({
        registration,
        user: request.user,
        request: `${request.method} ${request.path} ${request.code}`,
        termHolder,
        kind: heldBefore.get(registration)?.has(request.user) ? 'stale' : 'double',
      });
    }
  }
  return report;
}
