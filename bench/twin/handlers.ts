import { commentThread } from './comments';
import type { TwinHandler } from './context';
import { spaceEvents, upcomingEvents } from './events';
import { healthLive, healthReady } from './health';
import { mediaCdnVariant } from './media';
import { feed, postsListing, singlePost } from './posts';
import { searchAcrossSpaces, spaceSearch } from './search';
import { spaceFetch, spacesDirectory } from './spaces';
import { storeProducts, storePurchasePage } from './store';
import { ownProfile, usersDirectory } from './users';
import { commentCreate, postCreate, postUpvote } from './writes';

/** The bare twin's handlers by name; a scenario names its twin's (bench/scenario-kit.ts). */
export const twinHandlers: Record<string, TwinHandler> = {
  'health live': healthLive,
  'health ready': healthReady,
  'posts listing': postsListing,
  'single post': singlePost,
  feed,
  'comment thread': commentThread,
  'spaces directory': spacesDirectory,
  'space fetch': spaceFetch,
  'users directory': usersDirectory,
  profile: ownProfile,
  'store products': storeProducts,
  'store purchase page': storePurchasePage,
  'space events': spaceEvents,
  'upcoming events': upcomingEvents,
  'post create': postCreate,
  'comment create': commentCreate,
  'post upvote': postUpvote,
  'media cdn variant': mediaCdnVariant,
  'space search': spaceSearch,
  'search across spaces': searchAcrossSpaces,
};
