import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { DestinationGuard } from '../application/destination-guard';
import { REFUSED_DESTINATION, isRefusedAddress } from '../domain/destination';

/**
 * X16 SSRF guard: a url whose host is, or resolves to, any loopback, private or link-local address is
 * refused. Every address of the name counts (a name with one public and one private address is
 * refused), and a name that does not resolve is refused too. The worker checks again before each
 * attempt (docs/webhooks.md), so a name re-pointed later is caught then.
 */
@Injectable()
export class DnsDestinationGuard extends DestinationGuard {
  async problem(raw: string): Promise<string | null> {
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
      } catch {
        return 'must name a host that resolves';
      }
    }
    if (addresses.length === 0 || addresses.some(isRefusedAddress)) {
      return REFUSED_DESTINATION;
    }
    return null;
  }
}
