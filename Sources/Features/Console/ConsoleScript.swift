/// The console's script (`GET /console/app.js`, same-origin, so the Content-Security-Policy needs
/// no inline script). It fills the page's `#content` from the admin JSON routes with the
/// session cookie, sends changes with the page's CSRF token in `X-CSRF-Token`, and builds every
/// element with `textContent` / `createElement`: stored data (numbers, vendor errors, fraud
/// keys) is never parsed as HTML. A 401 (the session ended) goes back to the sign-in form.
/// The pages' loaders live in `ConsoleScript+Lookup`, `+Log`, `+Delivery` and `+Fraud`; this
/// file holds the helpers they share and starts the page's loader (again every
/// ``refreshSeconds`` on pages whose numbers move, unless the operator is typing or confirming).
enum ConsoleScript {
    static let refreshSeconds = 10
    static let source = prelude + lookup + log + delivery + fraud + epilogue

    static let prelude = #"""
        'use strict';
        (function () {
          var body = document.body;
          var page = body.dataset.page;
          var meta = document.querySelector('meta[name="csrf-token"]');
          var csrf = meta ? meta.getAttribute('content') : '';
          var content = document.getElementById('content');

          function el(tag, attrs) {
            var e = document.createElement(tag);
            Object.keys(attrs || {}).forEach(function (k) {
              if (k === 'text') e.textContent = attrs[k]; else if (k === 'class') e.className = attrs[k]; else e.setAttribute(k, attrs[k]);
            });
            for (var i = 2; i < arguments.length; i++) {
              var c = arguments[i];
              if (c === null || c === undefined) continue;
              e.append(c instanceof Node ? c : String(c));
            }
            return e;
          }
          function svg(tag, attrs) {
            var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
            Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
            return e;
          }
          function status(text, bad) {
            var s = document.getElementById('status');
            if (!s) { s = el('p', { id: 'status', role: 'status' }); content.before(s); }
            s.className = bad ? 'error' : 'note';
            s.textContent = text;
          }
          function api(method, path, payload) {
            var init = { method: method, credentials: 'same-origin', headers: { 'Accept': 'application/json' } };
            if (method !== 'GET') init.headers['X-CSRF-Token'] = csrf;
            if (payload !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(payload); }
            return fetch(path, init).then(function (r) {
              if (r.status === 401) { window.location.assign('/console'); throw new Error('signed out'); }
              return r.json().catch(function () { return {}; }).then(function (json) {
                if (!r.ok) throw new Error((json.error && json.error.message) || ('HTTP ' + r.status));
                return json;
              });
            });
          }
          function table(id, headers, rows, rowClass) {
            var head = el('tr', {});
            headers.forEach(function (h) { head.append(el('th', { scope: 'col', text: h })); });
            var tbody = el('tbody', {});
            rows.forEach(function (cells, i) {
              var tr = el('tr', rowClass && rowClass(i) ? { class: rowClass(i) } : {});
              cells.forEach(function (c) { tr.append(c instanceof Node ? el('td', {}, c) : el('td', { text: c === null || c === undefined ? '—' : String(c) })); });
              tbody.append(tr);
            });
            if (!rows.length) tbody.append(el('tr', {}, el('td', { colspan: String(headers.length), class: 'muted', text: 'None.' })));
            return el('table', { id: id }, el('thead', {}, head), tbody);
          }
          function button(label, id, action) {
            var b = el('button', { type: 'button', id: id, text: label });
            b.addEventListener('click', function () {
              b.disabled = true;
              action().catch(function (e) { status(e.message, true); }).finally(function () { b.disabled = false; });
            });
            return b;
          }
          // Every change asks first, in the page (a <dialog>, no window.confirm): what it does, to what.
          function confirmed(question, action) {
            return function () {
              return new Promise(function (resolve, reject) {
                var d = el('dialog', { id: 'confirm', class: 'confirm' });
                var yes = el('button', { type: 'button', id: 'confirm-yes', text: 'Confirm' });
                var no = el('button', { type: 'button', id: 'confirm-no', class: 'secondary', text: 'Cancel' });
                d.append(el('p', { id: 'confirm-text', text: question }), el('div', { class: 'actions' }, yes, no));
                document.body.append(d);
                function close() { d.close(); d.remove(); }
                no.addEventListener('click', function () { close(); resolve(); });
                d.addEventListener('cancel', function () { close(); resolve(); });
                yes.addEventListener('click', function () { close(); action().then(resolve, reject); });
                d.showModal();
              });
            };
          }
          function section(title, id) { var s = el('section', { id: id }, el('h2', { text: title })); content.append(s); return s; }
          function time(t) { return t ? t.replace('T', ' ').replace('Z', ' UTC') : '—'; }
          function link(text, href) { return el('a', { href: href, text: text }); }
          function ago(seconds) {
            if (!seconds) return '—';
            return seconds < 120 ? seconds + ' s' : seconds < 7200 ? Math.round(seconds / 60) + ' min' : Math.round(seconds / 3600) + ' h';
          }
          function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }
          // A fraud key as people read it: "NG (country)", "+23480212… (block, WhatsApp) for account
          // AC…" (a channel's own key ends in @channel, a /v2 tenant's in ~ACCOUNT); never an internal key.
          function place(key) {
            var i = key.indexOf(':'), kind = key.slice(0, i), value = key.slice(i + 1), tenant = '', channel = '';
            var t = value.indexOf('~');
            if (t >= 0) { tenant = ' for account ' + value.slice(t + 1); value = value.slice(0, t); }
            var c = value.indexOf('@');
            if (c >= 0) { channel = value.slice(c + 1) === 'call' ? ', calls' : ', WhatsApp'; value = value.slice(0, c); }
            if (kind === 'country') return value + ' (country' + channel + ')' + tenant;
            if (kind === 'prefix') return value + '… (block' + channel + ')' + tenant;
            return null;
          }
          function line(label, points, max, cls) {
            var width = 560, height = 120, n = points.length, step = width / Math.max(1, n - 1);
            var d = points.map(function (p, i) { return (i ? 'L' : 'M') + (i * step).toFixed(1) + ' ' + (height - 4 - (height - 8) * (p === null ? 0 : p) / max).toFixed(1); }).join(' ');
            return svg('path', { d: d, class: 'line ' + cls, 'data-label': label });
          }
        """#

    static let epilogue = #"""
          var loaders = { lookup: lookupPage, number: numberPage, log: logPage, verification: verificationPage, fraud: fraudPage,
                          settings: settingsPage, delivery: deliveryPage };
          var moving = { lookup: true, log: true, delivery: true, fraud: true };
          function load() {
            return loaders[page]().catch(function (e) { if (e.message !== 'signed out') status(e.message, true); });
          }
          if (content && loaders[page]) {
            load();
            if (moving[page]) {
              var refresh = el('p', { id: 'refresh', class: 'muted', text: 'Refreshes every \#(refreshSeconds) s.' });
              content.before(refresh);
              window.setInterval(function () {
                // Not while the operator types, confirms, or looks at an older page of the log.
                var active = document.activeElement;
                if (document.hidden || document.getElementById('confirm') || body.dataset.paused) return;
                if (active && content.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) return;
                load().then(function () { refresh.textContent = 'Refreshed ' + new Date().toLocaleTimeString() + ' (every \#(refreshSeconds) s).'; });
              }, \#(refreshSeconds) * 1000);
            }
          }
        })();
        """#
}
