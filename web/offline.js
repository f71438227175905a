// The offline page: says it in the reader's language only (the one the
// client keeps, else the browser's), and reloads when the network is back.
(() => {
  let lang = '';
  try { lang = localStorage.getItem('sortie.lang') || ''; } catch { /* private mode */ }
  if (!lang) lang = (navigator.language || 'en').slice(0, 2);
  if (lang !== 'fr') lang = 'en';
  document.documentElement.lang = lang;
  document.getElementById(lang === 'fr' ? 'offline-en' : 'offline-fr').hidden = true;
  document.title = lang === 'fr' ? 'Sortie — hors ligne' : 'Sortie — offline';
  window.addEventListener('online', () => location.reload());
  // The network may be back while the browser still says online: look now and then.
  setInterval(() => {
    fetch('/healthz', {cache: 'no-store'}).then((r) => { if (r.ok) location.reload(); }).catch(() => {});
  }, 10000);
})();
