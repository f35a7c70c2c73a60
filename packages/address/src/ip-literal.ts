/** The inside of an RFC 3986 IP-literal (`[` … `]`): an IPv6 address or an IPvFuture. */
export function isIpLiteralContent(text: string): boolean {
  return isIpvFuture(text) || isIpv6Address(text);
}

const IPV_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/i;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const DEC_OCTET = /^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/;

function isIpvFuture(text: string): boolean {
  return IPV_FUTURE.test(text);
}

function isIpv4Address(text: string): boolean {
  const octets = text.split('.');
  return octets.length === 4 && octets.every((octet) => DEC_OCTET.test(octet));
}

function isIpv6Address(text: string): boolean {
  const elision = text.indexOf('::');
  if (elision !== text.lastIndexOf('::')) return false;
  const groups =
    elision < 0
      ? text.split(':')
      : [...splitGroups(text.slice(0, elision)), ...splitGroups(text.slice(elision + 2))];
  // An embedded IPv4 address may only end the address, and stands for two 16-bit groups.
  const last = groups.at(-1);
  let width = groups.length;
  if (last !== undefined && last.includes('.')) {
    if (!isIpv4Address(last)) return false;
    groups.pop();
    width += 1;
  }
  if (!groups.every((group) => HEX_GROUP.test(group))) return false;
  return elision < 0 ? width === 8 : width <= 7;
}

function splitGroups(text: string): string[] {
  return text === '' ? [] : text.split(':');
}
