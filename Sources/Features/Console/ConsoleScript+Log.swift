/// The verification log (filters in the page's own query string, so a filtered view is a link;
/// keyset pages; CSV export of the same filters) and one verification with every message and
/// the events it emitted.
extension ConsoleScript {
    static let log = #"""
          var windows = { '1h': 3600, '24h': 86400, '7d': 604800 };
          function logQuery(extra) {
            var form = new URLSearchParams(window.location.search), q = new URLSearchParams();
            ['status', 'channel', 'country', 'number'].forEach(function (k) { if (form.get(k)) q.set(k, form.get(k)); });
            if (windows[form.get('window')]) q.set('since', new Date(Date.now() - windows[form.get('window')] * 1000).toISOString().replace(/\.\d+Z$/, 'Z'));
            Object.keys(extra || {}).forEach(function (k) { q.set(k, extra[k]); });
            return q.toString();
          }
          function filterForm() {
            var form = new URLSearchParams(window.location.search);
            var f = el('form', { id: 'log-filters', method: 'get', action: '/console/log', class: 'filters' });
            function choice(name, label, options) {
              var s = el('select', { id: 'filter-' + name, name: name });
              options.forEach(function (o) { var opt = el('option', { value: o[0], text: o[1] }); if (form.get(name) === o[0]) opt.selected = true; s.append(opt); });
              f.append(el('label', { for: 'filter-' + name, text: label }), s);
            }
            choice('status', 'Status', [['', 'any'], ['pending', 'pending'], ['approved', 'approved'], ['expired', 'expired'], ['canceled', 'canceled'], ['max_attempts_reached', 'max attempts']]);
            choice('channel', 'Channel used', [['', 'any'], ['sms', 'SMS'], ['whatsapp', 'WhatsApp'], ['call', 'call']]);
            f.append(el('label', { for: 'filter-country', text: 'Country' }),
                     el('input', { id: 'filter-country', name: 'country', maxlength: '2', size: '3', placeholder: 'NG', value: form.get('country') || '' }));
            f.append(el('label', { for: 'filter-number', text: 'Number' }),
                     el('input', { id: 'filter-number', name: 'number', maxlength: '32', placeholder: '+14155552671', value: form.get('number') || '' }));
            choice('window', 'Created', [['', 'any time'], ['1h', 'last hour'], ['24h', 'last 24 h'], ['7d', 'last 7 days']]);
            f.append(el('button', { type: 'submit', id: 'filter-apply', text: 'Filter' }),
                     el('a', { id: 'export-csv', class: 'button', href: '/v1/admin/verification-log.csv?' + logQuery(), text: 'Export CSV' }));
            return f;
          }
          function logPage(cursor) {
            if (cursor === undefined && body.dataset.paused) return Promise.resolve();
            return api('GET', '/v1/admin/verification-log?' + logQuery(cursor ? { cursor: cursor } : {})).then(function (d) {
              content.replaceChildren();
              content.append(filterForm());
              var s = section('Verifications, newest first', 'log');
              s.append(logTable('log-table', d.verifications));
              if (!d.verifications.length && d.next_cursor) s.append(el('p', { class: 'muted', text: 'None among the latest ' + d.scan_limit + ' read; older ones may match.' }));
              // On an older page the refresh stops, so the rows do not move under the operator.
              if (cursor) body.dataset.paused = '1';
              if (cursor) s.append(button('Newest', 'newest', function () { delete body.dataset.paused; return logPage(); }));
              if (d.next_cursor) s.append(button('Older', 'older', function () { return logPage(d.next_cursor); }));
            });
          }

          function verificationPage() {
            var id = body.dataset.verification;
            return api('GET', '/v1/admin/verification-log/' + encodeURIComponent(id)).then(function (v) {
              content.replaceChildren();
              var facts = el('dl', { id: 'verification-facts' });
              [['Verification', v.id], ['Number', link(v.phone_number, '/console/numbers/' + encodeURIComponent(v.phone_number))], ['Country', v.country],
               ['Status', v.status], ['Purpose', v.purpose], ['Channel asked', v.channel_requested], ['Channel used', v.channel],
               ['Checks', v.attempts + ' / ' + v.max_attempts], ['Sends', v.sends], ['Created', time(v.created_at)],
               ['Approved', time(v.approved_at)], ['Expires', time(v.expires_at)]]
                .forEach(function (kv) { facts.append(el('dt', { text: kv[0] }), el('dd', {}, kv[1] === null || kv[1] === undefined ? '—' : kv[1])); });
              section('Verification', 'verification').append(facts);
              section('Messages (every attempt, fallbacks included)', 'messages').append(table('messages-table',
                ['Created', 'Message', 'Channel', 'Gateway', 'State', 'Tries', 'Vendor id', 'Vendor error', 'Fallback of', 'Last change'],
                v.messages.map(function (m) {
                  return [time(m.created_at), m.id, m.channel, m.gateway, m.status + (m.status === 'scheduled' ? ' for ' + time(m.next_attempt_at) : ''),
                          m.attempts, m.vendor_id, m.vendor_error, m.fallback_of, time(m.updated_at)];
                }), function (i) { return v.messages[i].vendor_error || v.messages[i].status === 'failed' ? 'warn' : ''; }));
              section('Events emitted', 'events').append(table('events-table', ['Created', 'Event', 'Type', 'Delivery', 'Tries', 'Last error'],
                v.events.map(function (e) { return [time(e.created_at), e.id, e.type, e.status, e.attempts, e.last_error]; })));
            });
          }

        """#
}
