import API
import HTTPMessages
import Telemetry
import VerifyCore

/// The console's pages (docs/OPERATIONS.md, "Console"):
/// - `GET /console`: the sign-in form, or once signed in the lookup page;
/// - `POST /console/session` (form `api_key`): signs in with an API key of scope `read`;
/// - `POST /console/signout` (form `csrf_token`): ends the session;
/// - `GET /console/numbers?number=…` → 303 to `GET /console/numbers/{e164}`: one number;
/// - `GET /console/log`, `/console/verifications/{id}`: the verification log and one verification;
/// - `GET /console/delivery`, `/console/fraud`, `/console/settings`;
/// - `GET /console/app.js`, `/console/app.css`: the page's own script and style.
/// Pages hold no data themselves: the script loads it from the admin JSON routes with the session.
struct ConsoleRoutes: RouteCollection {
    let sessions: ConsoleSessions
    let parser: DeclaredRangesParser
    let defaultRegion: String?
    let logger: Logger

    func register(in router: inout Router) {
        registerPages(in: &router)
        registerSession(in: &router)
    }

    /// The page routes (and their assets): each a signed-in page, or the sign-in form.
    private func registerPages(in router: inout Router) {
        let sessions = self.sessions, parser = self.parser, region = defaultRegion

        router.add("GET", "/console/app.js") { _, _ in Self.asset(ConsoleScript.source, type: "text/javascript; charset=utf-8") }
        router.add("GET", "/console/app.css") { _, _ in Self.asset(ConsoleStyle.source, type: "text/css; charset=utf-8") }

        router.add("GET", "/console") { request, _ in
            try Self.page(request, sessions, title: "Lookup", page: "lookup") { _ in
                (200, ConsolePage.lookupForm("", region: region) + "<div id=\"content\"></div>", [])
            }
        }
        for item in ConsolePage.pages.dropFirst() {
            router.add("GET", item.path) { request, _ in
                try Self.page(request, sessions, title: item.title, page: item.page) { _ in (200, "<div id=\"content\"></div>", []) }
            }
        }
        router.add("GET", "/console/numbers") { request, _ in
            // The lookup form's target: a fixed path plus the number, never a redirect elsewhere.
            let raw = request.query["number"] ?? ""
            let typed = raw.hasPrefix(" ") ? "+" + raw.dropFirst() : raw
            return HTTPResponse(status: 303, headers: ["Location": "/console/numbers/" + Self.pathEscape(typed)], body: [])
        }
        router.add("GET", "/console/numbers/{e164}") { request, context in
            let typed = String((context.parameters["e164"] ?? "").prefix(64))
            return try Self.page(request, sessions, title: "Number", page: "number") { _ in
                switch parser.explain(typed, defaultRegion: region) {
                case .failure(let problem):
                    return (400, ConsolePage.lookupForm(typed, region: region) + ConsolePage.message(Self.problemText(problem, region: region), error: true), [])
                case .success(let explained):
                    return (200, ConsolePage.lookupForm(explained.number.e164, region: region) + "<div id=\"content\"></div>", [("number", explained.number.e164)])
                }
            }
        }
        router.add("GET", "/console/verifications/{id}") { request, context in
            let id = String((context.parameters["id"] ?? "").prefix(64))
            return try Self.page(request, sessions, title: "Verification", page: "verification") { _ in
                (200, "<div id=\"content\"></div>", [("verification", id)])
            }
        }
    }

    /// Sign-in (the form posts an API key) and sign-out (CSRF-checked, recorded in the store).
    private func registerSession(in router: inout Router) {
        let sessions = self.sessions, logger = self.logger
        router.add("POST", "/console/session") { request, _ in Self.signIn(request, sessions, logger) }
        router.add("POST", "/console/signout") { request, _ in Self.signOut(request, sessions, logger) }
    }

