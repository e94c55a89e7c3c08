import { describe, expect, it } from 'vitest';
import { isAppPath, safeImageUrl, safeUrl } from './safeUrl';

describe('safeUrl', () => {
  it('accepts site paths and http(s) URLs', () => {
    expect(safeUrl('/aboutus')).toBe('/aboutus');
    expect(safeUrl(' https://example.com/about ')).toBe('https://example.com/about');
    expect(safeUrl('http://example.com/logo.png')).toBe('http://example.com/logo.png');
  });

  it('refuses scripts, protocol-relative URLs and empty values', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,hi')).toBeNull();
    expect(safeUrl('//evil.example/x')).toBeNull();
    expect(safeUrl('/\\evil.example')).toBeNull();
    expect(safeUrl('')).toBeNull();
    expect(safeUrl(undefined)).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
  });

  it('tells site paths from other sites', () => {
    expect(isAppPath('/aboutus')).toBe(true);
    expect(isAppPath('https://example.com/')).toBe(false);
  });
});

describe('safeImageUrl', () => {
  it('also accepts inline images', () => {
    expect(safeImageUrl('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(safeImageUrl('/media/logo.png')).toBe('/media/logo.png');
    expect(safeImageUrl('data:text/html;base64,PHNjcmlwdD4=')).toBeNull();
    expect(safeImageUrl('javascript:alert(1)')).toBeNull();
  });
});
