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
  ])('refuses %s', (address) => expect(isRefusedAddress(address)).toBe(true));

  it.each(['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111'])('accepts %s', (address) =>
    expect(isRefusedAddress(address)).toBe(false),
  );

  it('accepts http and https URLs only', () => {
    expect(urlProblem('https://hooks.example.com/x')).toBeNull();
    expect(urlProblem('http://hooks.example.com:8080/x')).toBeNull();
    expect(urlProblem('ftp://hooks.example.com/x')).toBe('must be an http or https URL');
    expect(urlProblem('hooks.example.com')).toBe('must be an absolute http or https URL');
    expect(urlProblem('https://user:pw@hooks.example.com')).toBe('must not carry credentials');
  });
});
