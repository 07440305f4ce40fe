/**
 * Named palette tokens a group's `color` may hold (api-spec.md: a named palette token such as cyan,
 * not a CSS value). Writes accept only these; reads pass any stored token through.
 */
export const GROUP_COLORS = [
  'gray',
  'red',
  'orange',
  'amber',
  'yellow',
  'lime',
  'green',
  'emerald',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
] as const;
export type GroupColor = (typeof GROUP_COLORS)[number];

export const GROUP_LIMITS = { name: 100, description: 1000 } as const;

/** Roles a membership listing filters on (open enum on output). */
export const MEMBERSHIP_ROLES = ['owner', 'admin', 'member'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];
