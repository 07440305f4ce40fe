import { issueCredential, parseDuration, revokeCredential } from '../../protocol/client';
import { UsageError, type CliContext } from '../context';
import { EXIT } from '../io';

/** Backdating `iat` a little keeps a fresh credential valid on a server whose clock lags ours. */
const ISSUE_BACKDATE_SECONDS = 60;

function splitList(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

export async function credentialIssue(context: CliContext): Promise<number> {
  if (context.args.length > 0) throw new UsageError(`unexpected argument: ${context.args[0]}`);
  const audience = context.values.aud;
  if (!audience) throw new UsageError('--aud <appDid> is required');
  const scopes = splitList(context.values.scope);
  if (scopes.length === 0) throw new UsageError('at least one --scope is required');
  const expiresInSeconds = parseDuration(context.values.expires ?? '30d');
  const { identity } = await context.loadKeys();
  const credential = issueCredential(identity, {
    audience,
    host: context.host,
    scopes,
    spaces: splitList(context.values.space),
    expiresInSeconds,
    backdateSeconds: ISSUE_BACKDATE_SECONDS,
    clock: context.clock,
  });
  if (context.json) {
    context.printJson({ cid: credential.cid, token: credential.token, payload: credential.payload });
  } else {
    context.out(credential.token);
    const expires = new Date(credential.payload.exp * 1000).toISOString();
    context.err(
      `Credential ${credential.cid} from ${identity.did} to ${audience} for ${context.host}, expires ${expires}`,
    );
  }
  return EXIT.OK;
}

export async function credentialRevoke(context: CliContext): Promise<number> {
  if (context.args.length !== 1) {
    throw new UsageError('give exactly one credential (token, CID, or "-" for stdin)');
  }
  const credential = await context.readValue(context.args[0], 'the credential');
  const { identity } = await context.loadKeys();
  const revocation = revokeCredential(identity, credential, { clock: context.clock });
  let published: { relayUrl: string; status: string } | null = null;
  if (!context.values.offline) {
    const client = context.client();
    const [result] = await client.publishOperations([revocation.token]);
    published = { relayUrl: await client.relayUrl(), status: result.status };
  }
  if (context.json) {
    context.printJson({
      credentialCID: revocation.payload.credentialCID,
      cid: revocation.cid,
      token: revocation.token,
      published,
    });
  } else {
    context.out(revocation.token);
    context.err(
      published
        ? `Revoked ${revocation.payload.credentialCID}: revocation ${revocation.cid} published to ${published.relayUrl} (${published.status})`
        : `Revocation ${revocation.cid} of ${revocation.payload.credentialCID} signed, not published (--offline)`,
    );
  }
  return EXIT.OK;
}
