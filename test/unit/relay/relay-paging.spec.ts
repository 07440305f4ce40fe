import { RelayError } from '../../../src/protocol/relay/domain/relay-error';
import {
  parseIndexOrder,
  parseRelayBoolean,
  parseRelayLimit,
} from '../../../src/protocol/relay/domain/relay-paging';

const relayError = (fn: () => unknown): RelayError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a RelayError');
};

describe('relay paging parameters', () => {
  it('limit: default 100, clamped to 1000, otherwise a positive decimal integer', () => {
    expect(parseRelayLimit(undefined)).toBe(100);
    expect(parseRelayLimit('1')).toBe(1);
    expect(parseRelayLimit('1000')).toBe(1000);
    expect(parseRelayLimit('1001')).toBe(1000);
    expect(parseRelayLimit('999999999999999')).toBe(1000);
    for (const bad of ['', '0', '-1', '1.5', '1e3', '0x10', ' 5', 'ten', '9999999999999999']) {
      const error = relayError(() => parseRelayLimit(bad));
      expect([error.status, error.message]).toEqual([400, 'limit must be a positive integer']);
    }
  });

  it('booleans fail closed: only exactly true or false', () => {
    expect(parseRelayBoolean(undefined)).toBeUndefined();
    expect(parseRelayBoolean('true')).toBe(true);
    expect(parseRelayBoolean('false')).toBe(false);
    for (const bad of ['', 'TRUE', '1', 'yes', 'false ']) {
      expect(relayError(() => parseRelayBoolean(bad)).message).toBe('invalid boolean');
    }
  });

  it('order: the two time orderings only', () => {
    expect(parseIndexOrder(undefined)).toBeUndefined();
    expect(parseIndexOrder('genesisAt.desc')).toBe('genesisAt.desc');
    expect(parseIndexOrder('headAt.desc')).toBe('headAt.desc');
    for (const bad of ['headAt.asc', 'createdAt.desc', '']) {
      expect(relayError(() => parseIndexOrder(bad)).status).toBe(400);
    }
  });
});
