import * as dagCbor from '@ipld/dag-cbor';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

describe('ESM-only dependencies load under Jest', () => {
  it('computes the protocol test-vector CID', async () => {
    const bytes = dagCbor.encode({ version: 1, type: 'test' });
    const cid = CID.create(1, dagCbor.code, await sha256.digest(bytes));
    expect(cid.toString()).toBe('bafyreihp6omsp6icc6ee63ox2ovsaxm6s7ikd2a7k5eh2qz2qd5soh5bsa');
  });
});
