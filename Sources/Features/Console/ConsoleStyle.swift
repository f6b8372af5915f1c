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
        main { max-width: 1100px; margin: 0 auto; padding: 16px 20px 40px; }
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
        #settings-table td, #fraud-table td, #verifications-table td:nth-child(9) { overflow-wrap: anywhere; }
        #settings-table td:first-child { overflow-wrap: normal; white-space: nowrap; }
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
        .history { display: inline-block; margin: 6px 18px 10px 0; }
        .history svg { display: block; border-bottom: 1px solid var(--line); }
        """#
}
