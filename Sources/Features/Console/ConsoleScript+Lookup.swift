/// The lookup pages: the latest verifications before a number is typed, one number (its parse,
/// verifications with ids, the channel used and the vendor's error, send quota, lockouts, factors,
/// and the actions that lift them), and the keys-and-settings page.
extension ConsoleScript {
    static let lookup = #"""
          function logTable(id, list) {
            return table(id, ['Created', 'Verification', 'Number', 'Status', 'Channel used', 'Gateway', 'Delivery', 'Vendor error', 'Approved'],
              list.map(function (x) {
                // The id shortened to its random end (the whole one in its title, the page and the CSV) so the row fits.
                var id = link(x.id.length > 18 ? x.id.slice(0, 4) + '…' + x.id.slice(-12) : x.id, '/console/verifications/' + encodeURIComponent(x.id));
                id.title = x.id;
                return [time(x.created_at), id, link(x.phone_number, '/console/numbers/' + encodeURIComponent(x.phone_number)),
                        x.status, x.channel + (x.channel !== x.channel_requested ? ' (asked ' + x.channel_requested + ')' : ''), x.gateway,
                        x.delivery_status, x.vendor_error, time(x.approved_at)];
              }), function (i) { return list[i].vendor_error || list[i].delivery_status === 'failed' ? 'warn' : ''; });
          }
          function lookupPage() {
            return api('GET', '/v1/admin/verification-log?limit=20').then(function (d) {
              content.replaceChildren();
              var s = section('Latest verifications', 'latest');
              s.append(logTable('latest-table', d.verifications), el('p', {}, link('The whole log, with filters and CSV export →', '/console/log')));
            });
          }

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
              v.append(table('verifications-table', ['Created', 'Status', 'Channel used', 'Verification', 'Purpose', 'Attempts', 'Sends', 'Delivery', 'Gateway', 'Vendor error', 'Expires'],
                d.verifications.map(function (x) {
                  var dl = x.delivery || {};
                  var used = x.channel_used || x.channel;
                  return [time(x.created_at), x.status, used + (used !== x.channel ? ' (asked ' + x.channel + ')' : ''),
                          link(x.id, '/console/verifications/' + encodeURIComponent(x.id)), x.purpose, x.attempts + ' / ' + x.max_attempts, x.sends,
                          dl.status, dl.gateway, dl.last_error, time(x.expires_at)];
                }), function (i) { var dl = d.verifications[i].delivery || {}; return dl.last_error || dl.status === 'failed' ? 'warn' : ''; }));
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

          function settingsPage() {
            return api('GET', '/v1/admin/settings').then(function (d) {
              content.replaceChildren();
              section('Signing keys', 'signing-keys').append(table('keys-table', ['kid', 'Algorithm', 'Status', 'Created', 'In JWKS'],
                d.signing_keys.map(function (k) { return [k.kid, k.algorithm, k.status, time(k.created_at), k.published ? 'yes' : 'no']; })));
              section('Settings', 'settings').append(table('settings-table', ['Setting', 'Value'],
                d.settings.map(function (s) { return [s.name, s.value]; })));
            });
          }

        """#
}
