/// The console's HTML: a small server-rendered shell per page (navigation, the sign-in form, the
/// lookup form, a message) whose tables and charts `ConsoleScript` fills from the admin JSON
/// routes. Everything interpolated goes through ``escape(_:)``; the only script and style are
/// same-origin files (`/console/app.js`, `/console/app.css`), so the Content-Security-Policy
/// allows no inline code at all.
enum ConsolePage {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The pages of the navigation: path, title, `data-page`.
    static let pages: [(path: String, title: String, page: String)] = [
        ("/console", "Lookup", "lookup"), ("/console/log", "Log", "log"), ("/console/delivery", "Delivery", "delivery"), ("/console/fraud", "Fraud", "fraud"),
        ("/console/settings", "Keys and settings", "settings"),
    ]

    /// HTML-escapes text for element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func document(title: String, body: String, attributes: [(String, String)] = [], csrf: String? = nil) -> String {
        let data = attributes.map { " data-\($0.0)=\"\(escape($0.1))\"" }.joined()
        let meta = csrf.map { "<meta name=\"csrf-token\" content=\"\(escape($0))\">\n" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="same-origin">
            \(meta)<title>\(escape(title)) · PhoneVerify console</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/console/app.css">
            <script src="/console/app.js" defer></script>
            </head>
            <body\(data)>
            \(body)
            </body>
            </html>
            """
    }

    /// The sign-in form; `message` explains a refusal or an ended session.
    static func signIn(message: String?) -> String {
        let note = message.map { "<p class=\"error\" id=\"message\" role=\"alert\">\(escape($0))</p>\n" } ?? ""
        return document(
            title: "Sign in",
            body: """
                <main class="signin">
                <h1>PhoneVerify console</h1>
                \(note)<form method="post" action="/console/session" autocomplete="off">
                <label for="api_key">Admin API key (scope <code>read</code>)</label>
                <input type="password" id="api_key" name="api_key" required maxlength="512" autofocus>
                <button type="submit" id="sign-in">Sign in</button>
                </form>
                </main>
                """, attributes: [("page", "signin")])
    }

    /// A signed-in page: navigation, sign-out, the lookup form, `content` (already escaped HTML).
    static func shell(
        title: String, page: String, keyID: String, scopes: [String], csrf: String, content: String, attributes: [(String, String)] = []
    ) -> String {
        let nav = pages.map { item in
            "<a href=\"\(item.path)\"\(item.page == page ? " aria-current=\"page\"" : "")>\(escape(item.title))</a>"
        }.joined(separator: "\n")
        return document(
            title: title,
            body: """
                <header>
                <strong>PhoneVerify console</strong>
                <nav>\(nav)</nav>
                <span class="who" id="who">key \(escape(keyID)) · \(escape(scopes.joined(separator: ", ")))</span>
                <form method="post" action="/console/signout" class="inline">
                <input type="hidden" name="csrf_token" value="\(escape(csrf))">
                <button type="submit" id="sign-out">Sign out</button>
                </form>
                </header>
                <main>
                <h1>\(escape(title))</h1>
                \(content)
                </main>
                """, attributes: [("page", page)] + attributes, csrf: csrf)
    }

    /// The lookup form, prefilled with what was typed.
    static func lookupForm(_ number: String, region: String? = nil) -> String {
        """
        <form method="get" action="/console/numbers" class="lookup">
        <label for="number">Phone number\(region.map { " (+country code, or as dialled in " + escape($0) + ")" } ?? " (+country code)")</label>
        <input id="number" name="number" value="\(escape(number))" placeholder="\(region == nil ? "+14155552671" : "+14155552671 or a national number")" maxlength="32" required>
        <button type="submit" id="look-up">Look up</button>
        </form>
        """
    }

    /// A message box (errors: `role=alert`).
    static func message(_ text: String, error: Bool = false) -> String {
        "<p class=\"\(error ? "error" : "note")\" id=\"message\"\(error ? " role=\"alert\"" : "")>\(escape(text))</p>"
    }
}
