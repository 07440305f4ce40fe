export { ApplicationErasureService } from './services/application-erasure.service';
export { LegacySpacesModule } from './legacy-spaces.module';
export { ApplicationCanceled, ApplicationDecided, ApplicationSubmitted } from './events/application.events';
export const PUBLISHED_VIEWS = ['space_applicants'] as const;
