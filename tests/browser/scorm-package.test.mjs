// The packages `./neuralpath dist --scorm/--cmi5` writes: well-formed manifests (xmllint, from
// Debian's libxml2-utils), every element and attribute SCORM 1.2 / cmi5 require, references
// that resolve, and zips that carry everything they launch (nothing from elsewhere).
// No schema files: the required parts are checked one by one below, from the specifications
// (SCORM 1.2 CAM / IMS CP 1.1.2 + ADL adlcp; cmi5 Quartz, section 13 course structure).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildPackages, siteDir, unzip, zipEntries } from './scorm-kit.mjs';

const IMSCP = 'http://www.imsproject.org/xsd/imscp_rootv1p1p2';
const ADLCP = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
const CMI5 = 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd';
const lessons = JSON.parse(readFileSync(join(siteDir, 'lessons/index.json'), 'utf8'));

// XPath through xmllint; elements by namespace and local name: el('manifest') -> *[...].
const xpath = (file, expr) => execFileSync('xmllint', ['--xpath', expr, file], { encoding: 'utf8' }).trim();
const text = (file, expr) => xpath(file, `string(${expr})`);
const count = (file, expr) => Number(xpath(file, `count(${expr})`));
const values = (file, expr) => {   // each node's string value, via a count and a positional path
  const n = count(file, expr);
  return Array.from({ length: n }, (_, i) => text(file, `(${expr})[${i + 1}]`));
};
const inNs = ns => name => `*[local-name()='${name}' and namespace-uri()='${ns}']`;
const cp = inNs(IMSCP);
const c5 = inNs(CMI5);
const NCNAME = /^[A-Za-z_][\w.-]*$/;

let scorm, cmi5, scratch;
before(() => {
  scorm = buildPackages('scorm');
  cmi5 = buildPackages('cmi5');
  scratch = mkdtempSync(join(tmpdir(), 'neuralpath-unzipped-'));
});
after(() => { scorm?.cleanup(); cmi5?.cleanup(); if (scratch) rmSync(scratch, { recursive: true, force: true }); });

const packageNames = () => [...lessons.map(l => l.id), 'all'];

test('one package per lesson and one for all, of each kind', () => {
  assert.deepEqual(Object.keys(scorm.zips).sort(), packageNames().sort());
  assert.deepEqual(Object.keys(cmi5.zips).sort(), packageNames().sort());
});

function checkSelfContained(dir, entries, launchPages, lessonIds) {
  // The engines under the names the page loads: asset-names.json's when the site has one (four
  // engines of three files each; the engines share one font package, web/assemble_site.cmake).
  let engine = ['lesson.js', 'lesson.wasm', 'lesson.data'];
  if (entries.includes('asset-names.json')) {
    const names = JSON.parse(readFileSync(join(dir, 'asset-names.json'), 'utf8'));
    assert.deepEqual(Object.keys(names).sort(), ['lesson', 'lesson-attention', 'lesson-block', 'lesson-lm']
      .flatMap(e => ['js', 'wasm', 'data'].map(x => `${e}.${x}`)).sort());
    engine = [...new Set(Object.values(names))];
  }
  for (const f of ['lesson.html', ...engine, 'np-app.js', 'lessons/index.json', 'lms/np-lms-frame.js', 'lms/np-lms-record.js', 'lms/np-lms-words.js'])
    assert.ok(entries.includes(f), `${f} is in the package`);
  // Its own lessons, in every language the site ships them in (#32: a Spanish launch found none).
  const languages = readdirSync(join(siteDir, 'lessons'), { withFileTypes: true })
    .filter(e => e.isDirectory() && existsSync(join(siteDir, 'lessons', e.name, 'index.json'))).map(e => e.name);
  assert.ok(languages.includes('es'), `the site ships translations: ${languages}`);
  const translated = lang => lessonIds.filter(id => existsSync(join(siteDir, 'lessons', lang, `${id}.md`)));
  const mdFiles = entries.filter(f => /^lessons\/.*\.md$/.test(f)).sort();
  assert.deepEqual(mdFiles, [...lessonIds.map(id => `lessons/${id}.md`),
    ...languages.flatMap(lang => translated(lang).map(id => `lessons/${lang}/${id}.md`))].sort(), 'only its own lessons');
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'lessons/index.json'), 'utf8')).map(l => l.id).sort(), [...lessonIds].sort());
  for (const lang of languages) {
    assert.deepEqual(JSON.parse(readFileSync(join(dir, `lessons/${lang}/index.json`), 'utf8')).map(l => l.id).sort(),
      translated(lang).sort(), `lessons/${lang}/index.json names only the package's lessons`);
  }
  for (const page of launchPages) {
    const html = readFileSync(join(dir, page), 'utf8');
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map(m => m[1]);
    for (const ref of refs) {
      assert.doesNotMatch(ref, /^(https?:)?\/\//, `${page} loads ${ref} from elsewhere`);
      assert.ok(existsSync(join(dir, ref)), `${page} refers to ${ref}, which is in the package`);
    }
  }
}

