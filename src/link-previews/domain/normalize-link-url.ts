/** The longest URL we resolve, before and after normalization. */
export const LINK_URL_MAX_LENGTH = 2048;

/**
 * The normalized form a link preview is keyed by: scheme and host lower-case (the WHATWG parser
 * does it, and turns an IDN into its punycode), the default port dropped, no fragment, an empty
 * path as `/`. Null for a URL we never resolve: not http or https, with credentials, or longer
 * than LINK_URL_MAX_LENGTH.
 */
export function normalizeLinkUrl(url: string): string | null {
  const text = url.trim();
  if (text.length === 0 || text.length > LINK_URL_MAX_LENGTH) return null;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username !== '' || parsed.password !== '' || parsed.hostname === '') return null;
  parsed.hash = '';
  const normalized = parsed.toString();
  return normalized.length > LINK_URL_MAX_LENGTH ? null : normalized;
}
