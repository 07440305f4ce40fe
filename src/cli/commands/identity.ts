import { KeyFileError, PlatIdentity, type KeyFileJson, type OperationResult } from '../../protocol/client';
import { UsageError, type CliContext } from '../context';
import { EXIT } from '../io';

const HANDLE_PATTERN = /^[a-z0-9][a-z0-9-]{1,28}[a-z0-9]$/;

function checkHandle(handle: string | undefined): string | undefined {
  if (handle === undefined) return undefined;
  const lower = handle.toLowerCase();
  if (!HANDLE_PATTERN.test(lower)) {
    throw new UsageError(`handle must be 3-30 characters: lowercase letters, digits and inner hyphens`);
  }
  return lower;
}

export function describeKeys(identity: PlatIdentity): Array<{ id: string; roles: string[] }> {
  return identity.heldKeys().map(({ key, roles }) => ({ id: key.keyId, roles }));
}

interface OnlineSteps {
  published?: { relayUrl: string; results: OperationResult[] };
  account?: { api: string; handle: string; profile: unknown };
}

/**
 * Publishes the log and claims the account, saving each step into the key file as it succeeds, so a
 * failure half-way leaves an accurate file behind.
 */
async function goOnline(
  context: CliContext,
  identity: PlatIdentity,
  file: KeyFileJson,
  handle: string | undefined,
): Promise<OnlineSteps> {
  const client = context.client();
  const steps: OnlineSteps = {};
  const results = await client.publishOperations(identity.log);
  const relayUrl = await client.relayUrl();
  steps.published = { relayUrl, results };
  file.published = { relayUrl, headCid: identity.headCid };
  await context.saveKeys(file, true);
  if (!context.json) {
    const statuses = results.map((result) => result.status).join(', ');
    context.out(`Published ${results.length} operation(s) to ${relayUrl} (${statuses})`);
  }
  if (handle !== undefined) {
    const profile = await client.createAccount(identity, handle, context.values['display-name']);
    steps.account = { api: client.baseUrl, handle, profile };
    file.account = { api: client.baseUrl, handle };
    await context.saveKeys(file, true);
    if (!context.json) context.out(`Claimed account @${handle} on ${client.baseUrl}`);
  }
  return steps;
}

export async function identityCreate(context: CliContext): Promise<number> {
  if (context.args.length > 0) throw new UsageError(`unexpected argument: ${context.args[0]}`);
  const handle = checkHandle(context.values.handle);
  if (context.values.offline && (handle !== undefined || context.values.api)) {
    throw new UsageError('--offline cannot be combined with --handle or --api');
  }
  if (context.values['display-name'] !== undefined && handle === undefined) {
    throw new UsageError('--display-name needs --handle');
  }
  const online = !context.values.offline && (context.apiGiven || handle !== undefined);
  if (online) void context.apiUrl; // validate before any key is generated

  const identity = PlatIdentity.create({ assert: context.values.assert === true, clock: context.clock });
  const file = identity.toKeyFile();
  try {
    await context.saveKeys(file, context.values.force === true);
  } catch (error) {
    if (error instanceof KeyFileError && !context.values.force) {
      throw new KeyFileError(
        `${error.message} (use --keys <file> for another identity, or --force to replace it: its keys are then lost)`,
      );
    }
    throw error;
  }
  if (!context.json) {
    context.out(`Created identity ${identity.did}`);
    context.out(`Key file: ${context.keysPath} (mode 0600)`);
    for (const key of describeKeys(identity)) context.out(`  ${key.id}  ${key.roles.join(',')}`);
  }
  let steps: OnlineSteps = {};
  if (online) {
    try {
      steps = await goOnline(context, identity, file, handle);
    } catch (error) {
      context.err(`The keys are saved in ${context.keysPath}; retry with "plat identity publish".`);
      throw error;
    }
  } else if (!context.json) {
    context.out('Not published (offline): run "plat identity publish --api <url>" to publish it.');
  }
  if (context.json) {
    context.printJson({
      did: identity.did,
      keyFile: context.keysPath,
      headCid: identity.headCid,
      keys: describeKeys(identity),
      genesis: identity.genesis,
      published: steps.published ?? null,
      account: steps.account ?? null,
    });
  }
  return EXIT.OK;
}

export async function identityPublish(context: CliContext): Promise<number> {
  if (context.args.length > 0) throw new UsageError(`unexpected argument: ${context.args[0]}`);
  const handle = checkHandle(context.values.handle);
  if (context.values['display-name'] !== undefined && handle === undefined) {
    throw new UsageError('--display-name needs --handle');
  }
  const { identity, file } = await context.loadKeys();
  const steps = await goOnline(context, identity, { ...file, ...identity.toKeyFile(file) }, handle);
  if (context.json) {
    context.printJson({ did: identity.did, published: steps.published, account: steps.account ?? null });
  }
  return EXIT.OK;
}
