/**
 * How the last resolution of a URL ended: `ok` (an HTML page, its metadata kept), `not_html` (it
 * answered something else), `refused` (the guard or the configuration would not fetch it: a
 * private address, a denied host, too many redirects) or `failed` (network error, timeout, an
 * error status, a body too large), with its reason.
 */
export type LinkPreviewOutcome = 'ok' | 'not_html' | 'refused' | 'failed';

export const LINK_PREVIEW_OUTCOMES: readonly LinkPreviewOutcome[] = ['ok', 'not_html', 'refused', 'failed'];
