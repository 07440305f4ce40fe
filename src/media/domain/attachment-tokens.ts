/** Media ids (`media_…`) referenced by `attachment://<id>` tokens of a body, in order of first appearance. */
export function attachmentTokensOf(body: string): string[] {
  const ids = [...body.matchAll(/attachment:\/\/(media_[0-9a-f]{32})(?![0-9A-Za-z_])/g)].map(
    (match) => match[1],
  );
  return [...new Set(ids)];
}
