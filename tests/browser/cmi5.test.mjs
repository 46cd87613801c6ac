// A lesson's cmi5 package against a local LRS: the test plays the learning platform (it writes
// LMS.LaunchData, issues "launched", hands out a one-time auth token and opens the AU with the
// cmi5 launch parameters); the LRS checks every statement with xapi-validation (npm) and the
// cmi5 rules on actor, registration, session, verbs and order. Two sessions of one
// registration: the first finishes the lesson and exits; the second resumes and exits without
// repeating a once-only statement.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import validation from 'xapi-validation';
import { buildPackages, serve, startBrowser, unzip, watchProblems } from './scorm-kit.mjs';

const validate = validation.default || validation;
const LESSON = 'self-attention';
const VERB = verb => `http://adlnet.gov/expapi/verbs/${verb}`;
const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const SESSION_EXT = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const MASTERY_EXT = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
const PROGRESS_EXT = 'https://w3id.org/xapi/cmi5/result/extensions/progress';
const CMI5_DEFINED = new Set(['launched', 'initialized', 'completed', 'passed', 'failed', 'terminated'].map(VERB));
const ALLOWED = new Set([...CMI5_DEFINED, VERB('progressed')]);

// [SECTION] The LRS and the platform's side -------------------------------------------------------
function makeLrs() {
  const lrs = { statements: [], problems: [], tokens: new Map(), state: new Map() };
  const key = url => ['activityId', 'agent', 'registration', 'stateId'].map(k => url.searchParams.get(k)).join('|');
  const body = request => new Promise(done => { let s = ''; request.on('data', c => { s += c; }); request.on('end', () => done(s)); });
  const json = (response, status, value) => response.writeHead(status, { 'Content-Type': 'application/json' })
    .end(value === undefined ? '' : JSON.stringify(value));

  lrs.accept = (statement, from) => {
    const warnings = validate(statement);
    if (warnings.length) lrs.problems.push(`${from} statement ${statement.verb?.id}: ${JSON.stringify(warnings).slice(0, 400)}`);
    lrs.statements.push(statement);
  };
  lrs.route = async (request, response, url) => {
    if (url.pathname === '/fetch') {
      // cmi5: POST only, and the token once per launch.
      const launch = url.searchParams.get('launch');
      if (request.method !== 'POST') { json(response, 405, { 'error-code': '3', 'error-text': 'POST only' }); return true; }
      if (!lrs.tokens.has(launch) || lrs.tokens.get(launch).used) {
        lrs.problems.push(`fetch URL used twice or unknown (${launch})`);
        json(response, 200, { 'error-code': '1', 'error-text': 'already used' });
        return true;
      }
      lrs.tokens.get(launch).used = true;
      json(response, 200, { 'auth-token': lrs.tokens.get(launch).token });
      return true;
    }
    if (!url.pathname.startsWith('/lrs/')) return false;
    const auth = String(request.headers.authorization || '');
    if (![...lrs.tokens.values()].some(t => auth === `Basic ${t.token}`)) {
      lrs.problems.push(`${request.method} ${url.pathname} without the launch's auth token`);
      json(response, 401, { message: 'no auth' });
      return true;
    }
    if (!request.headers['x-experience-api-version']) lrs.problems.push(`${url.pathname}: no X-Experience-API-Version`);
    const path = url.pathname.slice('/lrs/'.length);
    if (path === 'statements' && (request.method === 'POST' || request.method === 'PUT')) {
      const sent = JSON.parse(await body(request));
      const list = Array.isArray(sent) ? sent : [sent];
      for (const s of list) lrs.accept(s, 'AU');
      json(response, 200, list.map(s => s.id || randomUUID()));
      return true;
    }
    if (path === 'activities/state') {
      const k = key(url);
      if (request.method === 'GET') {
        if (!lrs.state.has(k)) json(response, 404, { message: 'no such document' });
        else json(response, 200, lrs.state.get(k));
      } else if (request.method === 'PUT' || request.method === 'POST') {
        lrs.state.set(k, JSON.parse(await body(request)));
        response.writeHead(204).end();
      } else json(response, 405, {});
      return true;
    }
    if (path === 'agents/profile') { json(response, 404, { message: 'no preferences' }); return true; }
    lrs.problems.push(`unexpected ${request.method} ${url.pathname}`);
    json(response, 404, {});
    return true;
  };
  return lrs;
}

