/** Domain events of legacy applications (emitted inside the write's transaction). */

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

/** The applicant withdrew a pending application. */
export class ApplicationCanceled {
  constructor(
    readonly spaceId: string,
    readonly applicantDid: string,
    readonly applicationId: string,
  ) {}
}
