/**
 * The Content-Disposition a legacy upload carries (and the image route sends): the name in
 * quotes with anything outside printable ASCII (and `"`, `\`) replaced, plus RFC 8187's `filename*`
 * with the exact name when that changed it. ASCII only, so the header compares byte for byte.
 */
export function contentDisposition(filename: string, type: 'inline' | 'attachment' = 'inline'): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (fallback === filename) return `${type}; filename="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
