import { Parser } from 'htmlparser2';
import { TextDecoder } from 'node:util';

/**
 * How long each text of a preview may be, in characters (code points), after whitespace is
 * collapsed (docs/decisions/0152-link-preview-metadata.md): a title of 300, a description of
 * 1000, a site name of 200. Longer text is cut and ends with `…`.
 */
export const TITLE_MAX = 300;
export const DESCRIPTION_MAX = 1000;
export const SITE_NAME_MAX = 200;

/** What a page says of itself, its URLs absolute. */
export interface PageMetadata {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** og:image, else twitter:image. */
  imageUrl: string | null;
  /** The first `<link rel=icon>` (or `shortcut icon`, `apple-touch-icon`). */
  faviconUrl: string | null;
  /** og:url, else `<link rel=canonical>`, else the URL that answered. */
  canonicalUrl: string;
}

/** Collapsed whitespace, trimmed, at most `max` code points (the last one `…` when cut); null when empty. */
export function boundedText(value: string | undefined | null, max: number): string | null {
  if (value === undefined || value === null) return null;
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  const points = [...text];
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The character encoding of an HTML body: the Content-Type's charset, else a `<meta charset>` or
 * `<meta http-equiv=content-type>` in its first 1024 bytes, else UTF-8. An encoding TextDecoder
 * does not know is UTF-8 too.
 */
export function decodeHtml(body: Buffer, headerCharset: string | null): string {
  const head = body.subarray(0, 1024).toString('latin1');
  const declared =
    headerCharset ?? /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head)?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared.toLowerCase());
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}

/** The absolute http(s) form of `value` relative to `base`, or null. */
function absolute(value: string | undefined, base: string): string | null {
  if (!value || value.trim() === '') return null;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Reads OpenGraph, Twitter cards, `<title>`, `<meta name=description>`, `<link rel=icon>` and
 * `<link rel=canonical>` of an HTML page (decoded text) with htmlparser2; `pageUrl` is the URL
 * that answered, relative URLs are resolved against it (or the page's `<base href>`).
 */
export function pageMetadata(html: string, pageUrl: string): PageMetadata {
  const meta = new Map<string, string>();
  const links: { rel: string[]; href: string }[] = [];
  let base = pageUrl;
  let title: string | null = null;
  let inTitle = false;
  let titleText = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
          const content = attributes.content;
          if (key !== '' && content !== undefined && !meta.has(key)) meta.set(key, content);
        } else if (name === 'link' && attributes.href) {
          links.push({ rel: (attributes.rel ?? '').toLowerCase().split(/\s+/), href: attributes.href });
        } else if (name === 'base' && attributes.href) {
          base = absolute(attributes.href, pageUrl) ?? base;
        } else if (name === 'title' && title === null) {
          inTitle = true;
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const first = (...keys: string[]) => keys.map((key) => meta.get(key)).find((value) => value?.trim());
  const link = (...rels: string[]) =>
    rels
      .map((rel) => links.find((entry) => entry.rel.includes(rel))?.href)
      .find((href) => href !== undefined);
  return {
    title: boundedText(first('og:title', 'twitter:title') ?? title, TITLE_MAX),
    description: boundedText(first('og:description', 'twitter:description', 'description'), DESCRIPTION_MAX),
    siteName: boundedText(first('og:site_name', 'application-name'), SITE_NAME_MAX),
    imageUrl: absolute(
      first('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'),
      base,
    ),
    faviconUrl: absolute(link('icon', 'apple-touch-icon'), base),
    canonicalUrl:
      [absolute(first('og:url'), base), absolute(link('canonical'), base)].find(
        (url): url is string => url !== null && url.length <= 2048,
      ) ?? pageUrl,
  };
}
