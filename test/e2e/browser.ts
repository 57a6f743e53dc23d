import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

/** Debian's chromium (or CHROMIUM_PATH); null when none is installed. Never downloads a browser. */
export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const p of CANDIDATES) if (existsSync(p)) return p;
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
    return found || null;
  } catch (error) {
    // `command -v` exits non-zero when nothing is found: that is the answer, not a failure.
    if (process.env.DEBUG_E2E) console.warn('findChromium', error);
    return null;
  }
}

/** Whether the browser tests run: always under CI=true (where a missing browser is a failure). */
export const browserAvailable = findChromium() !== null || process.env.CI === 'true';

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error('No Chromium found for the browser tests. Run scripts/ensure-chromium.sh (apt-get install -y chromium) or set CHROMIUM_PATH.');
  }
  // No background networking: on a closed network Chromium's own connections (updates, sync) are refused, many at a time.
  const quiet = ['--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...quiet] });
}

export const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** Saves a full-page screenshot under test/e2e/screenshots (git-ignored) to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A hang guard for one browser test on a busy 2-core machine; never a speed check. */
export const E2E_TIMEOUT = 120_000;
