import type { DynamicClient } from '../../src/client/dynamic-client.ts';
import { LEASES } from '../../src/leader-election/lease-client.ts';

/** Every Lease of the namespace by name, with its holder ('' when it has none). */
export async function holdersOf(admin: DynamicClient, namespace: string): Promise<Record<string, string>> {
  const list = await admin.list(LEASES, namespace);
  return Object.fromEntries(
    list.items.map((lease) => [
      lease.metadata.name ?? '',
      String((lease as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? ''),
    ]),
  );
}
