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

/** True when `address` (an IPv4 or IPv6 literal) is in a range webhooks are not sent to. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) reaches the IPv4 host it embeds.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return refused.check(mapped[1], 'ipv4');
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family === 6) return refused.check(bare, 'ipv6');
  return true; // not an address: never treated as a public one
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
