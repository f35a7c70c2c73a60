/** IP address syntax as Go's net.ParseIP / net.ParseCIDR accept it. */

const DECIMAL_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

export function isIPv4Literal(text: string): boolean {
  const octets = text.split('.');
  return octets.length === 4 && octets.every((o) => DECIMAL_OCTET.test(o) && Number(o) <= 255);
}

/** Eight hex groups, one `::` standing for at least one zero group, optionally ending in an IPv4 address. */
export function isIPv6Literal(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const groups = halves.flatMap(groupsOf);
  let count = 0;
  for (const [i, group] of groups.entries()) {
    if (i === groups.length - 1 && group.includes('.')) {
      if (!isIPv4Literal(group) || !text.endsWith(group)) return false;
      count += 2;
    } else if (HEX_GROUP.test(group)) {
      count += 1;
    } else {
      return false;
    }
  }
  return halves.length === 2 ? count < 8 : count === 8;
}

export function isIP(text: string): boolean {
  return isIPv4Literal(text) || isIPv6Literal(text);
}

export function isCIDR(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const address = text.slice(0, slash);
  const prefix = text.slice(slash + 1);
  if (!/^[0-9]+$/.test(prefix)) return false;
  if (isIPv4Literal(address)) return Number(prefix) <= 32;
  return isIPv6Literal(address) && Number(prefix) <= 128;
}
