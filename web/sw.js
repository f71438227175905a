// Sortie's service worker. It makes the client installable, answers a page
// the server cannot send with the offline page, and shows the notifications
// the server pushes. It keeps no copy of anything else: a board, a lobby or
// a score always comes from the server, so nothing stale is ever shown as if
// it were live.

const CACHE = 'sortie-offline-1';
const OFFLINE = '/offline.html';
const KEEP = [OFFLINE, '/offline.css', '/offline.js', '/icons/sortie.svg'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin === self.location.origin && KEEP.includes(url.pathname) && url.pathname !== OFFLINE) {
    // What the offline page needs: from the network when it answers.
    event.respondWith(fetch(req).catch(() => caches.match(req)));
    return;
  }
  if (req.mode !== 'navigate') return; // the API, sockets, scripts: the network, as without a worker
  event.respondWith(fetch(req).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
});

// A push carries {title, body, url, tag, lang?}: shown as it is, and
// opening it leads to url.
self.addEventListener('push', (event) => {
  let msg = {};
  try { msg = event.data ? event.data.json() : {}; } catch { msg = {body: event.data ? event.data.text() : ''}; }
  event.waitUntil(self.registration.showNotification(msg.title || 'Sortie', {
    body: msg.body || '', tag: msg.tag || undefined, lang: msg.lang || undefined,
    icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', data: {url: msg.url || '/'},
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  if (target.origin !== self.location.origin) return; // only ever Sortie's own pages
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({type: 'window', includeUncontrolled: true});
    for (const c of open) {
      if (new URL(c.url).pathname === target.pathname && 'focus' in c) return c.focus();
    }
    return self.clients.openWindow(target.href);
  })());
});
