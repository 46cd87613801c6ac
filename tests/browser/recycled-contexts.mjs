// Browser contexts that a test file's tests take over one after another, so that most lesson pages
// open in a tab that has opened one before.
//
// Why. A new Playwright context is a new renderer process: its page compiles the engine's
// WebAssembly again, V8 optimises it again, and the page's scripts start cold. Measured on this
// project's 2-core machine (self-attention, 1280x800, docs/performance.md): a new context's page
// is ready 1.9-2.4 s after the test asks for it, for 4.0-4.6 s of CPU; the same tab sent to the
// lesson again, through about:blank with its origin's storage cleared, is ready in 0.75-0.97 s
// for 1.4-2.0 s of CPU (the renderer keeps the compiled module).
//
// What a test sees is a new context: `browser.newContext(options)` returns one, and its first
// `newPage()` is a tab on about:blank with nothing kept (every origin it visited has had its
// storage, cookies included, cleared), at the viewport asked for. `close()` ends the test's use
// of it. What differs from a new context is what the browser keeps for speed alone: compiled
// code and its memory cache of files, and the tab's history.
//
// What a test adds to a context or a page is taken away when it is handed back: its listeners,
// init scripts, routes and exposed functions. A test that changes it in a way Playwright cannot
// undo (the clock, permissions, emulated media, headers, a second page or a popup) gets a
// context that is closed for real afterwards. A test that needs a browser that has never seen
// the site (what a first visit downloads) asks the real browser (harness.mjs's env.realBrowser).

// What Playwright can take away again (each returns a Disposable).
const undoable = new Set(['addInitScript', 'route', 'exposeBinding', 'exposeFunction']);
// Ways to add an event listener. Only the test's listeners are taken off: Playwright's own (the
// one close() waits for, among others) must stay, so removeAllListeners() is not an option.
const listenerAdders = new Set(['on', 'addListener', 'once', 'prependListener', 'prependOnceListener']);
// What changes a context or a page for good.
const contextChangers = new Set(['routeFromHAR', 'routeWebSocket', 'grantPermissions', 'setGeolocation',
  'setOffline', 'setExtraHTTPHeaders', 'setHTTPCredentials', 'addCookies', 'clock', 'setDefaultTimeout',
  'setDefaultNavigationTimeout', 'tracing', 'request']);
const pageChangers = new Set(['routeFromHAR', 'routeWebSocket', 'emulateMedia', 'setExtraHTTPHeaders', 'clock',
  'setDefaultTimeout', 'setDefaultNavigationTimeout', 'request', 'addLocatorHandler']);

const kIdleLimit = 4;  // idle contexts kept (a renderer process each); the oldest goes first
const kDefaultViewport = { width: 1280, height: 720 };  // Playwright's, for options that name none

// A stand-in for `real` (a context or a page) that a test uses as it would the real one: its
// `close` is `close`; what it adds that can be taken away is noted in `undo`; using one of
// `changers` calls `changed`. Methods are bound to the real object (Playwright's need their `this`).
function standIn(real, changers, { close, changed, undo }) {
  const stand = new Proxy(real, {
    get(target, property) {
      if (property === 'close') return close;
      if (changers.has(property)) changed();
      if (listenerAdders.has(property))
        return (event, listener) => {
          target[property](event, listener);
          undo.push(() => target.off(event, listener));
          return stand;
        };
      if (undoable.has(property))
        return async (...args) => {
          const added = await target[property](...args);
          undo.push(() => added.dispose());
          return added;
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return stand;
}

// `browser` with newContext() and newPage() recycling contexts; everything else is its own.
export function recycledBrowser(browser) {
  // Kept contexts, oldest first: { key, context, page, origins, undo }
  const idle = [];

  const closeQuietly = context => context.close().catch(() => {});

  // Undoes what the test added and leaves the tab on about:blank (which stops the page: its
  // timers and workers), then clears the storage of every origin it visited.
  async function reset(kept) {
    for (const step of kept.undo.splice(0).reverse()) await step();
    await kept.page.goto('about:blank', { timeout: 10_000 });
    const session = await kept.context.newCDPSession(kept.page);
    try {
      for (const origin of kept.origins)
        await session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    } finally {
      await session.detach().catch(() => {});
    }
    kept.origins.clear();
  }

  // Notes the origin of every document the tab (or a frame in it) shows.
  function watchOrigins(kept) {
    const page = kept.page;
    const listener = frame => {
      try {
        const { origin } = new URL(frame.url());
        if (origin.startsWith('http')) kept.origins.add(origin);
      } catch { /* about:blank */ }
    };
    page.on('framenavigated', listener);
    kept.undo.push(() => page.off('framenavigated', listener));
  }

  // A context for one test. `ownPage`: browser.newPage()'s, closed with its page.
  async function newContext(options = {}, { ownPage = false } = {}) {
    // The viewport is the tab's, set as it is taken; the other options are the context's for good.
    const { viewport, ...fixed } = options;
    const key = JSON.stringify({ fixed, noViewport: viewport === null });
    const found = idle.findIndex(kept => kept.key === key);
    let kept;
    if (found >= 0) {
      kept = idle.splice(found, 1)[0];
      if (viewport !== null) await kept.page.setViewportSize(viewport ?? kDefaultViewport);
      watchOrigins(kept);
    } else {
      kept = { key, context: await browser.newContext(options), page: null, origins: new Set(), undo: [] };
    }
    let changed = false, handedOut = false, closed = false;
    const markChanged = () => { changed = true; };

    async function close() {
      if (closed) return;
      closed = true;
      // (a page the stand-ins did not see, such as a popup, makes it single-use too)
      if (changed || !kept.page || kept.page.isClosed() || kept.context.pages().length > 1)
        return closeQuietly(kept.context);
      try {
        await reset(kept);
      } catch {
        return closeQuietly(kept.context);
      }
      idle.push(kept);
      while (idle.length > kIdleLimit) await closeQuietly(idle.shift().context);
    }

    const context = standIn(kept.context, contextChangers, { close, changed: markChanged, undo: kept.undo });
    const pageStandIn = () => standIn(kept.page, pageChangers, {
      close: ownPage ? close : async (...args) => { changed = true; await kept.page.close(...args); },
      changed: markChanged,
      undo: kept.undo,
    });
    // The first page is the kept tab; a second one makes the context single-use.
    async function newPage() {
      if (handedOut) {
        changed = true;
        return kept.context.newPage();
      }
      handedOut = true;
      // A clock installed before the first page (harness.mjs's openPage does) never reaches a tab
      // made before it: such a context gets a tab of its own, made after the change.
      if (kept.page && changed) {
        await kept.page.close().catch(() => {});
        kept.page = null;
      }
      if (!kept.page) {
        kept.page = await kept.context.newPage();
        watchOrigins(kept);
      }
      return pageStandIn();
    }
    return new Proxy(context, {
      get: (stand, property) => (property === 'newPage' ? newPage : Reflect.get(stand, property)),
    });
  }

  return new Proxy(browser, {
    get(target, property) {
      if (property === 'newContext') return options => newContext(options);
      if (property === 'newPage') return async options => (await newContext(options, { ownPage: true })).newPage();
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
