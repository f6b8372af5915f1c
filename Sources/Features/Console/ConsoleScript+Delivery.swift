/// The delivery page: a banner naming any failing gateway, gateways by channel over the last
/// hour and day (failing rows first and marked), the SMS and events outboxes side by side, the
/// conversion chart per country and channel, and the per-country counts.
extension ConsoleScript {
    static let delivery = #"""
          function gatewayTable(id, rows) {
            rows = rows.slice().sort(function (a, b) { return (b.failing ? 1 : 0) - (a.failing ? 1 : 0); });
            return table(id, ['Gateway', 'Channel', 'Circuit', 'Calls', 'Errors', 'Failovers taken', 'Sent', 'Delivered', 'Undelivered', 'Failed', 'As fallback'],
              rows.map(function (r) {
                var name = el('span', {}, r.gateway);
                if (r.failing) name.append(' ', el('strong', { class: 'badge bad', text: 'FAILING' }));
                return [name, r.channel, r.circuit || '—', r.calls, r.errors, r.failovers, r.sent, r.delivered, r.undelivered, r.failed, r.fallbacks];
              }), function (i) { return rows[i].failing ? 'failing' : ''; });
          }
          function conversionChart(c) {
            var wrap = el('div', { class: 'chart' });
            if (!c.series.length) { wrap.append(el('p', { class: 'muted', text: 'No verifications in the last 24 hours.' })); return wrap; }
            var s = svg('svg', { viewBox: '0 0 560 120', width: 560, height: 120, role: 'img', id: 'conversion-chart' });
            var title = svg('title', {}); title.textContent = 'Approved / started per hour, last 24 hours, per country and channel'; s.append(title);
            [0.5, 1].forEach(function (y) { s.append(svg('line', { x1: 0, x2: 560, y1: 116 - 112 * y, y2: 116 - 112 * y, class: 'grid' })); });
            var legend = el('ul', { class: 'legend', id: 'conversion-legend' });
            c.series.forEach(function (x, i) {
              var points = x.started.map(function (n, h) { return n ? x.approved[h] / n : null; });
              var started = sum(x.started), approved = sum(x.approved);
              s.append(line(x.country + ' ' + x.channel, points, 1, 'c' + (i % 8)));
              legend.append(el('li', {}, el('span', { class: 'swatch c' + (i % 8) }), ' ' + x.country + ' · ' + x.channel + ': ' + approved + ' / ' + started +
                (started ? ' (' + Math.round(100 * approved / started) + '%)' : '')));
            });
            wrap.append(s, legend);
            return wrap;
          }
          function deliveryPage() {
            return api('GET', '/v1/admin/delivery').then(function (d) {
              content.replaceChildren();
              var failing = d.gateways.hour.filter(function (g) { return g.failing; });
              var banner = el('div', { id: 'delivery-health', class: failing.length ? 'banner bad' : 'banner ok', role: failing.length ? 'alert' : 'status' });
              banner.textContent = failing.length
                ? 'Failing: ' + failing.map(function (g) { return g.gateway + ' (' + g.channel + '): circuit ' + (g.circuit || '—') + ', ' + g.errors + ' of ' + g.calls + ' calls failed in the last hour'; }).join('; ')
                : 'Every gateway is healthy in the last hour.';
              content.append(banner);
              ['hour', 'day'].forEach(function (w) {
                section('Gateways, last ' + w, 'gateways-' + w).append(gatewayTable('gateways-' + w + '-table', d.gateways[w]));
              });
              var queues = el('div', { class: 'pair' });
              content.append(queues);
              var o = el('section', { id: 'outbox' }, el('h2', { text: 'SMS, WhatsApp and call outbox' }));
              o.append(table('outbox-table', ['Due', 'Oldest due', 'Fallbacks waiting their turn'],
                [[d.outbox.depth, ago(d.outbox.oldest_age_seconds), d.outbox.scheduled_fallbacks]]));
              var e = el('section', { id: 'events-outbox' }, el('h2', { text: 'Events outbox' }));
              e.append(d.events ? table('events-outbox-table', ['Pending', 'Oldest pending', 'Given up (24 h)'],
                [[d.events.pending, ago(d.events.oldest_age_seconds), d.events.failed_day]]) : el('p', { class: 'muted', text: 'Not available for this store.' }));
              queues.append(o, e);
              section('Conversion: approved / started per hour, last 24 hours', 'conversion').append(conversionChart(d.conversion));
              ['hour', 'day'].forEach(function (w) {
                section('By country, last ' + w, 'delivery-' + w).append(table('delivery-' + w + '-table',
                  ['Gateway', 'Country', 'Channel', 'Queued', 'Sent', 'Delivered', 'Undelivered', 'Failed'],
                  d[w].map(function (r) { return [r.gateway, r.country, r.channel, r.queued, r.sent, r.delivered, r.undelivered, r.failed]; })));
              });
            });
          }

        """#
}
