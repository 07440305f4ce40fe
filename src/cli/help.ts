export const MAIN_HELP = `plat — PLAT identities, credentials and signed requests

Usage:
  plat identity create [--handle <h>] [--display-name <name>] [--assert] [--api <url>] [--force]
  plat identity publish [--handle <h>] [--display-name <name>] [--api <url>]
  plat credential issue --aud <appDid> --scope <scope> [--space <did|*>] [--expires 30d]
  plat credential revoke <credential|cid|-> [--offline]
  plat request <METHOD> <PATH> [--data <json|@file|@->] [--credential <token|@file>] [--anonymous]
  plat whoami
  plat <command> --help

Options for every command:
  --keys <file>   key file (env PLAT_KEYS; default ~/.config/plat/keys.json,
                  or $XDG_CONFIG_HOME/plat/keys.json)
  --api <url>     API base URL (env PLAT_API; default http://localhost:3000)
  --host <host>   the API's public host, named by proofs (aud) and credentials (host)
                  (env PLAT_HOST; default: the host of the API URL)
  --json          machine-readable output
  -h, --help      this help

Exit codes: 0 ok, 1 failure, 2 usage error, 3 key file problem,
            4 the API or relay refused (error status or rejected operation)
`;

export const COMMAND_HELP: Record<string, string> = {
  'identity create': `plat identity create [--handle <h>] [--display-name <name>] [--assert] [--api <url>] [--force] [--offline]

Generates a controller key and an auth key (and an assert key with --assert), signs the
identity genesis and writes the key file (mode 0600; an existing one is kept unless --force).

With --api (or PLAT_API) the genesis is published through the relay named by GET /v1/protocol;
with --handle an account is then claimed (POST /users; --handle alone uses the default API).
Without either it stays offline: publish later with "plat identity publish".
`,
  'identity publish': `plat identity publish [--handle <h>] [--display-name <name>] [--api <url>]

Publishes the key file's identity log through the relay named by GET /v1/protocol (already
known operations count as duplicates), then claims an account when --handle is given.
`,
  'credential issue': `plat credential issue --aud <appDid> --scope <scope>... [--space <did|*>...] [--expires 30d]

Issues a PlatCredential from the key file's identity to an app and prints the token.
  --aud      the app's DID (the identity that will sign its requests)
  --scope    repeatable or comma-separated: read:posts, write:posts, write:comments,
             write:upvotes (on spaces); read:profile, read:email, read:memberships (on the account)
  --space    repeatable: a space DID, or * for all the person's spaces (needed for space scopes)
  --expires  lifetime: 90s, 15m, 12h, 30d (default), 2w
  --host     the API host the credential covers (default: the host of the API URL)
`,
  'credential revoke': `plat credential revoke <credential|cid|-> [--offline]

Signs a revocation of one of your credentials (token, its CID, or "-" to read the token from
stdin), publishes it through the relay and prints the revocation token. --offline only prints it.
`,
  request: `plat request <METHOD> <PATH> [--data <json|@file|@->] [--credential <token|@file>] [--anonymous] [--jti <id>]

Sends one API request signed with a request proof by the key file's auth key (a bare identity
proof; with --credential, a credential proof: the key file must then be the app's identity).
PATH is the path and query exactly as to be sent, e.g. "/v1/profile" or "/v1/feed?limit=5".
Prints the status and the body; exits 4 unless the status is 2xx.
`,
  whoami: `plat whoami

Shows the key file's identity: DID, head, keys and their roles, published relay and account.
`,
};
