import { ArgumentsHost } from '@nestjs/common';
import { DatabaseError } from 'pg';
import { QueryFailedError, TypeORMError } from 'typeorm';
import { AllExceptionsFilter } from '../../../src/common/errors/all-exceptions.filter';
import { isDatabaseUnavailable } from '../../../src/infrastructure/database/database-unavailable';

/** A server error as pg raises it, wrapped by TypeORM as a failed query is. */
function serverError(code: string, message = 'server said no'): QueryFailedError {
  const error = new DatabaseError(message, 0, 'error');
  error.code = code;
  return new QueryFailedError('SELECT 1', [], error);
}

function systemError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });
}

describe('isDatabaseUnavailable (0065-database-faults)', () => {
  it.each([
    ['57P01 terminated by an administrator', '57P01'],
    ['57P02 crash shutdown', '57P02'],
    ['57P03 cannot connect now (starting up)', '57P03'],
    ['57P05 idle session timeout', '57P05'],
    ['25P03 idle-in-transaction timeout', '25P03'],
    ['57014 statement_timeout', '57014'],
    ['55P03 lock_timeout', '55P03'],
    ['08006 connection failure (class 08)', '08006'],
    ['08001 cannot establish a connection (class 08)', '08001'],
    ['53300 too many connections (class 53)', '53300'],
    ['53100 disk full (class 53)', '53100'],
  ])('a server error %s is unavailability', (_name, code) => {
    expect(isDatabaseUnavailable(serverError(code))).toBe(true);
  });

  it.each([
    ['23505 unique violation', '23505'],
    ['42P01 undefined table (a bug)', '42P01'],
    ['22P02 invalid text representation', '22P02'],
    ['40001 serialization failure', '40001'],
    ['40P01 deadlock', '40P01'],
    ['57P04 database dropped', '57P04'],
  ])('a server error %s is not', (_name, code) => {
    expect(isDatabaseUnavailable(serverError(code))).toBe(false);
  });

  it('decides a server error by its SQLSTATE only, never by text it may quote from input', () => {
    const quoted = serverError('22P02', 'invalid input syntax for type uuid: "Connection terminated"');
    expect(isDatabaseUnavailable(quoted)).toBe(false);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])(
    'a socket error %s is unavailability',
    (code) => {
      expect(isDatabaseUnavailable(systemError(code))).toBe(true);
      expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], systemError(code)))).toBe(true);
    },
  );

  it('a socket error inside an AggregateError (several addresses tried) is unavailability', () => {
    const aggregate = new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNREFUSED')]);
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
  });

  it.each([
    'timeout exceeded when trying to connect',
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'Query read timeout',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'Cannot use a pool after calling end on the pool',
  ])('the driver error "%s" is unavailability, bare or wrapped', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], new Error(message)))).toBe(true);
    expect(isDatabaseUnavailable(new Error('repository failed', { cause: new Error(message) }))).toBe(true);
  });

  it.each([
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a TypeORM error', new TypeORMError('Transaction already started for the given connection')],
    ['a thrown string', 'Connection terminated'],
    ['nothing', undefined],
    ['an unrelated system error', systemError('ENOENT')],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops on an error that is its own cause', () => {
    const looping = new Error('looping') as Error & { cause?: unknown };
    looping.cause = looping;
    expect(isDatabaseUnavailable(looping)).toBe(false);
  });
});

describe('the global filter on database errors', () => {
  const respond = (exception: unknown) => {
    const response = {
      headersSent: false,
      headers: {} as Record<string, string | number>,
      statusCode: 0,
      body: '',
      setHeader(name: string, value: string | number) {
        this.headers[name] = value;
      },
      status(code: number) {
        this.statusCode = code;
      },
      end(body: string) {
        this.body = body;
      },
    };
    const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
    const filter = new AllExceptionsFilter();
    const quiet = { error: () => undefined, warn: () => undefined };
    (filter as unknown as { logger: typeof quiet }).logger = quiet;
    filter.catch(exception, host);
    return response;
  };

  it('answers unavailability 503 E_SERVICE_UNAVAILABLE in the envelope, without the driver text', () => {
    for (const error of [serverError('57P01'), new Error('timeout exceeded when trying to connect')]) {
      const response = respond(error);
      expect(response.statusCode).toBe(503);
      expect(response.body).toBe(
        '{"code":"E_SERVICE_UNAVAILABLE","message":"Service temporarily unavailable"}',
      );
      expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
      expect(response.headers['Cache-Control']).toBe('no-store');
    }
  });

  it('keeps any other database error a bare 500', () => {
    const response = respond(serverError('42P01', 'relation "nope" does not exist'));
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('{"code":"E_INTERNAL","message":"Internal error"}');
  });
});
