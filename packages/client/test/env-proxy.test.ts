import { describe, expect, it } from 'vitest';
import { readProxyEnvironment } from '../src/proxy-environment.js';

describe('readProxyEnvironment', () => {
  it('nothing set: no proxy, no problem', () => {
    expect(readProxyEnvironment({})).toEqual({ http: undefined, https: undefined, problems: [] });
  });

  it('lowercase first, as undici and curl read them; blank values count as unset', () => {
    const env = readProxyEnvironment({
      http_proxy: 'http://lower:3128',
      HTTP_PROXY: 'http://upper:3128',
      HTTPS_PROXY: 'http://secure:3128',
      https_proxy: ' ',
    });
    expect(env.http).toMatchObject({ variable: 'http_proxy', url: 'http://lower:3128/' });
    expect(env.https).toBeUndefined();
  });

  it('host:port alone means http://host:port; credentials kept for undici, never shown', () => {
    const env = readProxyEnvironment({ HTTPS_PROXY: 'user:p%40ss@proxy.corp:8080' });
    expect(env.https).toEqual({
      variable: 'HTTPS_PROXY',
      url: 'http://user:p%40ss@proxy.corp:8080/',
      shown: 'http://proxy.corp:8080',
    });
  });

  it.each([
    ['http://user:secret-pw@[bad', /^HTTP_PROXY must be a proxy URL such as/],
    ['socks5://user:secret-pw@proxy:1080', /^HTTP_PROXY must be an http: or https: proxy URL, not socks5:/],
    ['ftp://user:secret-pw@proxy:21', /^HTTP_PROXY must be an http: or https: proxy URL, not ftp:/],
  ])('%s: a problem naming the variable, without the password; not used', (value, message) => {
    const env = readProxyEnvironment({ HTTP_PROXY: value });
    expect(env.http).toBeUndefined();
    expect(env.problems).toHaveLength(1);
    expect(env.problems[0]).toMatch(message);
    expect(env.problems[0]).not.toContain('secret-pw');
  });
});
