import {
  applyEnv,
  describeEnv,
  envKey,
  mergeEnv,
  redact,
  SERVICE_DEFAULTS,
} from '../../../bench/service-env';

describe('bench service environments', () => {
  it('keys equal effective environments alike, whatever the order of the variables', () => {
    expect(envKey({ A: '1', B: null })).toBe(envKey({ B: null, A: '1' }));
    expect(envKey({ A: '1' })).not.toBe(envKey({ A: '2' }));
    // Unset is not the same as absent: absent inherits the runner's value.
    expect(envKey({ A: null })).not.toBe(envKey({}));
  });

  it('merges layers, later ones winning, null unsetting', () => {
    expect(mergeEnv({ A: '1', B: '2' }, { B: null, C: '3' })).toEqual({ A: '1', B: null, C: '3' });
    // A scenario that restates a default shares the defaults' process.
    const restated = mergeEnv(SERVICE_DEFAULTS, { RATE_LIMIT_DISABLED: 'true', REDIS_URL: null });
    expect(envKey(restated)).toBe(envKey(mergeEnv(SERVICE_DEFAULTS, {})));
  });

  it('applies an environment over a process environment', () => {
    const base = { PATH: '/bin', REDIS_URL: 'redis://x', EMPTY: undefined };
    expect(applyEnv(base, { REDIS_URL: null, PORT: '1' })).toEqual({ PATH: '/bin', PORT: '1' });
    expect(base.REDIS_URL).toBe('redis://x');
  });

  it('describes differences from the defaults without leaking credentials', () => {
    expect(describeEnv({ ...SERVICE_DEFAULTS, REDIS_URL: 'redis://user:secret@host:6379/1' })).toBe(
      'REDIS_URL=redis://***@host:6379/1',
    );
    expect(describeEnv({ ...SERVICE_DEFAULTS, LOG_LEVEL: null })).toBe('LOG_LEVEL unset');
    expect(redact('postgres://u:p@h/db')).toBe('postgres://***@h/db');
    expect(redact('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
