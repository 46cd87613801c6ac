// The two manifests a learning platform reads when it imports a package.
//
// SCORM 1.2 (IMS Content Packaging 1.1.2 + ADL's adlcp extension): manifest > metadata
// (schema "ADL SCORM", schemaversion "1.2"), organizations (default) > organization > title,
// item per lesson (identifierref to its SCO); resources > one "sco" resource per lesson (its
// launch page) depending on one "asset" resource listing every file of the site.
//
// cmi5 (CourseStructure.xsd, Quartz): courseStructure > course (id, title, description), one au
// per lesson (id, moveOn, launchMethod; title, description, url).
//
// Identifiers: XML IDs must not start with a digit, so lesson ids get a prefix; course and AU
// ids are URNs under "urn:neuralpath:" (cmi5 wants IRIs; the platform gives each launch its
// own activity id anyway).

const xml = text => String(text).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);
const title = lesson => lesson.title || lesson.id;
const courseTitle = (name, lessons) => (name === 'all' ? 'NeuralPath: every lesson' : `NeuralPath: ${title(lessons[0])}`);

export function scormManifest({ name, lessons, files, launchPage }) {
  const items = lessons.map(l => `      <item identifier="item-${xml(l.id)}" identifierref="sco-${xml(l.id)}" isvisible="true">
        <title>${xml(title(l))}</title>
      </item>`).join('\n');
  const scos = lessons.map(l => `    <resource identifier="sco-${xml(l.id)}" type="webcontent" adlcp:scormtype="sco" href="${xml(launchPage(l.id))}">
      <file href="${xml(launchPage(l.id))}"/>
      <dependency identifierref="site"/>
    </resource>`).join('\n');
  const launchPages = new Set(lessons.map(l => launchPage(l.id)));
  const site = files.filter(f => !launchPages.has(f) && f !== 'imsmanifest.xml')
    .map(f => `      <file href="${xml(f)}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="neuralpath-${xml(name)}" version="1.0"
          xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="neuralpath">
    <organization identifier="neuralpath">
      <title>${xml(courseTitle(name, lessons))}</title>
${items}
    </organization>
  </organizations>
  <resources>
${scos}
    <resource identifier="site" type="webcontent" adlcp:scormtype="asset">
${site}
    </resource>
  </resources>
</manifest>
`;
}

export function cmi5Xml({ name, lessons, launchPage }) {
  const langstring = text => `<langstring lang="en-US">${xml(text)}</langstring>`;
  const aus = lessons.map(l => `  <au id="urn:neuralpath:lesson:${xml(l.id)}" moveOn="CompletedAndPassed" launchMethod="AnyWindow">
    <title>${langstring(title(l))}</title>
    <description>${langstring(l.summary || title(l))}</description>
    <url>${xml(launchPage(l.id))}</url>
  </au>`).join('\n');
  const description = name === 'all' ? `Every NeuralPath lesson: ${lessons.map(title).join('; ')}.` : (lessons[0].summary || title(lessons[0]));
  return `<?xml version="1.0" encoding="UTF-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="urn:neuralpath:course:${xml(name)}">
    <title>${langstring(courseTitle(name, lessons))}</title>
    <description>${langstring(description)}</description>
  </course>
${aus}
</courseStructure>
`;
}
