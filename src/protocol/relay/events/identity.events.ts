/**
 * Domain events of identity chains, emitted by the relay's ingest inside the transaction that
 * stores the operation (delivered after its commit through `DomainEvents.afterCommit`). Reads need
 * no subscriber: they follow the published view `deactivated_identities`
 * (docs/decisions/0190-deactivation-follows-the-identity-chain.md); these are for work a
 * deactivation must cause, such as closing the person's open live streams.
 */

/** An ingested `delete` became the head of the identity chain of `did`. */
export class IdentityDeactivated {
  constructor(readonly did: string) {}
}

/** An ingested `restore` undid the delete of the identity chain of `did`. */
export class IdentityRestored {
  constructor(readonly did: string) {}
}
