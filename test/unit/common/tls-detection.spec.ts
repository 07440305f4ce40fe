import type { IncomingMessage } from 'node:http';
import { cameOverTls } from '../../../src/infrastructure/http/security-headers';

const requestOver = (encrypted: boolean, forwardedProto?: string | string[]) =>
  ({
    socket: encrypted ? { encrypted: true } : {},
    headers: forwardedProto === undefined ? {} : { 'x-forwarded-proto': forwardedProto },
  }) as unknown as IncomingMessage;

/** Whether an answer may carry Strict-Transport-Security (docs/decisions/0014-response-headers-no-etag-security-headers-on-every-answer.md). */
describe('cameOverTls', () => {
  it('is true for a TLS socket of this process, whatever the headers say', () => {
    expect(cameOverTls(requestOver(true), false)).toBe(true);
    expect(cameOverTls(requestOver(true, 'http'), true)).toBe(true);
  });

  it('believes X-Forwarded-Proto only from a trusted proxy, and only its first entry', () => {
    expect(cameOverTls(requestOver(false), true)).toBe(false);
    expect(cameOverTls(requestOver(false, 'https'), false)).toBe(false);
    expect(cameOverTls(requestOver(false, 'https'), true)).toBe(true);
    expect(cameOverTls(requestOver(false, ' HTTPS , http'), true)).toBe(true);
    expect(cameOverTls(requestOver(false, 'http, https'), true)).toBe(false);
    expect(cameOverTls(requestOver(false, ['http', 'https']), true)).toBe(false);
    expect(cameOverTls(requestOver(false, ''), true)).toBe(false);
  });
});
