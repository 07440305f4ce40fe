import { decodeCredential } from '../../protocol/core';
import { UsageError, type CliContext } from '../context';
import { EXIT } from '../io';

const METHOD = /^[A-Za-z]+$/;

export async function request(context: CliContext): Promise<number> {
  if (context.args.length !== 2) throw new UsageError('usage: plat request <METHOD> <PATH>');
  const [rawMethod, path] = context.args;
  if (!METHOD.test(rawMethod)) throw new UsageError(`not an HTTP method: ${rawMethod}`);
  if (!path.startsWith('/')) throw new UsageError(`PATH must start with "/": ${path}`);
  const method = rawMethod.toUpperCase();

  let body: unknown;
  if (context.values.data !== undefined) {
    const text = await context.readValue(context.values.data, '--data');
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--data is not JSON: ${(error as Error).message}`);
    }
  }
  const credential =
    context.values.credential !== undefined
      ? await context.readValue(context.values.credential, '--credential')
      : undefined;
  if (context.values.anonymous && (credential !== undefined || context.values.jti !== undefined)) {
    throw new UsageError('--anonymous sends no proof: it cannot take --credential or --jti');
  }

  const identity = context.values.anonymous ? undefined : (await context.loadKeys()).identity;
  if (identity && credential !== undefined) warnOnAudience(context, credential, identity.did);
  const response = await context.client().request(method, path, {
    body,
    identity,
    credential,
    jti: context.values.jti,
  });
  if (context.json) {
    context.printJson({ status: response.status, body: response.body });
  } else {
    context.out(`HTTP ${response.status}`);
    if (response.body !== null) {
      context.out(typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2));
    }
  }
  return response.status >= 200 && response.status < 300 ? EXIT.OK : EXIT.REFUSED;
}

/** A credential proof is signed by the app the credential names (design.md §3); say so early. */
function warnOnAudience(context: CliContext, credential: string, did: string): void {
  try {
    const { payload } = decodeCredential(credential);
    if (payload.aud !== did) {
      context.err(
        `warning: the credential is addressed to ${payload.aud}, but this key file is ${did}; ` +
          'the API will refuse it (use the app’s key file)',
      );
    }
  } catch (error) {
    context.err(`warning: --credential does not decode as a PlatCredential: ${(error as Error).message}`);
  }
}
