import {
  cidToBytes,
  computeCid,
  dagCborCanonicalEncode,
  dagCborDecodeCanonical,
  DAG_CBOR_CID_PATTERN,
  fromHex,
  toHex,
} from '../../../src/protocol/core';
import { parseJsonObject } from '../../../src/protocol/core/json';
import { protocolError } from './helpers';

const TEST_VECTOR_CID = 'bafyreihp6omsp6icc6ee63ox2ovsaxm6s7ikd2a7k5eh2qz2qd5soh5bsa';

describe('dag-cbor canonical encoding and CIDs', () => {
  it('encodes the number-determinism vector {"version":1,"type":"test"}', () => {
    const encoded = dagCborCanonicalEncode({ version: 1, type: 'test' });
    expect(toHex(encoded)).toBe('a2647479706564746573746776657273696f6e01');
    expect(encoded.length).toBe(20);
    expect(encoded[19]).toBe(0x01); // CBOR integer 1, not the 0xf9 float16 header
    expect(computeCid({ version: 1, type: 'test' }).cid).toBe(TEST_VECTOR_CID);
  });

  it('gives the same CID after a JSON round trip, whatever the key order or 1.0 spelling', () => {
    const parsed = JSON.parse('{"type":"test","version":1.0}') as object;
    expect(computeCid(parsed).cid).toBe(TEST_VECTOR_CID);
  });

  it('refuses float-encoded CBOR (the WRONG vector) and accepts the canonical bytes', () => {
    const floatEncoded = fromHex('a2647479706564746573746776657273696f6ef93c00');
    expect(protocolError(() => dagCborDecodeCanonical(floatEncoded)).code).toBe('NOT_CANONICAL');
    expect(dagCborDecodeCanonical(fromHex('a2647479706564746573746776657273696f6e01'))).toEqual({
      version: 1,
      type: 'test',
    });
  });

  it('refuses CBOR with unsorted map keys or a non-minimal integer', () => {
    // {"version":1,"type":"test"} with the longer key first
    const unsorted = fromHex('a26776657273696f6e0164747970656474657374');
    expect(['MALFORMED', 'NOT_CANONICAL']).toContain(
      protocolError(() => dagCborDecodeCanonical(unsorted)).code,
    );
    // version 1 as a one-byte-argument integer (0x18 0x01) instead of 0x01
    const nonMinimal = fromHex('a2647479706564746573746776657273696f6e1801');
    expect(['MALFORMED', 'NOT_CANONICAL']).toContain(
      protocolError(() => dagCborDecodeCanonical(nonMinimal)).code,
    );
  });

  it.each([
    ['a fraction', 1.5],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['2^53', 2 ** 53],
    ['-(2^53)', -(2 ** 53)],
  ])('refuses %s anywhere in a payload', (_name, value) => {
    const error = protocolError(() => computeCid({ version: 1, nested: { list: [0, value] } }));
    expect(error.code).toBe('NUMBER_NOT_CANONICAL');
    expect(error.message).toContain('$.nested.list[1]');
  });

  it('accepts the safe-integer bounds as CBOR integers', () => {
    const max = dagCborCanonicalEncode(Number.MAX_SAFE_INTEGER);
    const min = dagCborCanonicalEncode(Number.MIN_SAFE_INTEGER);
    expect(toHex(max)).toBe('1b001fffffffffffff');
    expect(toHex(min)).toBe('3b001ffffffffffffe');
  });

  it.each([
    ['undefined', { a: undefined }],
    ['a bigint', { a: BigInt(1) }],
    ['bytes', { a: new Uint8Array([1]) }],
    ['a Date', { a: new Date(0) }],
  ])('refuses %s (outside the JSON data model)', (_name, value) => {
    expect(protocolError(() => dagCborCanonicalEncode(value)).code).toBe('MALFORMED');
  });

  it('commits strings verbatim, without Unicode normalization', () => {
    const precomposed = computeCid({ s: '\u00e9' }).cid;
    const decomposed = computeCid({ s: 'e\u0301' }).cid;
    expect(precomposed).not.toBe(decomposed);
  });

  it('reproduces the genesis identity operation CBOR (468 bytes) and CID', () => {
    const key = {
      id: 'key_r9ev34fvc23z999veaaft83nn29zvhe',
      type: 'Multikey',
      publicKeyMultibase: 'z6MkrzLMNwoJSV4P3YccWcbtk8vd9LtgMKnLeaDLUqLuASjb',
    };
    const genesis = {
      version: 1,
      type: 'create',
      authKeys: [key],
      assertKeys: [key],
      controllerKeys: [key],
      createdAt: '2026-03-07T00:00:00.000Z',
    };
    const expectedHex =
      'a66474797065666372656174656776657273696f6e0168617574684b65797381a362696478236b' +
      '65795f72396576333466766332337a39393976656161667438336e6e32397a7668656474797065' +
      '684d756c74696b6579727075626c69634b65794d756c74696261736578307a364d6b727a4c4d4e' +
      '776f4a5356345033596363576362746b387664394c74674d4b6e4c6561444c55714c7541536a62' +
      '696372656174656441747818323032362d30332d30375430303a30303a30302e3030305a6a6173' +
      '736572744b65797381a362696478236b65795f72396576333466766332337a3939397665616166' +
      '7438336e6e32397a7668656474797065684d756c74696b6579727075626c69634b65794d756c74' +
      '696261736578307a364d6b727a4c4d4e776f4a5356345033596363576362746b387664394c7467' +
      '4d4b6e4c6561444c55714c7541536a626e636f6e74726f6c6c65724b65797381a362696478236b' +
      '65795f72396576333466766332337a39393976656161667438336e6e32397a7668656474797065' +
      '684d756c74696b6579727075626c69634b65794d756c74696261736578307a364d6b727a4c4d4e' +
      '776f4a5356345033596363576362746b387664394c74674d4b6e4c6561444c55714c7541536a62';
    const computed = computeCid(genesis);
    expect(computed.encoded.length).toBe(468);
    expect(toHex(computed.encoded)).toBe(expectedHex);
    expect(toHex(computed.cidBytes)).toBe(
      '017112204e31ea9cb6ab4516ebdd812f7937e61601db07a16afb45723d286906f5181b69',
    );
    expect(computed.cid).toBe('bafyreicoghvjznvliuloxxmbf54tpzqwahnqpilk7ncxepjinedpkga3ne');
  });

  it('parses only dag-cbor sha-256 CIDv1 strings', () => {
    expect(toHex(cidToBytes(TEST_VECTOR_CID)).startsWith('01711220')).toBe(true);
    expect(DAG_CBOR_CID_PATTERN.test(TEST_VECTOR_CID)).toBe(true);
    // raw-codec CIDv1 (bafkrei…) and CIDv0 are not protocol CIDs
    expect(
      protocolError(() => cidToBytes('bafkreibovzpnn2y6dquvxhidhx64hg7smduemox7drjs4vprjhlbmivfli')).code,
    ).toBe('MALFORMED');
    expect(protocolError(() => cidToBytes('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG')).code).toBe(
      'MALFORMED',
    );
  });
});

