// np-engine.js: which lesson engine this page runs, with its downloads started at once. The site
// has several engines, each with the widget kinds of some lessons (web/CMakeLists.txt), so that a
// first visit fetches no code its lesson never runs. lesson.html names them in metas written by
// the site's assembly (web/assemble_site.cmake):
//
//   <meta name="np-engine" data-np-engine="lesson-lm" data-js="lesson-lm.<hash>.js" data-js-bytes="…"
//         data-wasm="…" data-wasm-bytes="…" data-data="lesson.<hash>.data" data-data-bytes="…"
//         data-models="yes">   (it runs language models: np-app.js then loads their page parts)
//   <meta name="np-engine-lessons" data-np-every-kind="lesson" content="writing-text=lesson-lm …">
//
// This classic script runs while the browser reads the head: it picks the engine of ?lesson=ID
// (the one with every kind for a lesson not listed) and adds a preload link for each of its
// files, so their downloads start before the page's modules have run. np-app.js reads the links
// back (data-np-asset: the plain name the glue asks for; data-np-bytes: the raw size).
(function () {
  var engines = {};
  var metas = document.querySelectorAll('meta[name="np-engine"]');
  for (var i = 0; i < metas.length; i++) engines[metas[i].getAttribute('data-np-engine')] = metas[i];
  var lessons = document.querySelector('meta[name="np-engine-lessons"]');
  if (!lessons) return;
  var chosen = {};
  (lessons.getAttribute('content') || '').split(/\s+/).forEach(function (pair) {
    var match = /^([a-z0-9-]+)=([a-z-]+)$/.exec(pair);
    if (match) chosen[match[1]] = match[2];
  });
  var id = new URLSearchParams(location.search).get('lesson') || '';
  var name = Object.prototype.hasOwnProperty.call(chosen, id) ? chosen[id] : lessons.getAttribute('data-np-every-kind');
  var engine = engines[name] || engines[lessons.getAttribute('data-np-every-kind')];
  if (!engine) return;  // np-app.js falls back to asset-names.json
  name = engine.getAttribute('data-np-engine');
  ['wasm', 'data', 'js'].forEach(function (ext) {
    var link = document.createElement('link');
    link.rel = 'preload';
    link.href = engine.getAttribute('data-' + ext);
    if (ext === 'js') link.as = 'script';
    else { link.as = 'fetch'; link.crossOrigin = 'anonymous'; }  // fetch() asks in cors mode: the preload must match it
    // Ahead of the page's own scripts, which the browser found in the HTML while this one loaded:
    // the wasm is the longest download, and its compile starts with its first bytes.
    if (ext !== 'js') link.setAttribute('fetchpriority', 'high');
    link.setAttribute('data-np-asset', name + '.' + ext);
    link.setAttribute('data-np-bytes', engine.getAttribute('data-' + ext + '-bytes') || '0');
    document.head.appendChild(link);
  });
})();
