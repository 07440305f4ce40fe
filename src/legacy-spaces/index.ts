export { ApplicationCanceled, ApplicationDecided, ApplicationSubmitted } from './events/application.events';