describe('JSON segments', () => {
  const bytes = (text: string) => new Uint8Array(Buffer.from(text));

  it('refuses duplicate keys at any depth, even when escaped differently', () => {
    expect(protocolError(() => parseJsonObject(bytes('{"a":1,"a":2}'), 'payload')).message).toContain(
      'duplicate',
    );
    expect(protocolError(() => parseJsonObject(bytes('{"x":{"b":1,"\\u0062":2}}'), 'payload')).code).toBe(
      'MALFORMED',
    );
  });

  it('allows the same key in sibling objects and keys inside string values', () => {
    expect(parseJsonObject(bytes('{"a":{"k":1},"b":{"k":2},"c":"\\"a\\":1,\\"a\\""}'), 'payload')).toEqual({
      a: { k: 1 },
      b: { k: 2 },
      c: '"a":1,"a"',
    });
  });

  it('refuses arrays, scalars and invalid UTF-8', () => {
    expect(protocolError(() => parseJsonObject(bytes('[1]'), 'payload')).code).toBe('MALFORMED');
    expect(protocolError(() => parseJsonObject(bytes('1'), 'payload')).code).toBe('MALFORMED');
    expect(protocolError(() => parseJsonObject(new Uint8Array([0x7b, 0xff, 0x7d]), 'payload')).code).toBe(
      'MALFORMED',
    );
  });
});
