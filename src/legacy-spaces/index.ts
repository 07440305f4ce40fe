export { ApplicationCanceled, ApplicationDecided, ApplicationSubmitted } from './events/application.events';
export const PUBLISHED_VIEWS = ['space_applicants'] as const;
