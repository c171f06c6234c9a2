import { BlockList, isIP } from 'node:net';

/**
 * SSRF guard of X16: the address ranges a webhook may not be sent to unless
 * WEBHOOK_ALLOW_PRIVATE_NETWORKS=true. Loopback, private, link-local (the cloud metadata address
 * 169.254.169.254 included), unspecified, carrier-grade NAT, multicast and broadcast.
 */
const refused = new BlockList();
refused.addSubnet('0.0.0.0', 8, 'ipv4');
refused.addSubnet('10.0.0.0', 8, 'ipv4');
refused.addSubnet('100.64.0.0', 10, 'ipv4');
refused.addSubnet('127.0.0.0', 8, 'ipv4');
refused.addSubnet('169.254.0.0', 16, 'ipv4');
refused.addSubnet('172.16.0.0', 12, 'ipv4');
refused.addSubnet('192.168.0.0', 16, 'ipv4');
refused.addSubnet('224.0.0.0', 4, 'ipv4');
refused.addSubnet('240.0.0.0', 4, 'ipv4');
refused.addAddress('::', 'ipv6');
refused.addAddress('::1', 'ipv6');
refused.addSubnet('fc00::', 7, 'ipv6');
refused.addSubnet('fe80::', 10, 'ipv6');
refused.addSubnet('ff00::', 8, 'ipv6');
// site-local (deprecated, RFC 3879, still routed inside some networks as private)
refused.addSubnet('fec0::', 10, 'ipv6');
// NAT64 for local use (RFC 8215): translated inside the network it serves
refused.addSubnet('64:ff9b:1::', 48, 'ipv6');

/** X16: why a destination whose host is, or resolves to, a refused address is refused. */
export const REFUSED_DESTINATION = 'must not point to a loopback, private or link-local address';

/** True when `address` (an IPv4 or IPv6 literal) is in a range webhooks are not sent to. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address: never treated as a public one
  if (refused.check(bare, 'ipv6')) return true;
  const embedded = embeddedIpv4(ipv6Bytes(bare));
  return embedded !== null && refused.check(embedded, 'ipv4');
}

/**
 * The IPv4 address an IPv6 one reaches through a translation or tunnel, where the address says it:
 * IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible
 * (`::a.b.c.d`, deprecated), NAT64's well-known prefix (`64:ff9b::a.b.c.d`), 6to4
 * (`2002:AABB:CCDD::`) and Teredo's client (`2001:0:...`, the last 32 bits inverted). `[::ffff:127.0.0.1]`
 * and `[64:ff9b::7f00:1]` reach the loopback as surely as `127.0.0.1` does.
 */
function embeddedIpv4(b: number[]): string | null {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number, mask = 0) =>
    b
      .slice(at, at + 4)
      .map((x) => x ^ mask)
      .join('.');
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // mapped
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12); // translated
  if (zero(0, 12)) return v4(12); // compatible
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return v4(12, 0xff); // Teredo
  return null;
}

/** The 16 bytes of an IPv6 literal that `isIP` accepts (a dotted IPv4 tail included). */
function ipv6Bytes(text: string): number[] {
  const groups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [parseInt(group, 16)];
      const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head, tail] = text.split('::') as [string, string | undefined];
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/** The url's problem, or null when it is an http(s) URL (X16); where it points is checked apart. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  return null;
}
