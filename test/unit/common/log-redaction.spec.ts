import pino from 'pino';
import { isSecretName, redactText, redactUrl } from '../../../src/infrastructure/logging/log-redaction';
import { loggerOptions } from '../../../src/infrastructure/logging/logging.module';

/**
 * No signature, code or token of a URL reaches a log line, wherever it is quoted
 * (docs/decisions/0122-secrets-out-of-logs.md).
 */
describe('log redaction', () => {
  it('redacts the signature of upload, media-file and poster URLs, and keeps the rest', () => {
    expect(redactUrl('/uploads/media_1?exp=1798761600&sig=AbC-_x')).toBe(
      '/uploads/media_1?exp=1798761600&sig=[redacted]',
    );
    expect(redactUrl('/media-files/media_1/a%20b.txt?exp=1&sig=S1G')).toBe(
      '/media-files/media_1/a%20b.txt?exp=1&sig=[redacted]',
    );
    expect(redactUrl('/media-posters/media_1.jpg?sig=S1G&exp=1')).toBe(
      '/media-posters/media_1.jpg?sig=[redacted]&exp=1',
    );
    expect(redactUrl('/uploads/media_1?exp=1&sig=')).toBe('/uploads/media_1?exp=1&sig=[redacted]');
  });

  it('redacts every member named like a secret, whatever its spelling', () => {
    const cases: [string, string][] = [
      ['/x?code=C0DE&x=1', '/x?code=[redacted]&x=1'],
      ['/x?SIG=s', '/x?SIG=[redacted]'],
      ['/x?%73ig=s', '/x?%73ig=[redacted]'],
      ['/x?sig[]=s&sig[a]=t', '/x?sig[]=[redacted]&sig[a]=[redacted]'],
      [
        '/x?access_token=t&refresh_token=t&token=t',
        '/x?access_token=[redacted]&refresh_token=[redacted]&token=[redacted]',
      ],
      ['/x?api_key=k&apikey=k&key=k', '/x?api_key=[redacted]&apikey=[redacted]&key=[redacted]'],
      [
        '/x?X-Amz-Signature=s&X-Amz-Credential=c&X-Amz-Security-Token=t',
        '/x?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]&X-Amz-Security-Token=[redacted]',
      ],
      [
        '/x?password=p&secret=s&jwt=j&proof=p&credential=c',
        '/x?password=[redacted]&secret=[redacted]&jwt=[redacted]&proof=[redacted]&credential=[redacted]',
      ],
      ['/x?sig=a&sig=b', '/x?sig=[redacted]&sig=[redacted]'],
    ];
    for (const [url, redacted] of cases)
      expect({ url, logged: redactUrl(url) }).toEqual({ url, logged: redacted });
  });

  it('leaves members that carry no secret alone, and URLs without a query untouched', () => {
    for (const url of [
      '/v1/spaces?limit=20&after=opaque-cursor',
      '/cdn/media_1/a.png?w=10&h=20&fit=cover&auto=format',
      '/v1/spaces',
      '/v1/spaces/s1/posts?topic=t&sort=top',
      '/spaces/s1/my-invite',
      '/v1/x?sig',
      '/',
      '',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('redacts the codes that travel in paths, in any case, also in the absolute form', () => {
    expect(redactUrl('/key-proofs/ABCD1234')).toBe('/key-proofs/[redacted]');
    expect(redactUrl('/key-proofs/ABCD1234/adopt?x=1')).toBe('/key-proofs/[redacted]/adopt?x=1');
    expect(redactUrl('/KEY-PROOFS/abc/decline')).toBe('/KEY-PROOFS/[redacted]/decline');
    expect(redactUrl('/spaces/invites/abc')).toBe('/spaces/invites/[redacted]');
    expect(redactUrl('/spaces/join/abc?code=abc')).toBe('/spaces/join/[redacted]?code=[redacted]');
    expect(redactUrl('http://api.plat.test/spaces/join/abc')).toBe(
      'http://api.plat.test/spaces/join/[redacted]',
    );
    expect(redactUrl('http://api.plat.test/uploads/m?exp=1&sig=s')).toBe(
      'http://api.plat.test/uploads/m?exp=1&sig=[redacted]',
    );
  });

  it('redacts the secrets of URLs quoted in free text (messages, error messages, stacks)', () => {
    expect(redactText('fetch of https://cdn.example/uploads/m?exp=1&sig=S3CR3T failed: ECONNRESET')).toBe(
      'fetch of https://cdn.example/uploads/m?exp=1&sig=[redacted] failed: ECONNRESET',
    );
    expect(redactText('GET "/v1/key-proof/status?code=ABCD1234" refused')).toBe(
      'GET "/v1/key-proof/status?code=[redacted]" refused',
    );
    expect(redactText('at https://x.test/key-proofs/ABCD1234/adopt')).toBe(
      'at https://x.test/key-proofs/[redacted]/adopt',
    );
    expect(redactText('request completed')).toBe('request completed');
    expect(redactText('Mapped {/spaces/join/:code, POST} route')).toBe(
      'Mapped {/spaces/join/:code, POST} route',
    );
    expect(redactText('media media_1 failed: ffprobe exited 1')).toBe(
      'media media_1 failed: ffprobe exited 1',
    );
  });

  it('judges names after percent-decoding and before brackets', () => {
    expect(isSecretName('sig')).toBe(true);
    expect(isSecretName('%53IG')).toBe(true);
    expect(isSecretName('code[0]')).toBe(true);
    expect(isSecretName('exp')).toBe(false);
    expect(isSecretName('after')).toBe(false);
    expect(isSecretName('%E0%A4%A')).toBe(false);
  });

  describe('through the service logger', () => {
    const logged = (write: (logger: pino.Logger) => void): string => {
      let text = '';
      const logger = pino(loggerOptions({ LOG_LEVEL: 'info' }), { write: (line: string) => (text += line) });
      write(logger);
      return text;
    };

    it('redacts a message, its format arguments, an error logged alone and an `err` member', () => {
      const url = 'https://media.example/uploads/m?exp=1&sig=LEAKED1';
      const text = [
        logged((logger) => logger.warn(`upload to ${url} failed`)),
        logged((logger) => logger.warn('upload to %s failed', url)),
        logged((logger) => logger.error(new Error(`GET ${url}: 502`))),
        // Child loggers (Nest's context loggers are ones) keep the hook.
        logged((logger) => logger.child({ context: 'Jobs' }).warn(`retrying ${url}`)),
        logged((logger) => logger.warn({ url }, 'outbound call failed')),
        logged((logger) =>
          logger.error({ err: new Error(`GET ${url}: 502`), job: 'media.probe' }, 'job failed'),
        ),
      ];
      for (const line of text) {
        expect(line).not.toContain('LEAKED1');
        expect(line).toContain('sig=[redacted]');
      }
      const alone = JSON.parse(text[2]) as { msg: string; err: { message: string; stack: string } };
      // The value runs to a separator; the colon after it goes with it (over-redacting is the safe side).
      expect(alone.msg).toBe('GET https://media.example/uploads/m?exp=1&sig=[redacted] 502');
      expect(alone.err.message).toBe(alone.msg);
      expect(alone.err.stack).toContain('sig=[redacted]');
    });
  });
});
