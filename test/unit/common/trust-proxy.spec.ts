import express from 'express';
import type { IncomingMessage } from 'node:http';
import { ConfigValidationError, loadConfig } from '../../../src/config/app-config';
import { clientAddress, TrustProxy } from '../../../src/infrastructure/http/client-address';

/**
 * Behind load balancers that append to X-Forwarded-For the first entry is the client's own choice,
 * so TRUST_PROXY also takes a hop count (TRUST_PROXY=2: the second entry from the right is the
 * client); `true` keeps meaning the first entry (design.md §6; docs/decisions/0124-trust-proxy-hops.md).
 */
describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;

  it('reads true/false as before and digits as a hop count', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    for (const value of ['true', 'TRUE', 'yes', 'on', ' true ']) expect(trust(value)).toBe(true);
    for (const value of ['false', 'no', 'off', '0']) expect(trust(value)).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('16')).toBe(16);
  });

  it('refuses anything else at boot (it used to be read as false)', () => {
    for (const value of ['maybe', '-1', '1.5', '2x', '17', '00', 'two', '1,2']) {
      const attempt = () => trust(value);
      expect(attempt).toThrow(ConfigValidationError);
      expect(attempt).toThrow(
        'Invalid configuration:\n  - TRUST_PROXY: TRUST_PROXY must be true, false or a number of proxy hops from 1 to 16',
      );
    }
  });

  describe('the client address', () => {
    const socket = '10.0.0.1';
    const at = (forwardedFor: string | string[] | undefined, setting: TrustProxy) =>
      clientAddress(socket, forwardedFor, setting);

    it('with a hop count is that entry from the right: a spoofed leftmost entry changes nothing', () => {
      // The client sent "6.6.6.6"; the outer balancer appended the client's address, the inner one
      // the outer balancer's.
      const header = '6.6.6.6, 198.51.100.7, 10.0.0.2';
      expect(at(header, 2)).toBe('198.51.100.7');
      expect(at('1.1.1.1, 2.2.2.2, 198.51.100.7, 10.0.0.2', 2)).toBe('198.51.100.7');
      expect(at(header, 1)).toBe('10.0.0.2');
      expect(at('198.51.100.7', 1)).toBe('198.51.100.7');
      expect(at(['6.6.6.6', '198.51.100.7, 10.0.0.2'], 2)).toBe('198.51.100.7');
      // Fewer entries than hops: the leftmost, as Express reads it.
      expect(at('198.51.100.7', 2)).toBe('198.51.100.7');
      expect(at(undefined, 2)).toBe(socket);
      expect(at('[2001:db8::7]:443, 10.0.0.2', 2)).toBe('2001:db8::7');
    });

    it('with true is the first entry, without TRUST_PROXY the socket', () => {
      expect(at('198.51.100.7, 6.6.6.6', true)).toBe('198.51.100.7');
      expect(at('198.51.100.7, 6.6.6.6', false)).toBe(socket);
      expect(clientAddress('::ffff:10.0.0.1', undefined, false)).toBe('::ffff:10.0.0.1');
    });

    it('falls back to the socket address when the chosen entry is not an address', () => {
      expect(at('198.51.100.7, unknown, 10.0.0.2', 2)).toBe(socket);
      expect(at(', 10.0.0.2', 2)).toBe(socket);
      expect(at('unknown', true)).toBe(socket);
    });

    it("agrees with Express's req.ip under the same `trust proxy` setting", () => {
      const headers = [
        undefined,
        '198.51.100.7',
        '6.6.6.6, 198.51.100.7',
        '6.6.6.6, 198.51.100.7, 10.0.0.2',
        '1.1.1.1, 2.2.2.2, 3.3.3.3, 4.4.4.4',
      ];
      for (const setting of [false, true, 1, 2, 3] as TrustProxy[]) {
        const app = express();
        app.set('trust proxy', setting);
        for (const forwardedFor of headers) {
          const request = Object.create(app.request) as IncomingMessage & { ip?: string };
          Object.assign(request, {
            app,
            headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
            socket: { remoteAddress: socket },
            connection: { remoteAddress: socket },
          });
          const ours = clientAddress(socket, forwardedFor, setting);
          expect({ setting, forwardedFor, ip: request.ip }).toEqual({ setting, forwardedFor, ip: ours });
        }
      }
    });
  });
});
