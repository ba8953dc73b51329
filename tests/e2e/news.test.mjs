// tests/e2e/news.test.mjs: the news site (apps/news) used in a browser, as
// a person would, from the front page to a karma change.
//
//   node tests/e2e/news.test.mjs [ARCANA]   (or `make e2e`, which installs and builds)
//
// ARCANA is the binary (default BUILD_DIR/arcana, BUILD_DIR defaulting
// to <repo>/build). Screenshots go beside it, to e2e-screenshots/NN-step.png,
// with the server's output in server.log and, for a failed step, its
// page as NN-step-FAILED.png and .html. Environment: CHROMIUM (default
// /usr/bin/chromium, Debian's: this test never downloads a browser);
// NEWS_ARC (default <repo>/apps/news/news.arc: the site to test);
// E2E_TIMEOUT seconds for the whole run (default 240).
//
// It starts its own server on a free port over a fresh data directory
// (demo data is seeded on first start) and stops it whatever happens: on
// success, on failure, on SIGINT/SIGTERM; if this process is killed
// outright, the server's guard sees its pipe close and stops it (see
// startServer). Exit code 0 when every step passed, 1 with the failed step, what
// was expected and the page's URL otherwise.
//
// The two users come from two addresses: the first from 127.0.0.1, the
// second through a small TCP relay that connects from 127.0.0.2. The site
// (as Arc 3.1) gives no karma for a vote from the author's own IP, and two
// people on one machine would otherwise be one address.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
// The binary: the first argument (as CTest passes it), else BUILD_DIR/arcana.
const arcana = path.resolve(process.argv[2]
  || path.join(process.env.BUILD_DIR || path.join(repo, 'build'), 'arcana'));
const buildDir = path.dirname(arcana);
const newsArc = path.resolve(process.env.NEWS_ARC || path.join(repo, 'apps/news/news.arc'));
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const totalTimeout = Number(process.env.E2E_TIMEOUT || 240);
const shotDir = path.join(buildDir, 'e2e-screenshots');

// --- Bookkeeping: steps, screenshots, failure ----------------------------

class StepFailure extends Error {}

let stepNo = 0;
let stepName = 'setup';
let page = null;          // the browser tab, once there is one
const problems = [];      // server errors and page script errors seen so far

function fail(msg) {
  throw new StepFailure(msg);
}

function check(cond, msg) {
  if (!cond) fail(msg);
}

async function shot(name) {
  const file = path.join(shotDir, `${String(stepNo).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// Runs one step: its body, then a screenshot, then a check that neither
// the server answered 500 nor a script on the page threw meanwhile.
async function step(name, body) {
  stepNo += 1;
  stepName = name;
  const t0 = Date.now();
  await body();
  await shot(name);
  if (problems.length) fail(problems.join('\n'));
  console.log(`ok ${stepNo} - ${name} (${Date.now() - t0} ms)`);
}

// --- The server ----------------------------------------------------------

let server = null;
let dataDir = null;       // the server's data: removed after a pass, kept after a failure
let serverLog = null;
let serverOut = '';       // everything the server printed, for the password

// The server runs under a small bash guard that holds a pipe from this
// process: when the pipe closes (stopServer, or this process dying in any
// way, SIGKILL included) it sends the server SIGTERM, which stops it
// cleanly; `timeout` ends it anyway past the test's time. The guard exits
// with the server's status when the server stops by itself.
const guard = `
timeout --kill-after=5 "$@" </dev/null & p=$!
while kill -0 $p 2>/dev/null; do
  read -r -t 1 _; rc=$?
  [ $rc -eq 0 ] || [ $rc -gt 128 ] || break   # 1: end of input, the test is gone
done
kill -TERM $p 2>/dev/null
wait $p`;

function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.stdin.destroy();
  }
}

// Starts the server; resolves to its base URL once it prints that it listens.
function startServer(dataDir) {
  const args = ['-c', guard, 'e2e-guard', `${totalTimeout + 30}`, arcana,
                newsArc,
                '--port', '0', '--host', '127.0.0.1', '--data', dataDir];
  serverLog = fs.createWriteStream(path.join(shotDir, 'server.log'));
  server = spawn('bash', args, { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(
      `the server did not say "Serving the news site on ..." within 90 s; it printed:\n${serverOut}`)), 90000);
    const take = (chunk) => {
      const text = chunk.toString();
      serverOut += text;
      serverLog.write(text);
      const m = serverOut.match(/Serving the news site on (http:\/\/[^\s/]+:(\d+))\//);
      if (m) { clearTimeout(timer); resolve({ base: m[1], port: Number(m[2]) }); }
    };
    server.stdout.on('data', take);
    server.stderr.on('data', take);
    server.on('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${sig || code}) before listening; it printed:\n${serverOut}`));
    });
  });
}

