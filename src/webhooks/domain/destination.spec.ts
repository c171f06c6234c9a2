import { isRefusedAddress, urlProblem } from './destination';

describe('webhook destinations (X16 SSRF guard)', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    // the forms the URL parser writes them in, and other ways an IPv6 address reaches an IPv4 one
    '[::ffff:7f00:1]',
    '[::ffff:0:7f00:1]', // IPv4-translated
    '[::7f00:1]', // IPv4-compatible (::127.0.0.1)
    '[64:ff9b::7f00:1]', // NAT64, well-known prefix
    '[64:ff9b::a9fe:a9fe]', // NAT64 of 169.254.169.254
    '[64:ff9b:1::1]', // NAT64 for local use
    '[2002:7f00:1::]', // 6to4 of 127.0.0.1
    '[2002:c0a8:101::1]', // 6to4 of 192.168.1.1
    '[2001:0:4136:e378:8000:63bf:80ff:fffe]', // Teredo, client 127.0.0.1
    '[fec0::1]', // site-local
  ])('refuses %s', (address) => expect(isRefusedAddress(address)).toBe(true));

  it.each([
    '93.184.216.34',
    '172.32.0.1',
    '8.8.8.8',
    '2606:4700::1111',
    '[64:ff9b::808:808]', // NAT64 of 8.8.8.8
    '[2002:808:808::1]', // 6to4 of 8.8.8.8
    '[::ffff:808:808]',
  ])('accepts %s', (address) => expect(isRefusedAddress(address)).toBe(false));

  it('accepts http and https URLs only', () => {
    expect(urlProblem('https://hooks.example.com/x')).toBeNull();
    expect(urlProblem('http://hooks.example.com:8080/x')).toBeNull();
    expect(urlProblem('ftp://hooks.example.com/x')).toBe('must be an http or https URL');
    expect(urlProblem('hooks.example.com')).toBe('must be an absolute http or https URL');
    expect(urlProblem('https://user:pw@hooks.example.com')).toBe('must not carry credentials');
  });
});