// What the platform does to launch an AU: launch data, "launched", a token, the URL.
function launchUrl(env, { registration, sessionId, actor, au, masteryScore }) {
  const launchData = {
    contextTemplate: { contextActivities: { grouping: [{ objectType: 'Activity', id: au.id }] },
      extensions: { [SESSION_EXT]: sessionId } },
    launchMode: 'Normal', moveOn: au.moveOn, masteryScore,
  };
  const params = new URLSearchParams({ activityId: au.id, agent: JSON.stringify(actor), registration, stateId: 'LMS.LaunchData' });
  env.lrs.state.set(['activityId', 'agent', 'registration', 'stateId'].map(k => params.get(k)).join('|'), launchData);
  env.lrs.accept({
    id: randomUUID(), actor, verb: { id: VERB('launched'), display: { 'en-US': 'launched' } },
    object: { objectType: 'Activity', id: au.id }, timestamp: new Date().toISOString(),
    result: {},
    context: { registration, contextActivities: { category: [{ id: CMI5_CATEGORY }], grouping: launchData.contextTemplate.contextActivities.grouping },
      extensions: { [SESSION_EXT]: sessionId, 'https://w3id.org/xapi/cmi5/context/extensions/launchmode': 'Normal',
        'https://w3id.org/xapi/cmi5/context/extensions/moveon': au.moveOn, 'https://w3id.org/xapi/cmi5/context/extensions/launchurl': au.url } },
  }, 'LMS');
  const launch = randomUUID();
  env.lrs.tokens.set(launch, { token: Buffer.from(`${launch}:${randomUUID()}`).toString('base64'), used: false });
  const query = new URLSearchParams({ endpoint: `${env.http.origin}/lrs/`, fetch: `${env.http.origin}/fetch?launch=${launch}`,
    actor: JSON.stringify(actor), registration, activityId: au.id });
  return `${env.http.origin}/pkg/${au.url}?${query}`;
}

// [SECTION] The cmi5 rules on one session's statements -------------------------------------------
function checkSession(statements, { actor, registration, sessionId, activityId, mastery }) {
  const verbs = statements.map(s => s.verb.id.split('/').pop());
  for (const s of statements) {
    assert.ok(ALLOWED.has(s.verb.id), `verb ${s.verb.id} is not one cmi5 defines or allows here`);
    assert.deepEqual(s.actor, actor, 'the learner from the launch is the actor');
    assert.equal(s.context?.registration, registration);
    assert.equal(s.context?.extensions?.[SESSION_EXT], sessionId, `${s.verb.id} carries the session id`);
    assert.equal(s.object.id, activityId);
    if (CMI5_DEFINED.has(s.verb.id)) {
      assert.ok(s.context.contextActivities.category.some(c => c.id === CMI5_CATEGORY), `${s.verb.id} in cmi5's category`);
    }
  }
  assert.equal(verbs[0], 'launched');
  assert.equal(verbs[1], 'initialized', `the AU's first statement is initialized: ${verbs}`);
  assert.equal(verbs.at(-1), 'terminated', `terminated comes last: ${verbs}`);
  assert.equal(verbs.filter(v => v === 'initialized').length, 1);
  assert.equal(verbs.filter(v => v === 'terminated').length, 1);
  for (const s of statements.filter(s => ['completed', 'passed', 'failed', 'terminated'].includes(s.verb.id.split('/').pop())))
    assert.match(s.result?.duration || '', /^P/, `${s.verb.id} has a duration`);
  for (const s of statements.filter(s => s.verb.id === VERB('progressed'))) {
    const p = s.result?.extensions?.[PROGRESS_EXT];
    assert.ok(Number.isInteger(p) && p >= 0 && p <= 100, `progress ${p}`);
  }
  const completed = statements.filter(s => s.verb.id === VERB('completed'));
  for (const s of completed) {
    assert.equal(s.result.completion, true);
    assert.ok(s.context.contextActivities.category.some(c => c.id === MOVEON_CATEGORY));
  }
  for (const s of statements.filter(s => s.verb.id === VERB('passed'))) {
    assert.equal(s.result.success, true);
    assert.ok(s.result.score.scaled >= mastery, `scaled ${s.result.score.scaled} reaches the mastery score`);
    assert.equal(s.context.extensions[MASTERY_EXT], mastery);
  }
  return verbs;
}

// A missing xAPI document (no learner preferences, no kept state yet) is a 404 by the spec,
// which the browser logs as an error; those and only those are expected.
function unexpected(problems) {
  const documents = problems.filter(p => /^HTTP 404: .*\/lrs\/(agents\/profile|activities\/state)\?/.test(p)).length;
  let consoleLines = 0;
  return problems.filter(p => {
    if (/^HTTP 404: .*\/lrs\/(agents\/profile|activities\/state)\?/.test(p)) return false;
    if (/^console: Failed to load resource: .* 404/.test(p) && consoleLines < documents) { consoleLines++; return false; }
    return true;
  });
}