// The admin account the demo data makes: its name and password, from the
// line the server prints (for instance "admin account: NAME, password: PW").
function adminCredentials() {
  const exact = serverOut.match(/admin account: (\S+) password: (\S+)/);
  if (exact) return { user: exact[1], pw: exact[2] };
  const lines = serverOut.split('\n');
  for (const line of lines) {
    if (!/admin/i.test(line) || !/password/i.test(line)) continue;
    const pw = line.match(/password\s*(?:is)?\s*[:=]?\s*["']?([^\s"',]+)/i);
    const user = line.match(/(?:user(?:name)?|admin(?:istrator)?(?: account)?)\s*(?:is)?\s*[:=]?\s*["']?([A-Za-z0-9_-]{2,15})["']?/i);
    if (pw && user) return { user: user[1], pw: pw[1] };
  }
  return null;
}

// A relay from 127.0.0.1:<its port> to the server whose connections to the
// server come from 127.0.0.2: a second person's address.
function startRelay(port) {
  return new Promise((resolve) => {
    const relay = net.createServer((client) => {
      const up = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      client.pipe(up);
      up.pipe(client);
      const end = () => { client.destroy(); up.destroy(); };
      client.on('error', end);
      up.on('error', end);
      client.on('close', end);
      up.on('close', end);
    });
    relay.listen(0, '127.0.0.1', () => resolve(relay));
  });
}

// --- Page helpers --------------------------------------------------------

// The link whose whole text is `text` (first one, or the one matching `where`).
function link(text, where = page) {
  return where.getByRole('link', { name: text, exact: true });
}

async function bodyText() {
  return page.locator('body').innerText();
}

async function expectText(text, what) {
  const t = await bodyText();
  check(t.includes(text), `${what}: the page does not show "${text}"`);
}

async function expectNoText(text, what) {
  const t = await bodyText();
  check(!t.includes(text), `${what}: the page shows "${text}"`);
}

// Clicks and waits for the page that the click leads to.
async function clickAndLoad(locator) {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), locator.click()]);
}

async function goto(url) {
  const r = await page.goto(url, { waitUntil: 'load' });
  check(r && r.status() < 400, `GET ${url} answered ${r && r.status()}`);
}

// The top bar's karma of the logged-in user: "NAME (K)" next to logout.
async function topKarma(user) {
  const t = await bodyText();
  const m = t.match(new RegExp(`${user}\\s*\\((-?\\d+)\\)`));
  return m ? Number(m[1]) : null;
}

// The item id an up arrow votes for (its id is up_ID, as Arc 3.1's).
async function arrowId(arrow) {
  const id = await arrow.getAttribute('id');
  check(id && /^up_\d+$/.test(id), `an up arrow's id is "${id}", not up_ID`);
  return id.slice(3);
}

// The points shown for item `id` (its <span id=score_ID>N points</span>).
async function points(id) {
  const s = page.locator(`#score_${id}`);
  check(await s.count() === 1, `no score_${id} element for item ${id}`);
  const m = (await s.innerText()).match(/(-?\d+)\s+points?/);
  check(m, `score_${id} says "${await s.innerText()}", not "N points"`);
  return Number(m[1]);
}

// Clicks an up arrow and waits for the vote to reach the server (the
// page's vote script pings /vote in the background; without the script
// the link itself goes there).
async function clickVote(arrow) {
  const [resp] = await Promise.all([
    page.waitForResponse((r) => /\/vote\?/.test(r.url()), { timeout: 10000 }),
    arrow.click(),
  ]);
  check(resp.status() < 400, `the vote request answered ${resp.status()}`);
}

// Fills the form `form` (a locator) with fields {name: value} and submits
// it with its button labelled `button`; waits for the next page.
async function submitForm(form, fields, button) {
  for (const [name, value] of Object.entries(fields)) {
    const f = form.locator(`[name="${name}"]`);
    check(await f.count() === 1, `the form has no single field named "${name}"`);
    await f.fill(value);
  }
  const b = form.locator(`input[type=submit][value="${button}"], button:text-is("${button}")`);
  check(await b.count() >= 1, `the form has no "${button}" button`);
  await clickAndLoad(b.first());
}

// The form that holds the submit button `button` (on pages with several).
function formWithButton(button) {
  return page.locator('form', { has: page.locator(`input[type=submit][value="${button}"]`) });
}

async function logout() {
  await clickAndLoad(link('logout'));
  check(await link('login').count() >= 1, 'after logout the top bar has no "login" link');
  await expectNoText('logout', 'after logout');
}

async function login(user, pw) {
  await clickAndLoad(link('login'));
  const form = formWithButton('login');
  check(await form.count() === 1, 'the login page has no form with a "login" button');
  await submitForm(form, { u: user, p: pw }, 'login');
  await expectNoText('Bad login', `logging in as ${user}`);
  check(await link(user).count() >= 1, `after logging in, the top bar has no link "${user}"`);
  check(await link('logout').count() >= 1, 'after logging in, the top bar has no "logout" link');
}

// --- The walk through the site -------------------------------------------

const alice = { user: 'e2e_alice', pw: 'alice-pw-1' };
// What people type is shown as they typed it: the title's & and quotes,
// the comment's markup as text (a script in it would open a dialog).
const story = { title: `Bytecode & the "e2e" test's story`, url: 'https://example.com/e2e/bytecode?a=1&b=2' };
const commentText = 'First comment from the browser test: <script>alert("e2e")</script> & <b>not bold</b>';
const replyText = 'A reply to the first comment.';

async function run() {
  fs.rmSync(shotDir, { recursive: true, force: true });
  fs.mkdirSync(shotDir, { recursive: true });
  check(fs.existsSync(arcana), `${arcana} does not exist: build first (make all)`);
  check(fs.existsSync(chromiumPath), `${chromiumPath} does not exist: apt-get install chromium`);

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arcana-e2e-'));
  const { base, port } = await startServer(dataDir);
  console.log(`# server at ${base}/, data in ${dataDir}`);
  const relay = await startRelay(port);
  const base2 = `http://127.0.0.1:${relay.address().port}`;

  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    fail(`playwright-core is not installed (${e.code || e.message}): run npm ci in tests/e2e (make e2e does)`);
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (d) => { problems.push(`a dialog opened on ${page.url()}: ${d.message()}`); d.dismiss(); });
    page.on('pageerror', (e) => problems.push(`a script on ${page.url()} threw: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 500) problems.push(`${r.url()} answered ${r.status()}`);
    });

    let votedId = null;
    let votedBefore = null;
    let storyId = null;
    let commentId = null;
    let karmaBefore = null;

    await step('front-page', async () => {
      await goto(`${base}/`);
      check(await link('new').count() >= 1, 'the top bar has no "new" link');
      check(await link('submit').count() >= 1, 'the top bar has no "submit" link');
      check(await link('login').count() >= 1, 'the top bar has no "login" link');
      // Logged out, the arrows are plain links to vote (which asks for a login).
      const arrows = page.locator('a[href^="vote?"]');
      check(await arrows.count() >= 2, `the front page lists ${await arrows.count()} stories with up arrows, wanted the demo stories`);
      check(await page.locator('span[id^="score_"]').count() >= 2, 'the front page shows no "N points"');
    });

    await step('login-page', async () => {
      await clickAndLoad(link('login'));
      await expectText('Create Account', 'the login page');
      check(await formWithButton('login').count() === 1, 'no login form (button "login")');
      check(await formWithButton('create account').count() === 1, 'no create-account form (button "create account")');
    });

    await step('create-account', async () => {
      await submitForm(formWithButton('create account'), { u: alice.user, p: alice.pw }, 'create account');
      check(await link(alice.user).count() >= 1, `after creating the account, no link "${alice.user}" in the top bar`);
      check(await link('logout').count() >= 1, 'after creating the account, no "logout" link');
    });

    await step('logout-after-create', logout);

    await step('login', () => login(alice.user, alice.pw));

    await step('submit-form', async () => {
      await clickAndLoad(link('submit'));
      const form = page.locator('form', { has: page.locator('[name="t"]') });
      check(await form.count() === 1, 'the submit page has no form with a title field "t"');
      check(await form.locator('[name="u"]').count() === 1, 'the submit form has no url field "u"');
      await form.locator('[name="t"]').fill(story.title);
      await form.locator('[name="u"]').fill(story.url);
    });

    await step('newest-after-submit', async () => {
      const form = page.locator('form', { has: page.locator('[name="t"]') });
      await clickAndLoad(form.locator('input[type=submit]').first());
      check(/\/newest(\?|$)/.test(page.url()), `after submitting, the browser is at ${page.url()}, not /newest`);
      const title = page.locator(`a[href="${story.url}"]`);
      check(await title.count() >= 1, `/newest has no link to ${story.url}`);
      check((await title.first().innerText()).includes(story.title), `the story link says "${await title.first().innerText()}"`);
      await expectText('example.com', 'the story line on /newest (its site)');
      // The score under the title (the row after the title's, as Arc
      // 3.1 lays it out; else the first score on the page, the newest).
      let score = page.locator(`xpath=//a[@href="${story.url}"]/ancestor::tr[1]/following-sibling::tr[1]//span[starts-with(@id,"score_")]`);
      if (await score.count() !== 1) score = page.locator('span[id^="score_"]');
      check(await score.count() >= 1, 'no score ("N points") on /newest');
      storyId = (await score.first().getAttribute('id')).slice(6);
      check(await points(storyId) === 1, `the new story has ${await points(storyId)} points, wanted 1 (the author's own vote)`);
      await expectText(`by ${alice.user}`, 'the new story\'s byline');
    });

    await step('vote-story', async () => {
      await goto(`${base}/news`);
      const arrows = page.locator('a[id^="up_"]');
      check(await arrows.count() >= 1, 'no story on the front page to vote for');
      const arrow = arrows.first();
      votedId = await arrowId(arrow);
      votedBefore = await points(votedId);
      await clickVote(arrow);
      await page.reload({ waitUntil: 'load' });
      const after = await points(votedId);
      check(after === votedBefore + 1, `item ${votedId} had ${votedBefore} points; after the up-vote it has ${after}`);
      check(await page.locator(`#up_${votedId}`).count() === 0 || !(await page.locator(`#up_${votedId}`).isVisible()),
            `after voting, item ${votedId} still has its up arrow`);
    });

    await step('open-story', async () => {
      await goto(`${base}/newest`);
      const row = page.locator('tr', { has: page.locator(`#score_${storyId}`) }).last();
      const discuss = row.locator(`a[href$="item?id=${storyId}"]`).last();
      check(await discuss.count() === 1, `the story's line has no link to item?id=${storyId} ("discuss")`);
      await clickAndLoad(discuss);
      check(new RegExp(`item\\?id=${storyId}$`).test(page.url()), `the discuss link led to ${page.url()}`);
      check(await page.locator(`a[href="${story.url}"]`).count() >= 1, 'the item page has no link to the story\'s url');
      check(await page.locator('textarea[name="text"]').count() === 1, 'the item page has no comment box (textarea "text")');
    });

    await step('comment', async () => {
      const form = page.locator('form', { has: page.locator('textarea[name="text"]') });
      await submitForm(form, { text: commentText }, 'add comment');
      await expectText(commentText, 'the item page after commenting');
      check(await page.locator('.comment', { hasText: 'First comment' }).count() >= 1,
            'the comment is not in an element of class "comment"');
      check(await page.locator('.comment b, .comment script').count() === 0,
            'the comment\'s <b> or <script> became an element: not escaped');
      check(new RegExp(`item\\?id=${storyId}$`).test(page.url()), `after commenting, the browser is at ${page.url()}, not the story's page`);
      karmaBefore = await topKarma(alice.user);
      check(karmaBefore !== null, `the top bar does not show ${alice.user}'s karma as "${alice.user} (N)"`);
    });

    await step('reply-page', async () => {
      const replies = link('reply');
      check(await replies.count() >= 1, 'the comment has no "reply" link');
      const href = await replies.first().getAttribute('href');
      const m = href && href.match(/id=(\d+)/);
      check(m, `the reply link's href is "${href}"`);
      commentId = m[1];
      await clickAndLoad(replies.first());
      await expectText(commentText, 'the reply page (the comment replied to)');
      check(await page.locator('textarea[name="text"]').count() === 1, 'the reply page has no textarea "text"');
    });

    await step('reply', async () => {
      const form = () => page.locator('form', { has: page.locator('textarea[name="text"]') });
      await submitForm(form(), { text: replyText }, 'reply');
      // The site allows one comment per user every few seconds (model.arc's
      // comment-wait*, 10 s); a person replying at once is told so, with
      // the text kept, and sends it again a little later.
      const tooFast = 'submitting too fast';
      for (let tries = 0; (await bodyText()).includes(tooFast); tries++) {
        check(tries < 8, `replying still says "${tooFast}" after ${tries} tries, 4 s apart`);
        const kept = await page.locator('textarea[name="text"]').inputValue();
        check(kept.trim() === replyText, `the "too fast" page lost the reply's text: "${kept}"`);
        if (tries === 0) await shot('reply-too-fast');
        await page.waitForTimeout(4000);
        await clickAndLoad(form().locator('input[type=submit][value="reply"]'));
      }
      // Back on the story's page (or the comment's), both texts, the reply
      // after the comment and indented deeper.
      await expectText(commentText, 'the page after replying');
      await expectText(replyText, 'the page after replying');
      const t = await bodyText();
      check(t.indexOf(commentText) < t.indexOf(replyText), 'the reply is shown above the comment it answers');
      const x = async (text) => (await page.getByText(text, { exact: true }).first().boundingBox()).x;
      const a = await x(commentText), b = await x(replyText);
      check(b > a, `the reply starts at x=${b}, the comment it answers at x=${a}: not indented deeper`);
    });

    // Paging: the More link of a list is a page number (?p=N), the same
    // URL for everyone, and the next page has the next 30 (the demo's
    // 150 comments make pages enough; a list of comments has no numbers).
    await step('paging', async () => {
      const commentIds = async () => (await link('link').evaluateAll(
        (as) => as.map((a) => a.getAttribute('href')))).filter((h) => /^item\?id=\d+$/.test(h));
      await goto(`${base}/newcomments`);
      const first = await commentIds();
      check(first.length === 30, `page 1 of the comments shows ${first.length}, not 30`);
      const more = link('More');
      check(await more.count() === 1, 'the demo\'s comments have no "More" link');
      const href = await more.getAttribute('href');
      check(href === 'newcomments?p=2', `the More link goes to "${href}", not newcomments?p=2`);
      await clickAndLoad(more);
      check(/\/newcomments\?p=2$/.test(page.url()), `More led to ${page.url()}`);
      const second = await commentIds();
      check(second.length === 30, `page 2 of the comments shows ${second.length}, not 30`);
      check(!second.some((h) => first.includes(h)), 'page 2 of the comments repeats page 1\'s');
      check(await link('More').getAttribute('href') === 'newcomments?p=3', 'page 2\'s More link is not newcomments?p=3');
    });

    // The site beside a title links to that site's stories.
    await step('from-site', async () => {
      await goto(`${base}/newest`);
      const row = page.locator('tr', { has: page.locator(`a[href="${story.url}"]`) }).last();
      const site = row.locator('a[href^="from?site="]');
      check(await site.count() === 1, 'the story\'s line has no (site) link to from?site=');
      check((await site.innerText()) === 'example.com', `the site link says "${await site.innerText()}"`);
      await clickAndLoad(site);
      check(/\/from\?site=example\.com$/.test(page.url()), `the site link led to ${page.url()}`);
      check(await page.locator(`a[href="${story.url}"]`).count() === 1, 'the site\'s page does not list the story');
      const others = await page.locator('a[href^="from?site="]').allInnerTexts();
      check(others.length >= 1 && others.every((x) => x === 'example.com'),
            `the site's page lists stories of other sites: ${others.join(', ')}`);
    });

    // A favorite: the story's page has a "favorite" link; the story then
    // is on the user's favorites page, and "un-favorite" takes it off.
    await step('favorite', async () => {
      await goto(`${base}/item?id=${storyId}`);
      await clickAndLoad(link('favorite'));
      check(new RegExp(`item\\?id=${storyId}$`).test(page.url()), `after "favorite" the browser is at ${page.url()}`);
      check(await link('un-favorite').count() === 1, 'after "favorite" the story has no "un-favorite" link');
      await goto(`${base}/favorites?id=${alice.user}`);
      check(await page.locator(`a[href="${story.url}"]`).count() === 1, `${alice.user}'s favorites page does not list the story`);
      await goto(`${base}/item?id=${storyId}`);
      await clickAndLoad(link('un-favorite'));
      await goto(`${base}/favorites?id=${alice.user}`);
      check(await page.locator(`a[href="${story.url}"]`).count() === 0, 'the story is still a favorite after "un-favorite"');
    });

    // Hiding: "hide" on a list takes the story off the lists this user
    // sees; the hidden page has it, with "un-hide" to bring it back.
    await step('hide', async () => {
      await goto(`${base}/newest`);
      const row = page.locator('tr', { has: page.locator(`#score_${storyId}`) }).last();
      const hide = link('hide', row);
      check(await hide.count() === 1, 'the story\'s line on /newest has no "hide" link');
      await clickAndLoad(hide);
      check(/\/newest$/.test(page.url()), `after "hide" the browser is at ${page.url()}, not /newest`);
      check(await page.locator(`a[href="${story.url}"]`).count() === 0, '/newest still lists the hidden story');
      await goto(`${base}/hidden`);
      check(await page.locator(`a[href="${story.url}"]`).count() === 1, '/hidden does not list the hidden story');
      await clickAndLoad(link('un-hide'));
      await goto(`${base}/newest`);
      check(await page.locator(`a[href="${story.url}"]`).count() === 1, 'after "un-hide" /newest does not list the story');
    });

    await step('logout', logout);

    // The second person, from another address.
    const admin = adminCredentials();
    check(admin, `the server printed no admin account and password; it printed:\n${serverOut}`);

    await step('login-second-user', async () => {
      await goto(`${base2}/item?id=${storyId}`);
      await login(admin.user, admin.pw);
    });

    await step('vote-comment', async () => {
      await goto(`${base2}/item?id=${storyId}`);
      const arrow = page.locator(`#up_${commentId}`);
      check(await arrow.count() === 1, `${admin.user} sees no up arrow on comment ${commentId}`);
      await clickVote(arrow);
      await page.reload({ waitUntil: 'load' });
      check(await page.locator(`#up_${commentId}`).count() === 0 || !(await page.locator(`#up_${commentId}`).isVisible()),
            `after voting, comment ${commentId} still has its up arrow`);
    });

    await step('karma-changed', async () => {
      const byline = link(alice.user);
      check(await byline.count() >= 1, `no link to ${alice.user}'s profile on the item page`);
      await clickAndLoad(byline.first());
      check(/user\?id=/.test(page.url()), `the user link led to ${page.url()}`);
      // The karma is a field of the profile form for an admin, text for others.
      let k;
      const field = page.locator('input[name="karma"]');
      if (await field.count() === 1) {
        k = Number(await field.inputValue());
      } else {
        const m = (await bodyText()).match(/karma:?\s*(-?\d+)/);
        check(m, `${alice.user}'s profile page shows no "karma: N"`);
        k = Number(m[1]);
      }
      await expectText(`user:`, 'the profile page');
      await expectText(alice.user, 'the profile page');
      check(k === karmaBefore + 1, `${alice.user}'s karma was ${karmaBefore}; after ${admin.user}'s up-vote of the comment it is ${k}`);
    });

    await step('logout-second-user', logout);

    await step('first-user-sees-karma', async () => {
      await goto(`${base}/news`);
      await login(alice.user, alice.pw);
      const k = await topKarma(alice.user);
      check(k === karmaBefore + 1, `the top bar shows ${alice.user}'s karma as ${k}, wanted ${karmaBefore + 1}`);
      await logout();
    });

    relay.close();
  } catch (e) {
    await keepFailedPage();
    throw e;
  } finally {
    await browser.close().catch(() => {});
  }
}

