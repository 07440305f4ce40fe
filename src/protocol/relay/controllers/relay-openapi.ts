import { RelayErrorResponse } from '../dto/relay-responses.dto';

/** The OpenAPI descriptions the relay's controllers share. */
export const NOT_FOUND = 'unknown or malformed id: the service’s constant 404 body';
export const BAD_REQUEST = { type: RelayErrorResponse, description: 'invalid input, `{error}`' };
