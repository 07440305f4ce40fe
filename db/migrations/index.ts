import { MigrationInterface } from 'typeorm';
import { Events1795930000000 } from './1795930000000-Events';
import { Media1796000000000 } from './1796000000000-Media';
import { IdempotencyKeys1795601512484 } from './1795601512484-IdempotencyKeys';
import { ChainPublications1795700000000 } from './1795700000000-ChainPublications';
import { PostCardText1795800000000 } from './1795800000000-PostCardText';
import { PostsAndComments1795336555785 } from './1795336555785-PostsAndComments';
import { Groups1795335874232 } from './1795335874232-Groups';
import { RelayPendingOperations1795335465374 } from './1795335465374-RelayPendingOperations';
import { KeyProof1795323827066 } from './1795323827066-KeyProof';
import { Notifications1795322749716 } from './1795322749716-Notifications';
import { UserPins1795322481117 } from './1795322481117-UserPins';
import { SpaceSite1795320978939 } from './1795320978939-SpaceSite';
import { Accounts1795320135448 } from './1795320135448-Accounts';
import { Relay1795319773790 } from './1795319773790-Relay';
import { ReplayStore1795318209754 } from './1795318209754-ReplayStore';
import { Spaces1795319372874 } from './1795319372874-Spaces';
import { PublishedReadViews1795600000000 } from './1795600000000-PublishedReadViews';
import { PostTopicCounts1795910000000 } from './1795910000000-PostTopicCounts';
import { Store1795940000000 } from './1795940000000-Store';
import { MediaSpaceIndex1796300000000 } from './1796300000000-MediaSpaceIndex';
import { MediaReferenceViews1796200000000 } from './1796200000000-MediaReferenceViews';
import { AuthorRecordsView1796100000000 } from './1796100000000-AuthorRecordsView';
import { ContentNotifications1796400000000 } from './1796400000000-ContentNotifications';
import { RelayDocumentsPerChain1796510000000 } from './1796510000000-RelayDocumentsPerChain';
import { RelayIdentityCacheEpoch1796510000001 } from './1796510000001-RelayIdentityCacheEpoch';
import { GroupRowsEndWithMembership1796520000000 } from './1796520000000-GroupRowsEndWithMembership';
import { BoundedNotificationPeople1796530000000 } from './1796530000000-BoundedNotificationPeople';
import { MediaSpaceUsage1796540000000 } from './1796540000000-MediaSpaceUsage';
import { JobOutbox1796620000000 } from './1796620000000-JobOutbox';

/** Every migration, in order. `npm run migration:generate -- <Name>` appends new ones here. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  ReplayStore1795318209754,
  Spaces1795319372874,
  Relay1795319773790,
  Accounts1795320135448,
  SpaceSite1795320978939,
  UserPins1795322481117,
  Notifications1795322749716,
  KeyProof1795323827066,
  RelayPendingOperations1795335465374,
  Groups1795335874232,
  PostsAndComments1795336555785,
  PublishedReadViews1795600000000,
  IdempotencyKeys1795601512484,
  ChainPublications1795700000000,
  PostCardText1795800000000,
  PostTopicCounts1795910000000,
  Events1795930000000,
  Store1795940000000,
  Media1796000000000,
  AuthorRecordsView1796100000000,
  MediaReferenceViews1796200000000,
  MediaSpaceIndex1796300000000,
  ContentNotifications1796400000000,
  RelayDocumentsPerChain1796510000000,
  RelayIdentityCacheEpoch1796510000001,
  GroupRowsEndWithMembership1796520000000,
  BoundedNotificationPeople1796530000000,
  MediaSpaceUsage1796540000000,
  JobOutbox1796620000000,
];
