import { normalizeLinkUrl } from '../../../src/link-previews';
import { boundedText, decodeHtml, pageMetadata } from '../../../src/link-previews/domain/page-metadata';

describe('normalizeLinkUrl', () => {
  it('lower-cases scheme and host, drops the default port and the fragment', () => {
    expect(normalizeLinkUrl(' HTTPS://Example.COM:443/A/b?Q=1#top ')).toBe('https://example.com/A/b?Q=1');
    expect(normalizeLinkUrl('http://example.com')).toBe('http://example.com/');
    expect(normalizeLinkUrl('http://example.com:8080/x')).toBe('http://example.com:8080/x');
    expect(normalizeLinkUrl('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
  });

  it('refuses what is never resolved', () => {
    for (const url of ['', 'ftp://example.com/', 'mailto:a@b.c', 'javascript:alert(1)', 'not a url']) {
      expect(normalizeLinkUrl(url)).toBeNull();
    }
    expect(normalizeLinkUrl('https://user:pw@example.com/')).toBeNull();
    expect(normalizeLinkUrl(`https://example.com/${'a'.repeat(2100)}`)).toBeNull();
  });
});

describe('page metadata', () => {
  it('prefers OpenGraph, then Twitter, then the HTML title and description', () => {
    const page = pageMetadata(
      `<html><head><base href="https://cdn.example/base/">
       <title>HTML title</title>
       <meta name="twitter:title" content="Twitter title">
       <meta name="description" content="HTML description">
       <meta name="twitter:image" content="tw.png">
       <link rel="canonical" href="/canonical">
       <link rel="apple-touch-icon" href="/touch.png"><link rel="icon" href="/icon.png">
       </head></html>`,
      'https://example.com/page',
    );
    expect(page).toEqual({
      title: 'Twitter title',
      description: 'HTML description',
      siteName: null,
      imageUrl: 'https://cdn.example/base/tw.png',
      faviconUrl: 'https://cdn.example/icon.png',
      canonicalUrl: 'https://cdn.example/canonical',
    });
  });

  it('ignores images of schemes other than http(s) and keeps the answering URL as canonical', () => {
    const page = pageMetadata(
      '<meta property="og:image" content="javascript:alert(1)"><meta property="og:title" content="   ">',
      'https://example.com/',
    );
    expect(page).toMatchObject({ imageUrl: null, title: null, canonicalUrl: 'https://example.com/' });
  });

  it('bounds text by code points, ending a cut with an ellipsis', () => {
    expect(boundedText('  a \n b  ', 10)).toBe('a b');
    expect(boundedText('😀'.repeat(5), 3)).toBe('😀😀…');
    expect(boundedText('', 3)).toBeNull();
  });

  it('decodes by the header charset, else <meta charset>, else UTF-8', () => {
    const latin = Buffer.from('<title>é</title>', 'latin1');
    expect(decodeHtml(latin, 'iso-8859-1')).toBe('<title>é</title>');
    expect(decodeHtml(Buffer.concat([Buffer.from('<meta charset=windows-1252>'), latin]), null)).toContain(
      'é',
    );
    expect(decodeHtml(Buffer.from('<title>é</title>'), null)).toBe('<title>é</title>');
    expect(decodeHtml(Buffer.from('<title>é</title>'), 'no-such-charset')).toBe('<title>é</title>');
  });
});
