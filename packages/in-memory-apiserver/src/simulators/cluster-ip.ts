/** Hands out Service cluster IPs from 10.96.0.0/12, skipping .0/.1 (network and the `kubernetes` Service). */
export function clusterIpAllocator(): () => string {
  let next = 10;
  return () => {
    const offset = next++;
    return `10.${96 + ((offset >> 16) & 0x0f)}.${(offset >> 8) & 0xff}.${offset & 0xff}`;
  };
}
