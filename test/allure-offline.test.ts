/**
 * The single-file Allure report makes no request when opened (report/allure-offline.ts): the
 * analytics script that the installed Awesome plugin writes into its page template is found and
 * removed, and the local stub stays. Read from the installed plugin, so an Allure upgrade that
 * writes the tag differently turns this red even where no Chromium is installed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withoutAnalytics } from '../report/allure-offline.js';

function awesomeTemplate(): string {
  const require = createRequire(import.meta.url);
  const allure = dirname(require.resolve('allure'));
  const plugin = dirname(createRequire(join(allure, 'index.js')).resolve('@allurereport/plugin-awesome'));
  return readFileSync(join(plugin, 'generators.js'), 'utf8');
}

describe('the Allure report offline', () => {
  it('removes the analytics script of the installed Awesome plugin and keeps its local stub', () => {
    const template = awesomeTemplate();
    expect(template).toContain('googletagmanager.com');
    const { html, removed } = withoutAnalytics(template);
    expect(removed).toBe(1);
    expect(html).not.toMatch(/<script[^>]*src="https?:/);
    expect(html).toContain('function gtag(){dataLayer.push(arguments);}');
  });

  it('leaves a page without the script unchanged', () => {
    const page = '<html><body><script src="data:text/javascript;base64,AA=="></script></body></html>';
    expect(withoutAnalytics(page)).toEqual({ html: page, removed: 0 });
  });
});
