import type { AppConfig } from '../config/app-config';
import { WebhookTargetPolicy } from './webhook-target-policy';

const policy = (production: boolean, webhookAllowedHosts: string[] = []) => new WebhookTargetPolicy({ production, webhookAllowedHosts } as unknown as AppConfig);

describe('WebhookTargetPolicy', () => {
  it.each([
    ['https://2852039166/', 'link-local address'],
    ['https://0251.0376.0251.0376/', 'link-local address'],
    ['https://0xA9FEA9FE/', 'link-local address'],
    ['https://127.1/', 'loopback address'],
    ['https://[::ffff:127.0.0.1]/', 'loopback address'],
    ['https://[::ffff:169.254.169.254]/', 'link-local address'],
    ['https://[64:ff9b::a00:1]/', 'NAT64 address'],
    ['https://[2002:a00:1::]/', '6to4 address'],
    ['https://255.255.255.255/', 'broadcast address'],
    ['https://192.0.2.1/', 'reserved address'],
    ['https://[ff02::1]/', 'multicast address'],
    ['https://printer.local/', 'printer.local is a local name'],
    ['https://router.home.arpa/', 'router.home.arpa is a local name'],
  ])('refuses %s however it is spelled (%s)', (url, reason) => {
    expect(policy(true).problemWithUrl(url)).toBe(reason);
  });

  it('allows public addresses, and loopback outside production only', () => {
    expect(policy(true).problemWithUrl('https://8.8.8.8/hooks')).toBeNull();
    expect(policy(true).problemWithUrl('https://[2606:4700::1]/hooks')).toBeNull();
    expect(policy(false).problemWithUrl('http://127.0.0.1:8080/hooks')).toBeNull();
    expect(policy(false).problemWithUrl('http://localhost:8080/hooks')).toBeNull();
    expect(policy(true).problemWithUrl('https://127.0.0.1/hooks')).toBe('loopback address');
    expect(policy(true).problemWithUrl('https://localhost/hooks')).toBe('localhost is a local name');
    expect(policy(true).problemWithAddress('::1', 'x.example')).toBe('loopback address');
  });

  it('opens allow-listed names (any address they resolve to) and ranges (IPv4-mapped forms too)', () => {
    const open = policy(true, ['hooks.corp.example', '10.9.0.0/16', 'fd00::/8']);
    expect(open.problemWithUrl('https://HOOKS.corp.example/x')).toBeNull();
    expect(open.problemWithAddress('10.1.1.1', 'hooks.corp.example')).toBeNull();
    expect(open.problemWithAddress('10.9.3.4', 'other.example')).toBeNull();
    expect(open.problemWithAddress('::ffff:10.9.3.4', 'other.example')).toBeNull();
    expect(open.problemWithAddress('fd12::1', 'other.example')).toBeNull();
    expect(open.problemWithAddress('10.8.3.4', 'other.example')).toBe('private address');
    expect(open.problemWithUrl('http://hooks.corp.example/x')).toBe('only https URLs are allowed in production');
  });
});