// The page of a failed step, as a screenshot and as HTML.
async function keepFailedPage() {
  if (!page) return;
  try {
    const base = path.join(shotDir, `${String(stepNo).padStart(2, '0')}-${stepName}-FAILED`);
    await page.screenshot({ path: `${base}.png`, fullPage: true });
    fs.writeFileSync(`${base}.html`, await page.content());
    failedFiles = `${base}.png, ${base}.html`;
  } catch { /* the page is gone */ }
}
let failedFiles = null;

// --- Main: run, report, always stop the server ---------------------------

process.on('exit', stopServer);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { console.error(`# ${sig}: stopping the server`); stopServer(); process.exit(1); });
}
const watchdog = setTimeout(() => {
  console.error(`FAIL: the test took over ${totalTimeout} s (step ${stepNo} ${stepName})`);
  stopServer();
  process.exit(1);
}, totalTimeout * 1000);

const t0 = Date.now();
let code = 0;
let removeData = false;
try {
  await run();
  console.log(`# all ${stepNo} steps passed in ${Date.now() - t0} ms; screenshots in ${shotDir}`);
  console.log(`${stepNo} passed, 0 failed`);
  removeData = true;
} catch (e) {
  code = 1;
  const where = page ? page.url() : '(no page)';
  console.error(`FAIL: step ${stepNo} ${stepName}: ${e instanceof StepFailure ? e.message : e.stack || e}`);
  console.error(`  at ${where}`);
  if (failedFiles) console.error(`  screenshot and HTML: ${failedFiles}`);
  if (dataDir) console.error(`  the server's data (kept): ${dataDir}`);
  const tail = serverOut.split('\n').slice(-15).join('\n');
  console.error(`  the server's last lines (all in ${path.join(shotDir, 'server.log')}):\n${tail}`);
  console.log(`${Math.max(stepNo - 1, 0)} passed, 1 failed`);
} finally {
  clearTimeout(watchdog);
  stopServer();
}
// Give the server a moment to finish (it stops cleanly on SIGTERM).
if (server && server.exitCode === null && server.signalCode === null) {
  await new Promise((resolve) => { server.on('exit', resolve); setTimeout(resolve, 5000); });
}
if (removeData && dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
