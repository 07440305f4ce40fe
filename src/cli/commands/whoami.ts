import { UsageError, type CliContext } from '../context';
import { EXIT } from '../io';
import { describeKeys } from './identity';

/** The key file's identity, from the file alone (no network). */
export async function whoami(context: CliContext): Promise<number> {
  if (context.args.length > 0) throw new UsageError(`unexpected argument: ${context.args[0]}`);
  const { identity, file } = await context.loadKeys();
  const keys = describeKeys(identity);
  const published = file.published ?? null;
  if (context.json) {
    context.printJson({
      did: identity.did,
      keyFile: context.keysPath,
      headCid: identity.headCid,
      operations: identity.log.length,
      keys,
      published,
      account: file.account ?? null,
    });
    return EXIT.OK;
  }
  context.out(identity.did);
  context.out(`Key file: ${context.keysPath}`);
  context.out(`Head: ${identity.headCid} (${identity.log.length} operation(s))`);
  context.out('Keys:');
  for (const key of keys)
    context.out(`  ${key.id}  ${key.roles.length > 0 ? key.roles.join(',') : 'removed'}`);
  if (published) {
    const behind = published.headCid === identity.headCid ? '' : ' — local head is newer, publish again';
    context.out(`Published: ${published.relayUrl}${behind}`);
  } else {
    context.out('Published: no (run "plat identity publish")');
  }
  context.out(
    file.account ? `Account: @${file.account.handle} on ${file.account.api}` : 'Account: none claimed',
  );
  return EXIT.OK;
}
