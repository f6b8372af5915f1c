/// The console's script (`GET /console/app.js`, same-origin, so the Content-Security-Policy needs
/// no inline script). It fills the page's `#content` from the admin JSON routes with the
/// session cookie, sends changes with the page's CSRF token in `X-CSRF-Token`, and builds every
/// element with `textContent` / `createElement`: stored data (numbers, vendor errors, fraud
/// keys) is never parsed as HTML. A 401 (the session ended) goes back to the sign-in form.
enum ConsoleScript {
    static let source = #"""
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
          function table(id, headers, rows) {
            var head = el('tr', {});
            headers.forEach(function (h) { head.append(el('th', { scope: 'col', text: h })); });
            var tbody = el('tbody', {});
            rows.forEach(function (cells) {
              var tr = el('tr', {});
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

          function numberPage(cursor) {
            var n = body.dataset.number;
            var path = '/v1/admin/numbers/' + encodeURIComponent(n) + '?limit=20' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
            return api('GET', path).then(function (d) {
              content.replaceChildren();
              var p = d.parse;
              var facts = el('dl', { id: 'parse' });
              [['E.164', d.phone_number], ['Valid', p.valid ? 'yes' : 'no'], ['Region', p.region], ['Country code', '+' + p.country_code],
               ['Line type', p.line_type], ['Judged by', p.source === 'declared_range' ? 'declared range ' + p.range.region + ' ' + p.range.prefix + ' (' + p.range.length + ' digits, ' + p.range.type + ')' : 'libphonenumber']]
                .forEach(function (kv) { facts.append(el('dt', { text: kv[0] }), el('dd', { text: kv[1] })); });
              section('Number', 'number-facts').append(facts);
              var v = section('Verifications', 'verifications');
              v.append(table('verifications-table', ['Created', 'Status', 'Channel', 'Purpose', 'Attempts', 'Sends', 'Delivery', 'Gateway', 'Vendor error', 'Expires'],
                d.verifications.map(function (x) {
                  var dl = x.delivery || {};
                  return [time(x.created_at), x.status, x.channel, x.purpose, x.attempts + ' / ' + x.max_attempts, x.sends,
                          dl.status, dl.gateway, dl.last_error, time(x.expires_at)];
                })));
              if (d.next_cursor) v.append(button('Older', 'older', function () { return numberPage(d.next_cursor); }));
              var sq = section('Send quota', 'send-quota');
              sq.append(table('quota-table', ['Window', 'Quota', 'Left', 'Next slot in'],
                d.send_quota.map(function (q) { return [q.window_seconds + ' s', q.quota, q.remaining, q.reset_seconds ? q.reset_seconds + ' s' : '—']; })));
              sq.append(button('Lift send quota', 'lift-quota', confirmed('Lift the send quota of ' + n + ' (every channel, window and requester)? Its owner can then start at once.', function () {
                return api('DELETE', '/v1/admin/limits/' + encodeURIComponent(n)).then(function (r) {
                  return numberPage().then(function () { status('Lifted the send quota: ' + r.cleared + ' log(s) cleared.'); });
                });
              })));
              var l = section('Lockouts', 'lockouts');
              l.append(table('lockouts-table', ['Requester', 'Failed checks', 'Locked until'],
                d.lockouts.map(function (x) { return [x.requester, x.failures, time(x.locked_until)]; })));
              if (d.lockouts.length) l.append(button('Lift lockouts', 'lift-lockouts', confirmed('Lift every failed-check lockout of ' + n + '?', function () {
                return api('DELETE', '/v1/admin/lockouts/' + encodeURIComponent(n)).then(function (r) {
                  return numberPage().then(function () { status('Lifted ' + r.cleared + ' lockout(s).'); });
                });
              })));
              section('MFA factors', 'factors').append(table('factors-table', ['Factor', 'Subject', 'Enrolled', 'Last used', ''],
                d.factors.map(function (f, i) {
                  return [f.id, f.subject, time(f.created_at), time(f.last_used_at), button('Delete', 'delete-factor-' + i, confirmed('Delete factor ' + f.id + ' of ' + f.subject + '?', function () {
                    return api('DELETE', '/v1/admin/users/' + encodeURIComponent(f.subject) + '/factors/' + encodeURIComponent(f.id)).then(function () {
                      return numberPage().then(function () { status('Deleted factor ' + f.id + '.'); });
                    });
                  }))];
                })));
            });
          }

          function fraudAction(key, action) {
            var done = function () { return fraudPage().then(function () { status((action || 'clear') + ': ' + key); }); };
            if (!action) return api('DELETE', '/v1/admin/fraud/' + encodeURIComponent(key)).then(done);
            return api('PUT', '/v1/admin/fraud/' + encodeURIComponent(key), { action: action }).then(done);
          }
          function chart(keys) {
            var top = keys.slice(0, 12), width = 640, bar = 18, height = top.length * (bar + 6) + 24;
            var max = Math.max.apply(null, [1].concat(top.map(function (k) { return k.sent; })));
            var s = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img', id: 'fraud-chart' });
            s.append(svg('title', {}));
            s.firstChild.textContent = 'Sent and approved per country and block';
            top.forEach(function (k, i) {
              var y = 4 + i * (bar + 6), w = 420 * k.sent / max, a = 420 * k.approved / max;
              var label = svg('text', { x: 0, y: y + 13, class: 'label' }); label.textContent = k.key.slice(0, 24);
              s.append(label, svg('rect', { x: 190, y: y, width: Math.max(w, 1), height: bar, class: 'sent' }),
                       svg('rect', { x: 190, y: y, width: Math.max(a, 0), height: bar, class: 'approved' }));
              var n = svg('text', { x: 196 + Math.max(w, 1), y: y + 13, class: 'label' });
              n.textContent = k.approved + '/' + k.sent + (k.conversion === null ? '' : ' (' + Math.round(k.conversion * 100) + '%)');
              s.append(n);
            });
            return s;
          }
          function hourly(k, i) {
            var width = 480, height = 70, n = k.sent.length, w = width / n;
            var max = Math.max.apply(null, [1].concat(k.sent));
            var s = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img', id: 'history-' + i });
            var title = svg('title', {}); title.textContent = k.key + ': sent and approved per hour, last 24 hours'; s.append(title);
            k.sent.forEach(function (sent, h) {
              var hs = (height - 4) * sent / max, ha = (height - 4) * k.approved[h] / max;
              s.append(svg('rect', { x: h * w + 1, y: height - hs, width: w - 2, height: hs, class: 'sent' }),
                       svg('rect', { x: h * w + 1, y: height - ha, width: w - 2, height: ha, class: 'approved' }));
            });
            var sent = k.sent.reduce(function (a, b) { return a + b; }, 0), ok = k.approved.reduce(function (a, b) { return a + b; }, 0);
            return el('div', { class: 'history' }, el('strong', { text: k.key }),
              el('span', { class: 'muted', text: ' ' + ok + '/' + sent + ' approved' + (sent ? ' (' + Math.round(100 * ok / sent) + '%)' : '') }),
              el('br', {}), s);
          }
          function fraudPage() {
            return Promise.all([api('GET', '/v1/admin/fraud'), api('GET', '/v1/admin/fraud-history')]).then(function (both) {
              var d = both[0], h = both[1];
              content.replaceChildren();
              var c = section('Now (the guard\'s window)', 'fraud-volume');
              c.append(el('p', { class: 'legend' }, el('span', { class: 'swatch sent' }), ' sent ', el('span', { class: 'swatch approved' }), ' approved'));
              c.append(chart(d.keys));
              var hist = section('Last 24 hours, per hour', 'fraud-history');
              if (!h.keys.length) hist.append(el('p', { class: 'muted', text: 'No sends in the last 24 hours.' }));
              h.keys.forEach(function (k, i) { hist.append(hourly(k, i)); });
              var form = el('form', { id: 'fraud-form', class: 'inline' });
              var input = el('input', { id: 'fraud-key', name: 'key', placeholder: 'country:US or prefix:+1415555', maxlength: '64', required: '' });
              form.append(el('label', { for: 'fraud-key', text: 'Country or block' }), input,
                button('Block', 'fraud-block', function () { return fraudAction(input.value.trim(), 'block'); }),
                button('Allow', 'fraud-allow', function () { return fraudAction(input.value.trim(), 'allow'); }));
              form.addEventListener('submit', function (e) { e.preventDefault(); });
              section('Override', 'fraud-override').append(form);
              section('Guard decisions', 'fraud-decisions').append(table('fraud-table',
                ['Key', 'Sent', 'Approved', 'Conversion', 'State', 'Why', 'Override', ''],
                d.keys.map(function (k, i) {
                  var actions = el('span', { class: 'actions' },
                    button('Allow', 'allow-' + i, function () { return fraudAction(k.key, 'allow'); }),
                    button('Block', 'block-' + i, function () { return fraudAction(k.key, 'block'); }),
                    button('Clear', 'clear-' + i, function () { return fraudAction(k.key, null); }));
                  return [k.key, k.sent, k.approved, k.conversion === null ? '—' : Math.round(k.conversion * 1000) / 10 + '%',
                          k.state, k.reason, k.override, actions];
                })));
              section('Challenges (this replica, since start)', 'challenges').append(table('challenges-table', ['Provider', 'Outcome', 'Count'],
                h.challenges.map(function (x) { return [x.provider, x.outcome, x.count]; })));
            });
          }

          function settingsPage() {
            return api('GET', '/v1/admin/settings').then(function (d) {
              content.replaceChildren();
              section('Signing keys', 'signing-keys').append(table('keys-table', ['kid', 'Algorithm', 'Status', 'Created', 'In JWKS'],
                d.signing_keys.map(function (k) { return [k.kid, k.algorithm, k.status, time(k.created_at), k.published ? 'yes' : 'no']; })));
              section('Settings', 'settings').append(table('settings-table', ['Setting', 'Value'],
                d.settings.map(function (s) { return [s.name, s.value]; })));
            });
          }
          function deliveryPage() {
            return api('GET', '/v1/admin/delivery').then(function (d) {
              content.replaceChildren();
              section('Gateways', 'circuits').append(table('circuits-table', ['Gateway', 'Circuit'],
                d.circuits.map(function (c) { return [c.gateway, c.state]; })));
              section('Outbox', 'outbox').append(table('outbox-table', ['Queued', 'Oldest (s)'], [[d.outbox.depth, d.outbox.oldest_age_seconds]]));
              ['hour', 'day'].forEach(function (w) {
                section('Last ' + w, 'delivery-' + w).append(table('delivery-' + w + '-table',
                  ['Gateway', 'Country', 'Queued', 'Sent', 'Delivered', 'Undelivered', 'Failed'],
                  d[w].map(function (r) { return [r.gateway, r.country, r.queued, r.sent, r.delivered, r.undelivered, r.failed]; })));
              });
            });
          }

          var loaders = { number: numberPage, fraud: fraudPage, settings: settingsPage, delivery: deliveryPage };
          if (content && loaders[page]) {
            loaders[page]().catch(function (e) { if (e.message !== 'signed out') status(e.message, true); });
          }
        })();
        """#
}