// [SECTION] The run ----------------------------------------------------------------------------------
let env;
before(async () => {
  const packages = buildPackages('cmi5');
  const root = mkdtempSync(join(tmpdir(), 'neuralpath-lrs-'));
  unzip(packages.zips[LESSON], join(root, 'pkg'));
  const lrs = makeLrs();
  const http = await serve(root, lrs.route);
  const browser = await startBrowser();
  env = { packages, root, lrs, http, browser };
});
after(async () => {
  await env?.browser.close();
  await env?.http.close();
  env?.packages.cleanup();
  if (env) rmSync(env.root, { recursive: true, force: true });
});

const lesson = page => page.evaluate(() => document.getElementById('np-lms-lesson').contentWindow.neuralpath.state());
async function lessonReady(page) {
  await page.waitForFunction(() => document.getElementById('np-lms-lesson')?.contentWindow?.neuralpath, null, { timeout: 60_000 });
  await page.evaluate(() => document.getElementById('np-lms-lesson').contentWindow.neuralpath.ready);
}
const inLesson = (page, fn, arg) => page.evaluate(([source, a]) => {
  const np = document.getElementById('np-lms-lesson').contentWindow.neuralpath;
  return new Function('np', 'arg', `return (${source})(np, arg);`)(np, a);
}, [fn.toString(), arg]);
const waitForVerb = (verb, count = 1) => new Promise((resolve, reject) => {
  const started = Date.now();
  const poll = () => {
    if (env.lrs.statements.filter(s => s.verb.id === VERB(verb)).length >= count) resolve();
    else if (Date.now() - started > 15_000) reject(new Error(`no '${verb}' statement: ${env.lrs.statements.map(s => s.verb.id.split('/').pop())}`));
    else setTimeout(poll, 25);
  };
  poll();
});

test('a finished lesson sends a valid cmi5 sequence, and a relaunch resumes without repeating it', async t => {
  const cmi5Xml = readFileSync(join(env.root, 'pkg/cmi5.xml'), 'utf8');
  const au = {
    id: /<au id="([^"]+)"/.exec(cmi5Xml)[1], moveOn: /moveOn="([^"]+)"/.exec(cmi5Xml)[1],
    url: /<url>([^<]+)<\/url>/.exec(cmi5Xml)[1],
  };
  const actor = { objectType: 'Agent', name: 'Ada Learner', account: { homePage: env.http.origin, name: 'learner-1' } };
  const registration = randomUUID();
  const mastery = 0.8;

  // Session 1: finish the lesson (every section, every check right), then Exit.
  const firstSession = randomUUID();
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(launchUrl(env, { registration, sessionId: firstSession, actor, au, masteryScore: mastery }));
  await lessonReady(page);
  await waitForVerb('initialized');
  const state = await lesson(page);
  for (const s of state.sections) await inLesson(page, (np, a) => np.goto(a), s.anchor);
  for (const check of state.checks) {
    await inLesson(page, (np, id) => {
      np.command({ type: 'reveal', id });
      const right = np.state().checks.find(c => c.id === id).answer;
      np.answer(id, right.length === 1 ? right[0] : right);
    }, check.id);
  }
  await waitForVerb('completed');
  await waitForVerb('passed');
  await page.click('#np-lms-exit');
  await waitForVerb('terminated');
  const first = env.lrs.statements.splice(0);
  const firstVerbs = checkSession(first, { actor, registration, sessionId: firstSession, activityId: au.id, mastery });
  t.diagnostic(`session 1: ${firstVerbs.join(' ')}`);
  assert.ok(firstVerbs.includes('progressed'), `progress was reported: ${firstVerbs}`);
  assert.equal(firstVerbs.filter(v => v === 'completed').length, 1);
  assert.equal(firstVerbs.filter(v => v === 'passed').length, 1);
  assert.ok(!firstVerbs.includes('failed'));
  assert.deepEqual(unexpected(problems), []);
  await page.close();

  // Session 2 of the same registration: resumed from the LRS, no second completed/passed.
  const secondSession = randomUUID();
  const again = await env.browser.newPage();
  await again.goto(launchUrl(env, { registration, sessionId: secondSession, actor, au, masteryScore: mastery }));
  await lessonReady(again);
  await waitForVerb('initialized');
  await again.waitForFunction(() => document.getElementById('np-lms-lesson').contentWindow.neuralpath.state()
    .checks.every(c => c.correct === true), null, { timeout: 10_000 });
  await again.click('#np-lms-exit');
  await waitForVerb('terminated');
  const second = env.lrs.statements.splice(0);
  const secondVerbs = checkSession(second, { actor, registration, sessionId: secondSession, activityId: au.id, mastery });
  t.diagnostic(`session 2: ${secondVerbs.join(' ')}`);
  assert.deepEqual(secondVerbs.filter(v => ['completed', 'passed', 'failed'].includes(v)), [], `${secondVerbs}`);
  await again.close();

  assert.deepEqual(env.lrs.problems, []);
});
