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

export class ApplicationSubmitted {
  constructor(
    readonly spaceId: string,
    readonly applicantDid: string,
    readonly applicationId: string,
  ) {}
}

export class ApplicationDecided {
  constructor(
    readonly spaceId: string,
    readonly applicantDid: string,
    readonly applicationId: string,
    readonly decision: 'approved' | 'rejected',
    readonly byDid: string,
  ) {}
}
