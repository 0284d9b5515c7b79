import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headerCsp, metaCsp, withCspHeader } from '../../../electron/main/app/csp';

const root = resolve(__dirname, '..', '..', '..');

function directives(policy: string): Map<string, string> {
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values.join(' ')]));
}

describe('Content Security Policy', () => {
  it('is the strict policy of SPEC §6', () => {
    expect(directives(headerCsp())).toEqual(
      new Map([
        ['default-src', "'self'"],
        ['script-src', "'self'"],
        ['object-src', "'none'"],
        ['base-uri', "'none'"],
        ['frame-ancestors', "'none'"],
        ['connect-src', "'self'"],
      ]),
    );
  });

  it('renderer/index.html carries the same policy in its meta tag (minus header-only frame-ancestors)', () => {
    const html = readFileSync(join(root, 'renderer', 'index.html'), 'utf8');
    const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/g)].map((m) => m[1]);
    expect(metas).toEqual([metaCsp()]);
    expect(metaCsp()).not.toContain('frame-ancestors');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script for the policy to block
  });

  it('adds a dev nonce only where asked', () => {
    expect(headerCsp({ devNonce: 'abcDEF0123456789xyz' })).toContain("script-src 'self' 'nonce-abcDEF0123456789xyz'");
    expect(headerCsp()).not.toContain('nonce');
  });

  it('replaces any policy the server sent, whatever the header case', () => {
    const headers = withCspHeader({
      'content-security-policy': ["default-src *; script-src 'unsafe-inline'"],
      'Content-Security-Policy-Report-Only': ['default-src *'],
      'Content-Type': ['text/html'],
    });
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [headerCsp()] });
    expect(withCspHeader(undefined)).toEqual({ 'Content-Security-Policy': [headerCsp()] });
  });
});
