import { RelayContentChain } from './content-chain.entity';
import { RelayIdentityChain } from './identity-chain.entity';
import { RelayOriginKey } from './origin-key.entity';
import { RelayDocument } from './relay-document.entity';
import { RelayOperation } from './relay-operation.entity';
import { RelayPendingOperation } from './relay-pending-operation.entity';
import { RelayRevocation } from './relay-revocation.entity';

export {
  RelayContentChain,
  RelayDocument,
  RelayIdentityChain,
  RelayOperation,
  RelayOriginKey,
  RelayPendingOperation,
  RelayRevocation,
};
export type { RelayOperationKind } from './relay-operation.entity';

export const RELAY_ENTITIES = [
  RelayOperation,
  RelayIdentityChain,
  RelayContentChain,
  RelayDocument,
  RelayRevocation,
  RelayOriginKey,
  RelayPendingOperation,
];