for (const name of packageNames()) {
  test(`SCORM 1.2 package '${name}': imsmanifest.xml well-formed and complete`, () => {
    const zip = scorm.zips[name];
    const dir = unzip(zip, join(scratch, `scorm-${name}`));
    const file = join(dir, 'imsmanifest.xml');
    const entries = zipEntries(zip);
    assert.ok(entries.includes('imsmanifest.xml'), 'the manifest sits at the root of the zip');
    execFileSync('xmllint', ['--noout', file]);   // throws with xmllint's message if not well-formed

    const root = `/${cp('manifest')}`;
    assert.equal(count(file, root), 1, 'root element manifest in the IMS CP 1.1.2 namespace');
    const identifier = text(file, `${root}/@identifier`);
    assert.match(identifier, NCNAME);
    assert.match(text(file, `${root}/@*[local-name()='schemaLocation']`), /imscp_rootv1p1p2\.xsd.*adlcp_rootv1p2\.xsd/);
    assert.equal(text(file, `${root}/${cp('metadata')}/${cp('schema')}`), 'ADL SCORM');
    assert.equal(text(file, `${root}/${cp('metadata')}/${cp('schemaversion')}`), '1.2');

    const organizations = `${root}/${cp('organizations')}`;
    assert.equal(count(file, organizations), 1);
    const defaultOrg = text(file, `${organizations}/@default`);
    assert.equal(count(file, `${organizations}/${cp('organization')}[@identifier='${defaultOrg}']`), 1, 'default names an organization');
    const org = `${organizations}/${cp('organization')}`;
    assert.notEqual(text(file, `${org}/${cp('title')}`), '');

    const items = `${org}/${cp('item')}`;
    const lessonIds = name === 'all' ? lessons.map(l => l.id) : [name];
    assert.equal(count(file, items), lessonIds.length, 'one item per lesson');
    for (let i = 1; i <= lessonIds.length; i++) {
      const item = `(${items})[${i}]`;
      assert.match(text(file, `${item}/@identifier`), NCNAME);
      assert.notEqual(text(file, `${item}/${cp('title')}`), '');
      const ref = text(file, `${item}/@identifierref`);
      const resource = `${root}/${cp('resources')}/${cp('resource')}[@identifier='${ref}']`;
      assert.equal(count(file, resource), 1, `item ${i} refers to a resource`);
      assert.equal(text(file, `${resource}/@*[local-name()='scormtype' and namespace-uri()='${ADLCP}']`), 'sco');
      assert.equal(text(file, `${resource}/@type`), 'webcontent');
      const href = text(file, `${resource}/@href`);
      assert.ok(entries.includes(href), `the SCO's launch page ${href} is in the zip`);
      assert.ok(href.includes(lessonIds[i - 1]), `item ${i} launches ${lessonIds[i - 1]}`);
    }

    const resources = `${root}/${cp('resources')}/${cp('resource')}`;
    const ids = values(file, `${resources}/@identifier`).concat(values(file, `${items}/@identifier`), [identifier, defaultOrg]);
    assert.equal(new Set(ids).size, ids.length, 'identifiers are unique');
    for (const id of ids) assert.match(id, NCNAME);
    for (const type of values(file, `${resources}/@*[local-name()='scormtype']`)) assert.ok(['sco', 'asset'].includes(type));
    for (const ref of values(file, `${resources}/${cp('dependency')}/@identifierref`))
      assert.equal(count(file, `${resources}[@identifier='${ref}']`), 1, `dependency ${ref} exists`);
    const listed = values(file, `${resources}/${cp('file')}/@href`);
    for (const f of listed) assert.ok(entries.includes(f), `listed file ${f} is in the zip`);
    const unlisted = entries.filter(f => f !== 'imsmanifest.xml' && !f.endsWith('/') && !listed.includes(f));
    assert.deepEqual(unlisted, [], 'every file of the zip is listed in a resource');

    checkSelfContained(dir, entries, values(file, `${resources}[@href]/@href`), lessonIds);
  });

  test(`cmi5 package '${name}': cmi5.xml well-formed and complete`, () => {
    const zip = cmi5.zips[name];
    const dir = unzip(zip, join(scratch, `cmi5-${name}`));
    const file = join(dir, 'cmi5.xml');
    const entries = zipEntries(zip);
    assert.ok(entries.includes('cmi5.xml'), 'cmi5.xml sits at the root of the zip');
    execFileSync('xmllint', ['--noout', file]);

    const root = `/${c5('courseStructure')}`;
    assert.equal(count(file, root), 1, 'root element courseStructure in the cmi5 namespace');
    const course = `${root}/${c5('course')}`;
    assert.equal(count(file, course), 1);
    const iri = /^[a-z][a-z0-9+.-]*:\S+$/i;
    assert.match(text(file, `${course}/@id`), iri);
    for (const part of ['title', 'description']) {
      assert.ok(count(file, `${course}/${c5(part)}/${c5('langstring')}[@lang]`) >= 1, `course ${part} has a langstring`);
      assert.notEqual(text(file, `${course}/${c5(part)}/${c5('langstring')}`), '');
    }
    const aus = `${root}//${c5('au')}`;
    const lessonIds = name === 'all' ? lessons.map(l => l.id) : [name];
    assert.equal(count(file, aus), lessonIds.length, 'one AU per lesson');
    const auIds = values(file, `${aus}/@id`);
    assert.equal(new Set(auIds).size, auIds.length, 'AU ids are unique');
    const urls = [];
    for (let i = 1; i <= lessonIds.length; i++) {
      const au = `(${aus})[${i}]`;
      assert.match(text(file, `${au}/@id`), iri);
      for (const part of ['title', 'description']) assert.notEqual(text(file, `${au}/${c5(part)}/${c5('langstring')}`), '', `AU ${part}`);
      const moveOn = text(file, `${au}/@moveOn`);
      assert.ok(['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'].includes(moveOn), moveOn);
      assert.ok(['', 'AnyWindow', 'OwnWindow'].includes(text(file, `${au}/@launchMethod`)));
      const url = text(file, `${au}/${c5('url')}`);
      assert.ok(entries.includes(url), `the AU's url ${url} is a file of the zip`);
      assert.ok(url.includes(lessonIds[i - 1]));
      urls.push(url);
    }
    for (const f of ['lms/np-cmi5.js', 'lms/vendor/cmi5.umd.js', 'lms/vendor/cmi5.LICENSE.md'])
      assert.ok(entries.includes(f), `${f} is in the package`);
    checkSelfContained(dir, entries, urls, lessonIds);
  });
}
