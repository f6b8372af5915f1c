/// The console's style sheet (`GET /console/app.css`, same-origin): plain, light and dark.
enum ConsoleStyle {
    static let source = #"""
        :root { color-scheme: light dark; --bg: #f5f6f8; --card: #fff; --fg: #1b1d21; --muted: #667085; --line: #e3e6ea;
          --accent: #2f5fd0; --ok: #17803d; --bad: #c0262d; }
        @media (prefers-color-scheme: dark) { :root { --bg: #111316; --card: #1a1d22; --fg: #e7e9ec; --muted: #9aa1ab;
          --line: #2b3037; --accent: #86a8f5; --ok: #5bd68a; --bad: #f58a8a; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        header { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; padding: 10px 20px; background: var(--card);
          border-bottom: 1px solid var(--line); }
        header nav { display: flex; gap: 12px; flex: 1; }
        header nav a { color: var(--accent); text-decoration: none; padding: 4px 6px; border-radius: 6px; }
        header nav a[aria-current=page] { background: var(--bg); font-weight: 600; }
        .who { color: var(--muted); font-size: 13px; }
        main { max-width: 1400px; margin: 0 auto; padding: 16px 20px 40px; }
        main.signin { max-width: 420px; margin-top: 10vh; background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
        main.signin form { display: grid; gap: 10px; }
        h1 { font-size: 22px; margin: 8px 0 14px; }
        h2 { font-size: 17px; margin: 22px 0 8px; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 4px 16px 14px; margin: 14px 0; overflow-x: auto; }
        input { font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }
        button { font: inherit; padding: 5px 12px; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
        button:disabled { opacity: .5; }
        form.inline, form.lookup { display: inline-flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        table { border-collapse: collapse; width: 100%; font-size: 14px; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
        th { color: var(--muted); font-weight: 600; overflow-wrap: normal; white-space: nowrap; }
        #settings-table td { overflow-wrap: anywhere; }
        #fraud-table td, #gateways-hour-table td, #gateways-day-table td { overflow-wrap: normal; word-break: normal; }
        #fraud-table td:first-child, #fraud-table td:nth-child(2), td:first-child { white-space: nowrap; }
        td a { color: var(--accent); }
        #settings-table td:first-child { overflow-wrap: normal; white-space: nowrap; }
        span.actions { white-space: nowrap; }
        #verifications-table td, #log-table td, #latest-table td, #messages-table td, #events-table td { white-space: nowrap; }
        #verifications-table td:nth-child(10), #log-table td:nth-child(8), #latest-table td:nth-child(8), #messages-table td:nth-child(8) {
          white-space: normal; min-width: 12em; }
        .chart svg { width: 100%; height: auto; }
        td button { padding: 2px 8px; font-size: 13px; margin-right: 4px; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
        dt { color: var(--muted); }
        dd { margin: 0; }
        .error { color: var(--bad); font-weight: 600; }
        .note, .muted { color: var(--muted); }
        svg .label { font-size: 12px; fill: var(--fg); }
        svg .sent, .swatch.sent { fill: var(--line); background: var(--line); }
        svg .approved, .swatch.approved { fill: var(--ok); background: var(--ok); }
        .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: middle; }
        code { font-size: 13px; }
        dialog.confirm { border: 1px solid var(--line); border-radius: 10px; background: var(--card); color: var(--fg); max-width: 480px; }
        dialog.confirm .actions { display: flex; gap: 8px; justify-content: flex-end; }
        button.secondary { background: var(--card); color: var(--accent); }
        tr.failing td, tr.state-paused td, tr.state-blocked td { background: color-mix(in srgb, var(--bad) 14%, transparent); }
        tr.state-watched td, tr.warn td { background: color-mix(in srgb, #d9a400 14%, transparent); }
        .badge { font-size: 11px; padding: 1px 6px; border-radius: 4px; color: #fff; background: var(--bad); }
        .banner { padding: 10px 14px; border-radius: 8px; margin: 10px 0; font-weight: 600; border: 1px solid var(--line); }
        .banner.bad { color: var(--bad); border-color: var(--bad); background: color-mix(in srgb, var(--bad) 8%, var(--card)); }
        .banner.ok { color: var(--ok); background: var(--card); }
        .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
        .pair section { margin: 0; }
        form.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; background: var(--card); border: 1px solid var(--line);
          border-radius: 10px; padding: 10px 16px; }
        select { font: inherit; padding: 5px 6px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }
        a.button { padding: 5px 12px; border: 1px solid var(--accent); border-radius: 6px; color: var(--accent); text-decoration: none; }
        svg .grid { stroke: var(--line); }
        svg path.line { fill: none; stroke-width: 2; }
        svg .c0, .swatch.c0 { stroke: #2f5fd0; background: #2f5fd0; } svg .c1, .swatch.c1 { stroke: #c0262d; background: #c0262d; }
        svg .c2, .swatch.c2 { stroke: #17803d; background: #17803d; } svg .c3, .swatch.c3 { stroke: #d9a400; background: #d9a400; }
        svg .c4, .swatch.c4 { stroke: #7a3fc4; background: #7a3fc4; } svg .c5, .swatch.c5 { stroke: #0b8fa3; background: #0b8fa3; }
        svg .c6, .swatch.c6 { stroke: #c45f00; background: #c45f00; } svg .c7, .swatch.c7 { stroke: #667085; background: #667085; }
        ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; }
        .history { display: inline-block; margin: 6px 18px 10px 0; }
        .history svg { display: block; border-bottom: 1px solid var(--line); }
        """#
}
