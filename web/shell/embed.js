/* NeuralPath embed: one <script> tag on a course page turns every
 *
 *   <div data-neuralpath-lesson="self-attention"></div>
 *
 * into an iframe of that lesson (embed mode), sized to the lesson's content as it loads and
 * changes (no inner scrollbar, nothing cut off). Optional attributes on the div:
 *   data-section="ANCHOR"  data-theme="light|dark"  data-voice="on|off"  data-title="..."
 *
 * The lesson's messages arrive on the div as DOM events, for the host's own code:
 *   neuralpath:ready  neuralpath:resize  neuralpath:section  neuralpath:answered
 *   neuralpath:progress  neuralpath:completed          (event.detail = the message)
 * answered / progress / completed carry an xAPI-shaped `statement` (add your actor).
 *
 * And the div gets a small API to drive the lesson:
 *   div.neuralpath.goto(anchor) .play() .pause() .setSentence(text[, widgetId]) .restore(progress)
 *
 * To keep a long lesson sharp and fast, the script also tells each frame which part of it is on
 * screen (a 'viewport' message as the page scrolls), and scrolls the page when the lesson asks
 * to show a place of its own (a link in its contents).
 *
 * A classic script (not a module) so it works wherever a <script src> does; it loads lessons
 * from the site it was itself loaded from.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) {
    console.warn('neuralpath embed.js: include it with <script src="https://…/embed.js">');
    return;
  }
  var site = new URL('.', script.src);           // lesson.html sits beside embed.js
  var lessonOrigin = site.origin;
  var idPattern = /^[a-z0-9][a-z0-9-]{0,63}$/;
  var embeds = [];                                // {host, iframe, ready, queue}

  function hostOrigin() {
    // A page opened from a file has no origin to allow; commands to the lesson cannot work.
    return location.origin && location.origin !== 'null' ? location.origin : '';
  }

  function lessonUrl(host, id) {
    var url = new URL('lesson.html', site);
    url.searchParams.set('lesson', id);
    url.searchParams.set('embed', '1');
    var origin = hostOrigin();
    if (origin) url.searchParams.set('allow', origin);
    var section = host.getAttribute('data-section');
    var theme = host.getAttribute('data-theme');
    var voice = host.getAttribute('data-voice');
    if (section) url.searchParams.set('section', section);
    if (theme === 'light' || theme === 'dark') url.searchParams.set('theme', theme);
    if (voice === 'on' || voice === 'off') url.searchParams.set('voice', voice);
    return url.href;
  }

  function send(embed, message) {
    var data = Object.assign({}, message, { target: 'neuralpath' });
    // Until the lesson says it is ready, its listener may not exist yet: keep the message.
    if (!embed.ready) { embed.queue.push(data); return; }
    if (embed.iframe.contentWindow) embed.iframe.contentWindow.postMessage(data, lessonOrigin);
  }

  function upgrade(host) {
    if (host.neuralpath) return;
    var id = host.getAttribute('data-neuralpath-lesson') || '';
    if (!idPattern.test(id)) {
      console.warn('neuralpath embed.js: "' + id.slice(0, 64) + '" is not a lesson name');
      return;
    }
    var iframe = document.createElement('iframe');
    iframe.src = lessonUrl(host, id);
    // Until the lesson says its title (in the lesson's own words: 'ready' carries frameTitle),
    // the frame is named by the lesson's id; this script, on the host's page, has no words.
    iframe.title = host.getAttribute('data-title') || id;
    iframe.loading = 'lazy';
    iframe.setAttribute('allow', 'clipboard-write');
    // Full width, no border; a first height until the lesson reports its own.
    iframe.style.cssText = 'display:block;width:100%;border:0;height:30rem;';
    var embed = { host: host, iframe: iframe, ready: false, queue: [] };
    embeds.push(embed);
    host.neuralpath = {
      iframe: iframe,
      send: function (message) { send(embed, message); },
      goto: function (section) { send(embed, { type: 'goto', section: String(section) }); },
      play: function () { send(embed, { type: 'play' }); },
      pause: function () { send(embed, { type: 'pause' }); },
      setSentence: function (text, widget) {
        var message = { type: 'setSentence', text: String(text) };
        if (widget) message.widget = String(widget);
        send(embed, message);
      },
      restore: function (progress) { send(embed, { type: 'restore', progress: progress }); },
    };
    host.replaceChildren(iframe);   // any fallback content (a plain link) gives way
  }

  // Which part of each lesson frame is on screen, in the frame's own coordinates: the lesson
  // draws just that part of its tall page (see np-host.js). Sent on scroll and resize, at most
  // once per animation frame.
  function sendViewport(embed) {
    if (!embed.ready || !embed.iframe.contentWindow) return;
    var rect = embed.iframe.getBoundingClientRect();
    if (rect.bottom < -window.innerHeight || rect.top > 2 * window.innerHeight) return;   // far off screen
    embed.iframe.contentWindow.postMessage({ target: 'neuralpath', type: 'viewport',
      top: Math.round(-rect.top), height: Math.round(window.innerHeight) }, lessonOrigin);
  }
  var viewportQueued = false;
  function viewportChanged() {
    if (viewportQueued) return;
    viewportQueued = true;
    requestAnimationFrame(function () {
      viewportQueued = false;
      for (var i = 0; i < embeds.length; i++) sendViewport(embeds[i]);
    });
  }
  window.addEventListener('scroll', viewportChanged, { passive: true });
  window.addEventListener('resize', viewportChanged);

  function scan(rootNode) {
    if (rootNode.nodeType !== 1) return;
    if (rootNode.hasAttribute('data-neuralpath-lesson')) upgrade(rootNode);
    var found = rootNode.querySelectorAll('[data-neuralpath-lesson]');
    for (var i = 0; i < found.length; i++) upgrade(found[i]);
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== lessonOrigin) return;
    var embed = null;
    for (var i = 0; i < embeds.length; i++) {
      if (embeds[i].iframe.contentWindow === event.source) { embed = embeds[i]; break; }
    }
    var data = event.data;
    if (!embed || !data || data.source !== 'neuralpath' || typeof data.type !== 'string') return;
    if (data.type === 'resize' || data.type === 'ready') {
      var height = Number(data.height);
      if (isFinite(height) && height > 0) embed.iframe.style.height = Math.ceil(Math.min(height, 1e6)) + 'px';
      viewportChanged();
    }
    if (data.type === 'scroll' && isFinite(Number(data.top))) {
      // The lesson moved to a place of its own (its contents, a goto) and has already glided
      // there inside its canvas: the page jumps to match, so what is on screen stays put.
      window.scrollTo({ top: window.scrollY + embed.iframe.getBoundingClientRect().top + Number(data.top),
        behavior: 'instant' });
      return;
    }
    if (data.type === 'ready') {
      if (data.frameTitle && !embed.host.getAttribute('data-title')) embed.iframe.title = String(data.frameTitle);
      embed.ready = true;
      var queued = embed.queue.splice(0);
      for (var j = 0; j < queued.length; j++) embed.iframe.contentWindow.postMessage(queued[j], lessonOrigin);
      sendViewport(embed);
    }
    embed.host.dispatchEvent(new CustomEvent('neuralpath:' + data.type, { detail: data, bubbles: true }));
  });

  function start() {
    scan(document.documentElement);
    new MutationObserver(function (records) {
      for (var i = 0; i < records.length; i++) {
        for (var j = 0; j < records[i].addedNodes.length; j++) scan(records[i].addedNodes[j]);
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