    /// Signs in with the posted API key (same-origin forms only): a session cookie, or why not.
    static func signIn(_ request: HTTPRequest, _ sessions: ConsoleSessions, _ logger: Logger) -> HTTPResponse {
        guard ConsoleCookie.sameOrigin(request) else {
            return Self.html(403, ConsolePage.signIn(message: "This form was sent from another site."))
        }
        let key = FormBody.fields(request.body).first { $0.0 == "api_key" }?.1 ?? ""
        switch sessions.signIn(apiKey: String(key.prefix(512))) {
        case .refused:
            logger.warning("console sign-in refused", [("reason", "unknown_key")])
            return Self.html(401, ConsolePage.signIn(message: "This key was refused."))
        case .lacksScope(let keyID):
            logger.warning("console sign-in refused", [("reason", "missing_scope"), ("key_id", keyID)])
            return Self.html(403, ConsolePage.signIn(message: "This key lacks the read scope the console needs."))
        case .signedIn(let signed):
            logger.info("console sign-in", [("key_id", signed.keyID)])
            let cookie = sessions.cookieHeader(sessions.cookieValue(signed.session), for: request, maxAge: sessions.idleTimeout)
            return HTTPResponse(status: 303, headers: ["Location": "/console", "Set-Cookie": cookie], body: [])
        }
    }

    /// Ends the session (CSRF-checked) and records it, so the cookie is dead on every replica.
    static func signOut(_ request: HTTPRequest, _ sessions: ConsoleSessions, _ logger: Logger) -> HTTPResponse {
        let clear = sessions.cookieHeader("", for: request, maxAge: 0)
        guard case .valid(let signed) = sessions.lookup(request) else {
            return HTTPResponse(status: 303, headers: ["Location": "/console", "Set-Cookie": clear], body: [])
        }
        let token = FormBody.fields(request.body).first { $0.0 == ConsoleSessions.csrfField }?.1
        guard sessions.passesCSRF(request, signed, formToken: token) else {
            logger.warning("console request refused", [("reason", "csrf"), ("key_id", signed.keyID), ("route", "/console/signout")])
            return Self.html(403, ConsolePage.document(title: "Refused", body: ConsolePage.message("The CSRF token is missing or wrong.", error: true)))
        }
        do { try sessions.revoke(signed) } catch {
            logger.error("console sign-out could not be stored", [("key_id", signed.keyID), ("error", String(describing: error))])
            return Self.html(503, ConsolePage.document(title: "Not signed out", body: ConsolePage.message(
                "The sign-out could not be recorded; the session still works. Try again.", error: true)))
        }
        logger.info("console sign-out", [("key_id", signed.keyID)])
        return HTTPResponse(status: 303, headers: ["Location": "/console", "Set-Cookie": clear], body: [])
    }

    /// A signed-in page, or the sign-in form (with why) when the session is missing or ended.
    static func page(
        _ request: HTTPRequest, _ sessions: ConsoleSessions, title: String, page: String,
        content: (ConsoleSessions.Signed) -> (Int, String, [(String, String)])
    ) throws -> HTTPResponse {
        switch sessions.lookup(request) {
        case .none:
            return html(200, ConsolePage.signIn(message: nil))
        case .invalid, .expired:
            var response = html(401, ConsolePage.signIn(message: "Your session has ended. Sign in again."))
            response.headers.add("Set-Cookie", sessions.cookieHeader("", for: request, maxAge: 0))
            return response
        case .valid(let signed):
            let (status, body, attributes) = content(signed)
            return html(
                status,
                ConsolePage.shell(
                    title: title, page: page, keyID: signed.keyID, scopes: signed.scopes.sorted().map(\.rawValue),
                    csrf: sessions.csrfToken(signed), content: body, attributes: attributes))
        }
    }

    static func html(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(text.utf8))
    }

    static func asset(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": type], body: Array(text.utf8))
    }

    /// Percent-encodes everything but digits, letters and `+`.
    static func pathEscape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8.prefix(64) {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2B {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return out.isEmpty ? "%20" : out
    }

    static func problemText(_ problem: PhoneNumberProblem, region: String?) -> String {
        "This is not a valid phone number (\(problem.rawValue)). Write it with + and the country code, e.g. +14155552671"
            + (region.map { ", or as dialled in \($0)." } ?? ".")
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
