// tests/e2e/pprof_screenshot.mjs — the README's picture of a profile's flame
// graph: `go tool pprof -http` serves the profile on a free loopback port,
// and headless Debian Chromium (through playwright-core, as news.test.mjs
// drives it) loads its flame graph and takes the screenshot.
//   node tests/e2e/pprof_screenshot.mjs PROFILE OUT.png
import { spawn } from 'node:child_process';
import net from 'node:net';

const [profile, out] = process.argv.slice(2);
if (!profile || !out) {
  console.error('usage: node tests/e2e/pprof_screenshot.mjs PROFILE OUT.png');
  process.exit(2);
}
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// A free port: bind port 0, read it, let it go.
const port = await new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});

const pprof = spawn('go', ['tool', 'pprof', `-http=127.0.0.1:${port}`, '-no_browser', profile], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => pprof.kill('SIGTERM');
try {
  const base = `http://127.0.0.1:${port}`;
  // pprof takes a moment to read the profile and listen.
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${base}/ui/`);
      if (r.ok) break;
    } catch (e) {
      if (i > 100) throw new Error(`go tool pprof -http did not answer on ${base}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 520 } });
    await page.goto(`${base}/ui/flamegraph`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1500);  // the graph's boxes are labelled after their transition
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
} finally {
  stop();
}
