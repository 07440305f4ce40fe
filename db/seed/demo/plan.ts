/**
 * The demo community `npm run seed` creates (docs/decisions/0103-demo-community-seed.md): a few people
 * with real identity chains and public profiles, two public spaces with an owner, an admin and
 * members, topics (one members-only), posts with comments and upvotes, a weekly event and a product.
 * Everything is named, so a second run finds what the first one made instead of duplicating it.
 */

export interface DemoPerson {
  /** the account handle, also the key file's name (`<handle>.json`) */
  handle: string;
  displayName: string;
  bio: string;
}

export interface DemoComment {
  author: string;
  body: string;
}

export interface DemoPost {
  author: string;
  /** the topic's name */
  topic: string;
  title: string;
  body: string;
  comments: DemoComment[];
  upvotedBy: string[];
}

export interface DemoEvent {
  title: string;
  description: string;
  location: string;
  /** weekday of the first occurrence (1 Monday … 7 Sunday), in `timeZone`, at `hour`:00 */
  weekday: number;
  hour: number;
  durationHours: number;
  timeZone: string;
  rrule: string | null;
}

export interface DemoProduct {
  slug: string;
  name: string;
  description: string;
  prices: Array<{ type: 'one-time'; currency: string; amount: number }>;
}

export interface DemoSpace {
  domain: string;
  displayName: string;
  description: string;
  category: string;
  owner: string;
  admins: string[];
  members: string[];
  topics: Array<{ name: string; description: string; access: 'public' | 'signedIn' | 'members' }>;
  posts: DemoPost[];
  events: DemoEvent[];
  products: DemoProduct[];
}

export interface DemoPlan {
  people: DemoPerson[];
  spaces: DemoSpace[];
}

export const DEMO_PLAN: DemoPlan = {
  people: [
    {
      handle: 'alice',
      displayName: 'Alice Moreau',
      bio: 'Runs the Riverside Makers workshop. Wood, lamps and too many clamps.',
    },
    {
      handle: 'bob',
      displayName: 'Bob Okafor',
      bio: 'Laser cutter whisperer; keeps the tool library in order.',
    },
    { handle: 'carol', displayName: 'Carol Lindqvist', bio: 'Textiles, patterns and repair cafés.' },
    { handle: 'dave', displayName: 'Dave Ito', bio: 'Electronics tinkerer. Also looks at the sky a lot.' },
    {
      handle: 'erin',
      displayName: 'Erin Castillo',
      bio: 'Amateur astronomer; hosts the Night Sky Club.',
    },
  ],
  spaces: [
    {
      domain: 'riverside-makers',
      displayName: 'Riverside Makers',
      description: 'A neighbourhood workshop: share projects, borrow tools, meet on Thursdays.',
      category: 'crafts',
      owner: 'alice',
      admins: ['bob'],
      members: ['bob', 'carol', 'dave', 'erin'],
      topics: [
        { name: 'Announcements', description: 'News from the workshop', access: 'public' },
        { name: 'Projects', description: 'What you are building', access: 'public' },
        { name: 'Members lounge', description: 'For members only', access: 'members' },
      ],
      posts: [
        {
          author: 'alice',
          topic: 'Announcements',
          title: 'Welcome to Riverside Makers',
          body: 'Hello everyone! This is our new home. Introduce yourself below and tell us what you make.',
          comments: [
            {
              author: 'bob',
              body: 'Glad to be here. I will bring the laser cutter settings sheet on Thursday.',
            },
            { author: 'carol', body: 'Hi all, Carol here: textiles and repairs. Happy to help with sewing.' },
          ],
          upvotedBy: ['bob', 'carol', 'dave'],
        },
        {
          author: 'bob',
          topic: 'Projects',
          title: 'Laser-cut lamp: build log',
          body: 'Plywood, 3 mm, 14 layers. The trick is to cut the inner rings in one pass.',
          comments: [{ author: 'erin', body: 'Beautiful! Could it hold a red bulb for night observing?' }],
          upvotedBy: ['alice', 'erin'],
        },
        {
          author: 'carol',
          topic: 'Projects',
          title: 'Looking for a sewing-machine buddy',
          body: 'I am servicing two old machines this month. Anyone want to learn along?',
          comments: [],
          upvotedBy: ['alice'],
        },
        {
          author: 'dave',
          topic: 'Members lounge',
          title: 'Tool library inventory',
          body: 'The soldering station is back; the cordless drill is still out with Bob.',
          comments: [{ author: 'bob', body: 'Returning the drill on Thursday, promise.' }],
          upvotedBy: [],
        },
      ],
      events: [
        {
          title: 'Open workshop night',
          description: 'Bring a project or just come and look. Tools and tea provided.',
          location: 'Riverside Makers, Unit 4',
          weekday: 4,
          hour: 18,
          durationHours: 3,
          timeZone: 'Europe/Berlin',
          rrule: 'FREQ=WEEKLY;BYDAY=TH',
        },
      ],
      products: [
        {
          slug: 'workshop-card',
          name: 'Workshop card',
          description: 'Ten open-workshop visits, material for small projects included.',
          prices: [{ type: 'one-time', currency: 'EUR', amount: 2500 }],
        },
      ],
    },
    {
      domain: 'night-sky-club',
      displayName: 'Night Sky Club',
      description: 'Observing nights, star parties and beginner questions welcome.',
      category: 'science',
      owner: 'erin',
      admins: [],
      members: ['alice', 'dave'],
      topics: [{ name: 'Observations', description: 'What you saw last night', access: 'public' }],
      posts: [
        {
          author: 'erin',
          topic: 'Observations',
          title: 'Perseids this weekend',
          body: 'Peak is Saturday night. Meet at the hill car park at 23:00, bring something warm.',
          comments: [{ author: 'dave', body: 'I will bring the big binoculars.' }],
          upvotedBy: ['alice', 'dave'],
        },
      ],
      events: [
        {
          title: 'Star party on the hill',
          description: 'Telescopes for everyone; cancelled when cloudy.',
          location: 'Hill car park',
          weekday: 6,
          hour: 22,
          durationHours: 3,
          timeZone: 'Europe/Berlin',
          rrule: null,
        },
      ],
      products: [],
    },
  ],
};
