/** Domain events of space membership (emitted inside the write's transaction). */

/** Someone became an active member (joined, accepted an invite, was approved). */
export class MemberJoined {
  constructor(
    readonly spaceId: string,
    readonly memberDid: string,
  ) {}
}

export class MemberRoleChanged {
  constructor(
    readonly spaceId: string,
    readonly memberDid: string,
    readonly role: string,
    readonly byDid: string,
  ) {}
}

export class MemberKicked {
  constructor(
    readonly spaceId: string,
    readonly memberDid: string,
    readonly byDid: string,
  ) {}
}

export class MemberBanned {
  constructor(
    readonly spaceId: string,
    readonly memberDid: string,
    readonly byDid: string,
  ) {}
}

/** An active membership ended (left or removed); the person is no longer a member. */
export class MembershipEnded {
  constructor(
    readonly spaceId: string,
    readonly memberDid: string,
    readonly status: 'left' | 'removed',
  ) {}
}

/** A space was deleted (soft): every route answers 404 for it from now on. */
export class SpaceDeleted {
  constructor(readonly spaceId: string) {}
}
