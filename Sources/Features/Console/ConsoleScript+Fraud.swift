/// The fraud page: paused, blocked and watched destinations first and highlighted, each with its
/// reason in words, the spend its pause turns away (estimated from its usual hourly volume over
/// the last day), and the lift actions, each asked first.
extension ConsoleScript {
    static let fraud = #"""
          var rank = { blocked: 0, paused: 1, watched: 2, allowed: 3, normal: 4 };
          function fraudAction(key, action, question) {
            return confirmed(question, function () {
              var done = function () { return fraudPage().then(function () { status((action || 'cleared override') + ': ' + (place(key) || key)); }); };
              if (!action) return api('DELETE', '/v1/admin/fraud/' + encodeURIComponent(key)).then(done);
              return api('PUT', '/v1/admin/fraud/' + encodeURIComponent(key), { action: action }).then(done);
            });
          }
          // Usual volume: the median hourly sends over the last day; the peak: the busiest hour.
          function usual(k) {
            var sorted = k.sent.slice().sort(function (a, b) { return a - b; });
            return { usual: sorted[Math.floor(sorted.length / 2)] || 0, peak: sorted[sorted.length - 1] || 0 };
          }
          function hourly(k, i) {
            var width = 480, height = 70, n = k.sent.length, w = width / n;
            var max = Math.max.apply(null, [1].concat(k.sent));
            var s = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img', id: 'history-' + i });
            var title = svg('title', {}); title.textContent = place(k.key) + ': sent and approved per hour, last 24 hours'; s.append(title);
            k.sent.forEach(function (sent, h) {
              var hs = (height - 4) * sent / max, ha = (height - 4) * k.approved[h] / max;
              s.append(svg('rect', { x: h * w + 1, y: height - hs, width: w - 2, height: hs, class: 'sent' }),
                       svg('rect', { x: h * w + 1, y: height - ha, width: w - 2, height: ha, class: 'approved' }));
            });
            var sent = sum(k.sent), ok = sum(k.approved);
            return el('div', { class: 'history' }, el('strong', { text: place(k.key) }),
              el('span', { class: 'muted', text: ' ' + ok + '/' + sent + ' approved' + (sent ? ' (' + Math.round(100 * ok / sent) + '%)' : '') }),
              el('br', {}), s);
          }
          function fraudPage() {
            return Promise.all([api('GET', '/v1/admin/fraud'), api('GET', '/v1/admin/fraud-history')]).then(function (both) {
              var d = both[0], h = both[1];
              var history = {};
              h.keys.forEach(function (k) { history[k.key] = k; });
              var keys = d.keys.filter(function (k) { return place(k.key); }).sort(function (a, b) {
                return (rank[a.state] - rank[b.state]) || (b.sent - a.sent) || (a.key < b.key ? -1 : 1);
              });
              content.replaceChildren();
              var held = keys.filter(function (k) { return k.state !== 'normal' && k.state !== 'allowed'; });
              var banner = el('div', { id: 'fraud-health', class: held.length ? 'banner bad' : 'banner ok', role: 'status' });
              banner.textContent = held.length ? held.length + ' destination(s) paused, blocked or watched: ' + held.map(function (k) { return place(k.key) + ' ' + k.state; }).join(', ')
                : 'No destination is paused or watched.';
              content.append(banner);
              section('Destinations (the guard\'s window), paused and watched first', 'fraud-decisions').append(table('fraud-table',
                ['Destination', 'State', 'Why', 'Sent', 'Approved', 'Conversion', 'Turned away (est.)', 'Override', ''],
                keys.map(function (k, i) {
                  var name = place(k.key), saved = '—';
                  if ((k.state === 'paused' || k.state === 'blocked') && history[k.key]) {
                    var u = usual(history[k.key]);
                    saved = '≈ ' + Math.max(0, u.peak - u.usual) + ' sends/h (peak ' + u.peak + '/h, usual ' + u.usual + '/h)';
                  }
                  var actions = el('span', { class: 'actions' },
                    button('Allow', 'allow-' + i, fraudAction(k.key, 'allow', 'Allow ' + name + '? The guard will not pause it until you clear this.')),
                    button('Block', 'block-' + i, fraudAction(k.key, 'block', 'Block ' + name + '? Every start to it is refused until you clear this.')),
                    button('Clear', 'clear-' + i, fraudAction(k.key, null, 'Clear the override of ' + name + '? The guard decides again.')));
                  return [name, k.state, k.reason || '—', k.sent, k.approved, k.conversion === null ? '—' : Math.round(k.conversion * 1000) / 10 + '%',
                          saved, k.override, actions];
                }), function (i) { return 'state-' + keys[i].state; }));
              var form = el('form', { id: 'fraud-form', class: 'inline' });
              var input = el('input', { id: 'fraud-key', name: 'key', placeholder: 'country:US or prefix:+1415555', maxlength: '64', required: '' });
              form.append(el('label', { for: 'fraud-key', text: 'Country or block' }), input,
                button('Block', 'fraud-block', function () { return fraudAction(input.value.trim(), 'block', 'Block ' + input.value.trim() + '?')(); }),
                button('Allow', 'fraud-allow', function () { return fraudAction(input.value.trim(), 'allow', 'Allow ' + input.value.trim() + '?')(); }));
              form.addEventListener('submit', function (e) { e.preventDefault(); });
              section('Override a destination', 'fraud-override').append(form,
                el('p', { class: 'muted', text: 'A number\'s own send quota is lifted from its lookup page (Lift send quota).' }));
              var hist = section('Last 24 hours, per hour', 'fraud-history');
              hist.append(el('p', { class: 'legend' }, el('span', { class: 'swatch sent' }), ' sent ', el('span', { class: 'swatch approved' }), ' approved'));
              var shown = h.keys.filter(function (k) { return place(k.key); });
              if (!shown.length) hist.append(el('p', { class: 'muted', text: 'No sends in the last 24 hours.' }));
              shown.forEach(function (k, i) { hist.append(hourly(k, i)); });
              section('Challenges (this replica, since start)', 'challenges').append(table('challenges-table', ['Provider', 'Outcome', 'Count'],
                h.challenges.map(function (x) { return [x.provider, x.outcome, x.count]; })));
            });
          }

        """#
}
