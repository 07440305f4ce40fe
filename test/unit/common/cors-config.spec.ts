import { ConfigValidationError, loadConfig } from '../../../src/config/app-config';

/** CORS_ALLOWED_ORIGINS is checked at boot: exact origins only (docs/decisions/0015-cors-by-allow-list-off-by-default.md). */
describe('CORS_ALLOWED_ORIGINS', () => {
  it('is off (no origin) when unset or empty', () => {
    expect(loadConfig({}).corsAllowedOrigins).toEqual([]);
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: '' }).corsAllowedOrigins).toEqual([]);
  });

  it('reads a comma-separated list of origins, spaces and empty entries ignored', () => {
    const config = loadConfig({
      CORS_ALLOWED_ORIGINS: ' https://app.example.com, http://localhost:5173,,https://[::1]:8443 ',
    });
    expect(config.corsAllowedOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'https://[::1]:8443',
    ]);
  });

  it.each([
    ['a wildcard', '*'],
    ['the opaque origin', 'null'],
    ['a path', 'https://app.example.com/app'],
    ['a trailing slash', 'https://app.example.com/'],
    ['a query', 'https://app.example.com?x=1'],
    ['user info', 'https://me@app.example.com'],
    ['upper case (browsers send lower case)', 'https://App.example.com'],
    ['a default port (browsers leave it out)', 'https://app.example.com:443'],
    ['another scheme', 'ftp://files.example.com'],
    ['no scheme', 'app.example.com'],
  ])('refuses %s at boot, naming the entry', (_case, entry) => {
    const attempt = () => loadConfig({ CORS_ALLOWED_ORIGINS: `https://ok.example.com,${entry}` });
    expect(attempt).toThrow(ConfigValidationError);
    expect(attempt).toThrow(/CORS_ALLOWED_ORIGINS: /);
    expect(attempt).toThrow(entry);
  });
});
