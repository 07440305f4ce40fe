import { ArgumentsHost, NotFoundException } from '@nestjs/common';
import { invalidRequest, notFound, serviceUnavailable } from '../../../src/common/errors/api-error';
import { RelayExceptionFilter } from '../../../src/protocol/relay/controllers/relay-exception.filter';
import { RelayError } from '../../../src/protocol/relay/domain/relay-error';

interface Captured {
  status?: number;
  headers: Record<string, string>;
  body?: string;
}

function hostFor(captured: Captured): ArgumentsHost {
  const response = {
    headersSent: false,
    status(code: number) {
      captured.status = code;
      return response;
    },
    setHeader(name: string, value: string) {
      captured.headers[name.toLowerCase()] = value;
    },
    end(body?: string) {
      captured.body = body;
    },
  };
  return { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
}

const run = (exception: unknown): Captured => {
  const captured: Captured = { headers: {} };
  new RelayExceptionFilter().catch(exception, hostFor(captured));
  return captured;
};

describe('RelayExceptionFilter', () => {
  it('writes relay errors as {error}', () => {
    const out = run(new RelayError(400, 'unknown cursor'));
    expect(out.status).toBe(400);
    expect(JSON.parse(out.body!)).toEqual({ error: 'unknown cursor' });
    expect(out.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(out.headers['cache-control']).toBe('no-store');
  });

  it('turns validation 400s into {error, details}', () => {
    const out = run(invalidRequest('Invalid request', [{ path: 'operations', message: 'too many' }]));
    expect(out.status).toBe(400);
    expect(JSON.parse(out.body!)).toEqual({
      error: 'Invalid request',
      details: [{ path: 'operations', message: 'too many' }],
    });
  });

  it('keeps the constant 404 body for every not-found, relay-raised ones included', () => {
    for (const exception of [notFound(), new RelayError(404, 'blob not found'), new NotFoundException()]) {
      const out = run(exception);
      expect(out.status).toBe(404);
      expect(out.body).toBe('{"code":"E_NOT_FOUND","message":"Not found"}');
    }
  });

  it('leaves 5xx to the service envelope', () => {
    const out = run(serviceUnavailable('Revocation status is unavailable'));
    expect(out.status).toBe(503);
    expect(JSON.parse(out.body!)).toEqual({
      code: 'E_SERVICE_UNAVAILABLE',
      message: 'Revocation status is unavailable',
    });
  });
});
