import { describe, expect, it } from 'vitest';
import { missingSettings, missingSettingsMessage } from '../src/cli-missing.js';

describe('missingSettings', () => {
  it('names every missing setting at once, as flags and environment variables', () => {
    const message = missingSettingsMessage(missingSettings({}, {}));
    expect(message).toBe(
      'Missing configuration:\n' +
        '  - the API key: the AQM_API_KEY environment variable (there is no flag for it)\n' +
        "  - the service's base URL: --base-url or AQM_BASE_URL (with its path prefix, e.g. https://aqm.example.com/api)\n" +
        '  - the application: --application-id/--application-name or AQM_APPLICATION_ID/AQM_APPLICATION_NAME ' +
        '(or --application-from-resource)',
    );
    // Terms of the command line, not option names of code.
    expect(message).not.toMatch(/apiKey|baseUrl|applicationId|applicationName|allowInsecureHttp/);
  });

  it('counts a flag or a non-empty variable as given, and an empty variable as missing', () => {
    expect(
      missingSettings(
        { baseUrl: 'http://127.0.0.1:4000/api' },
        { AQM_API_KEY: 'k', AQM_APPLICATION_NAME: '' },
      ),
    ).toEqual([expect.stringMatching(/^the application: /)]);
    expect(
      missingSettings({ applicationFromResource: true }, { AQM_API_KEY: 'k', AQM_BASE_URL: 'u' }),
    ).toEqual([]);
    expect(missingSettings({}, { AQM_API_KEY: '', AQM_BASE_URL: 'u', AQM_APPLICATION_ID: 'x' })).toEqual([
      expect.stringMatching(/^the API key: /),
    ]);
  });
});
