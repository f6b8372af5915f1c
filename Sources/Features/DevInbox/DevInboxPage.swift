import Encoding

/// The dev inbox page (`GET /dev/inbox`): one self-contained HTML document, no external assets.
///
/// The script listens to `/dev/inbox/events` (server-sent events: `message` events in the
/// `/dev/messages` JSON shape, `status` events for their verifications, `ready` after the
/// backlog) and shows messages newest first, the code large with a copy button (the Clipboard
/// API, else a selection and `execCommand`), and the verification's status. The phone-number
/// filter works in the page, by digits, and is kept in the URL (`?phone_number=`). Data is only
/// ever inserted as text (`textContent`), never as HTML. The inline style and script carry a
/// per-response nonce, the only sources the Content-Security-Policy allows.
enum DevInboxPage {
    static let noncePlaceholder = "{{NONCE}}"

    /// The page with `nonce` (letters and digits only) on its inline style and script.
    static func html(nonce: String) -> String {
        precondition(nonce.utf8.allSatisfy(ASCII.isAlphanumeric))
        return template.replacingOccurrences(of: noncePlaceholder, with: nonce)
    }

    /// The Content-Security-Policy for a page served with `nonce`: nothing from elsewhere.
    static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; "
            + "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Dev inbox · PhoneVerify</title>
        <link rel="icon" href="data:,">
        <style nonce="{{NONCE}}">
        :root { color-scheme: light dark; --bg: #f5f6f8; --card: #fff; --fg: #1b1d21; --muted: #667085; --line: #e3e6ea;
          --accent: #2f5fd0; --ok: #17803d; --warn: #a85d00; --bad: #c0262d; --off: #8a919c; }
        @media (prefers-color-scheme: dark) { :root { --bg: #111316; --card: #1a1d22; --fg: #e7e9ec; --muted: #9aa1ab;
          --line: #2b3037; --accent: #86a8f5; --ok: #5bd68a; --warn: #f2b84b; --bad: #f58a8a; --off: #8a919c; } }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        header { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center;
          padding: 12px 24px; background: var(--card); border-bottom: 1px solid var(--line); }
        h1 { font-size: 17px; margin: 0; font-weight: 650; }
        h1 span { color: var(--muted); font-weight: 400; }
        #conn { font-size: 13px; color: var(--muted); display: inline-flex; align-items: center; gap: 6px; }
        #conn::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: var(--off); }
        #conn.live::before { background: var(--ok); }
        #conn.down::before { background: var(--bad); }
        .spacer { flex: 1; }
        #filter { font: inherit; padding: 7px 11px; width: min(300px, 100%); border: 1px solid var(--line); border-radius: 8px;
          background: var(--bg); color: var(--fg); }
        #filter:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
        main { max-width: 860px; margin: 0 auto; padding: 18px 24px 48px; }
        #summary { color: var(--muted); font-size: 13px; margin: 0 0 12px; min-height: 1.45em; }
        ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
        li.msg { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 14px 18px;
          display: grid; grid-template-columns: 1fr auto; gap: 4px 16px; align-items: center; }
        li.msg.fresh { animation: fresh 2.5s ease-out; }
        @keyframes fresh { from { box-shadow: 0 0 0 3px var(--accent); } to { box-shadow: 0 0 0 3px transparent; } }
        li.msg.stale .code { color: var(--muted); text-decoration: line-through; text-decoration-thickness: 2px; }
        .meta { font-size: 13px; color: var(--muted); display: flex; flex-wrap: wrap; gap: 2px 14px; }
        .to { color: var(--fg); font-weight: 600; font-variant-numeric: tabular-nums; }
        .channel { font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; font-size: 11px; }
        .code { font: 600 34px/1.15 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
          letter-spacing: .14em; user-select: all; }
        .actions { grid-column: 2; grid-row: 1 / span 2; display: flex; flex-direction: column; align-items: flex-end; gap: 6px; }
        .badges { display: flex; align-items: center; gap: 8px; }
        .status { font-size: 11.5px; font-weight: 650; text-transform: uppercase; letter-spacing: .05em; padding: 1px 8px;
          border-radius: 999px; border: 1px solid currentColor; color: var(--off); white-space: nowrap; }
        .status.pending { color: var(--warn); }
        .status.approved { color: var(--ok); }
        .status.max_attempts_reached { color: var(--bad); }
        .detail { font-size: 12px; color: var(--muted); white-space: nowrap; }
        button.copy { font: inherit; font-size: 14px; font-weight: 550; padding: 5px 16px; border-radius: 8px; cursor: pointer;
          border: 1px solid var(--accent); background: transparent; color: var(--accent); min-width: 84px; }
        button.copy:hover, button.copy.done { background: var(--accent); color: var(--card); }
        .body { grid-column: 1 / -1; font-size: 13px; color: var(--muted); white-space: pre-wrap; overflow-wrap: anywhere; }
        .empty { text-align: center; color: var(--muted); padding: 56px 0; }
        .hidden { display: none !important; }
        .offscreen { position: fixed; left: -9999px; top: 0; opacity: 0; }
        </style>
        </head>
        <body data-connection="connecting">
        <header>
          <h1>Dev inbox <span>· PhoneVerify</span></h1>
          <span id="conn">connecting…</span>
          <span class="spacer"></span>
          <input id="filter" type="search" placeholder="Filter by phone number" aria-label="Filter by phone number" autocomplete="off" spellcheck="false">
        </header>
        <main>
          <p id="summary" aria-live="polite"></p>
          <ol id="list"></ol>
          <p id="empty" class="empty">No messages yet. Start a verification and its code appears here.</p>
        </main>
        <script nonce="{{NONCE}}">
        (() => {
          "use strict";
          const MAX = 200;
          const $ = (id) => document.getElementById(id);
          const list = $("list"), empty = $("empty"), summary = $("summary"), filter = $("filter"), conn = $("conn");
          const entries = new Map();   // message key -> { m, li }
          const statuses = new Map();  // verification id -> status object
          let ready = false;

          const digits = (s) => String(s || "").replace(/\D/g, "");
          const keyOf = (m) => m.verification_id + "|" + m.code + "|" + m.sent_at;
          const words = (s) => String(s || "").replace(/_/g, " ");
          function clock(iso) {
            const d = new Date(iso);
            return isNaN(d) ? String(iso || "") : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
          }
          function el(tag, cls, text) {
            const e = document.createElement(tag);
            if (cls) e.className = cls;
            if (text != null) e.textContent = text;
            return e;
          }
          function matches(m) {
            const f = digits(filter.value);
            return !f || digits(m.to).includes(f);
          }

          function setConnection(state, text) {
            conn.className = state;
            conn.textContent = text;
            document.body.dataset.connection = state || "connecting";
          }

          async function copy(text, button, codeEl) {
            let ok = false;
            try {
              if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); ok = true; }
            } catch (e) { ok = false; }
            if (!ok) {
              const ta = el("textarea", "offscreen");
              ta.value = text;
              ta.setAttribute("readonly", "");
              document.body.append(ta);
              ta.select();
              try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
              ta.remove();
            }
            if (!ok) window.getSelection().selectAllChildren(codeEl);
            button.textContent = ok ? "Copied" : "Ctrl+C";
            button.classList.toggle("done", ok);
            clearTimeout(button.resetTimer);
            button.resetTimer = setTimeout(() => { button.textContent = "Copy"; button.classList.remove("done"); }, 1500);
          }

          function render(m) {
            const li = el("li", "msg");
            li.dataset.verificationId = m.verification_id;
            li.dataset.to = m.to;
            const meta = el("div", "meta");
            const time = el("time", null, clock(m.sent_at));
            time.dateTime = m.sent_at;
            time.title = m.sent_at;
            const channel = { sms: "SMS", whatsapp: "WhatsApp", call: "Call" }[m.channel] || "SMS";
            meta.append(el("span", "channel", channel), el("span", "to", m.to), el("span", "purpose", words(m.purpose)), el("span", "gateway", "via " + m.gateway), time);
            const code = el("div", "code", m.code);
            code.title = m.verification_id;
            const actions = el("div", "actions");
            const badges = el("div", "badges");
            badges.append(el("span", "detail"), el("span", "status", "…"));
            const button = el("button", "copy", "Copy");
            button.type = "button";
            button.setAttribute("aria-label", "Copy code " + m.code);
            button.addEventListener("click", () => copy(m.code, button, code));
            actions.append(badges, button);
            li.append(meta, actions, code, el("div", "body", m.body));
            return li;
          }

          function paint(entry) {
            const s = statuses.get(entry.m.verification_id);
            const badge = entry.li.querySelector(".status"), detail = entry.li.querySelector(".detail");
            const status = s ? s.status : "";
            badge.textContent = s ? words(status) : "…";
            badge.className = "status " + status;
            entry.li.dataset.status = status;
            const parts = [];
            if (entry.li.classList.contains("stale")) parts.push("replaced by a newer code");
            else if (s && status === "pending") {
              if (s.delivery) parts.push(words(s.delivery));
              parts.push(s.attempts_remaining + (s.attempts_remaining === 1 ? " try" : " tries") + " left");
              if (s.expires_at) parts.push("expires " + clock(s.expires_at));
            }
            detail.textContent = parts.join(" · ");
          }

          function refreshView() {
            let shown = 0;
            for (const entry of entries.values()) {
              const visible = matches(entry.m);
              entry.li.classList.toggle("hidden", !visible);
              if (visible) shown++;
            }
            const total = entries.size, f = filter.value.trim();
            empty.classList.toggle("hidden", shown > 0);
            empty.textContent = total === 0 ? "No messages yet. Start a verification and its code appears here."
              : "No messages to numbers matching “" + f + "”.";
            summary.textContent = total === 0 ? "" : f ? shown + " of " + total + " messages match “" + f + "”"
              : total + (total === 1 ? " message" : " messages") + ", newest first";
          }

          function add(m) {
            if (!m || typeof m.code !== "string") return;
            const key = keyOf(m);
            if (entries.has(key)) return;
            for (const entry of entries.values()) {
              if (entry.m.verification_id === m.verification_id && !entry.li.classList.contains("stale")) {
                entry.li.classList.add("stale");
                paint(entry);
              }
            }
            const entry = { m, li: render(m) };
            if (ready) {
              entry.li.classList.add("fresh");
              // Once only: hidden by the filter and shown again, it would replay the animation.
              entry.li.addEventListener("animationend", () => entry.li.classList.remove("fresh"), { once: true });
            }
            entries.set(key, entry);
            list.prepend(entry.li);
            while (entries.size > MAX) {
              const [oldest, old] = entries.entries().next().value;
              old.li.remove();
              entries.delete(oldest);
            }
            paint(entry);
            refreshView();
          }

          function setStatus(s) {
            if (!s || typeof s.verification_id !== "string") return;
            statuses.set(s.verification_id, s);
            for (const entry of entries.values()) if (entry.m.verification_id === s.verification_id) paint(entry);
          }

          function connect() {
            const source = new EventSource("/dev/inbox/events");
            source.onopen = () => setConnection("live", "live");
            source.addEventListener("message", (event) => {
              try { add(JSON.parse(event.data)); } catch (e) { /* not a message */ }
            });
            source.addEventListener("status", (event) => {
              try { setStatus(JSON.parse(event.data)); } catch (e) { /* not a status */ }
            });
            source.addEventListener("ready", () => { ready = true; setConnection("live", "live"); });
            source.onerror = () => {
              if (source.readyState === EventSource.CLOSED) {
                setConnection("down", "disconnected, retrying…");
                setTimeout(connect, 3000);
              } else {
                setConnection("", "reconnecting…");
              }
            };
          }

          filter.value = new URLSearchParams(location.search).get("phone_number") || "";
          filter.addEventListener("input", () => {
            const url = new URL(location.href);
            if (filter.value.trim()) url.searchParams.set("phone_number", filter.value.trim());
            else url.searchParams.delete("phone_number");
            history.replaceState(null, "", url.pathname + url.search);
            refreshView();
          });
          refreshView();
          connect();
        })();
        </script>
        </body>
        </html>

        """#
}
