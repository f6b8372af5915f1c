import Foundation
import SettingsTable
import VerifyCore

/// The limits section of the settings table (read by `Configuration.readLimits`).
extension Settings {
    public static let limits = Setting<RateLimits>(
        "PHONE_VERIFY_LIMITS", .limits, .limits, defaultsTo: RateLimits.defaults, shown: "phone_send=5/1h,10/1d;ip_send=20/10m,200/1d;ip_check=100/10m;prefix_send=50/1h;global_send=1000/1m;phone_failed_check=5/1d;user_send=10/1h,30/1d;ip_challenge=30/10m;whatsapp_send=5/1h,10/1d;call_send=3/1h,5/1d;phone_requester_send=1/1h,2/1d",
        "rate limits, scope=N/window[,N/window];… (windows 30s, 10m, 1h, 1d; scope=off disables one); scopes not named keep their defaults; phone_failed_check=N/W: free wrong codes per number and requester before the backoff")

    public static let lockoutBackoff = Setting<(initial: Int, max: Int)>(
        "PHONE_VERIFY_LOCKOUT_BACKOFF", .limits, .backoff, defaultsTo: RateLimits.defaults.lockoutBackoff, shown: "30s,5m",
        "failed-check lockout: the first wait after the free wrong codes and the longest (it doubles per further wrong code), per number and requester")

    public static let prefixDigits = Setting<Int>(
        "PHONE_VERIFY_PREFIX_DIGITS", .limits, .int(1...15), default: "all but the last 4",
        "leading digits of the E.164 number (country code included) that form a destination prefix for prefix_send and the fraud guard")

    public static let fraud = Setting<Bool>(
        "PHONE_VERIFY_FRAUD", .limits, .onOff, defaultsTo: true, shown: "on",
        "adaptive SMS-pumping guard: on or off")

    public static let fraudMinSends = Setting<Int>(
        "PHONE_VERIFY_FRAUD_MIN_SENDS", .limits, .int(1...1_000_000), defaultsTo: 50,
        "sends to a block or country in the window before a low conversion can pause it")

    public static let fraudMinConversion = Setting<Double>(
        "PHONE_VERIFY_FRAUD_MIN_CONVERSION", .limits, .fraction, defaultsTo: 0.2, shown: "0.2",
        "approved ÷ sent below which a block (with a volume far above its baseline) or a country (also with many anomalous blocks and clients) is paused: refused (suspected_fraud), or with a challenge provider, challenged")

    public static let fraudWindow = Setting<Int>(
        "PHONE_VERIFY_FRAUD_WINDOW", .limits, .int(300...86_400), defaultsTo: 3600,
        "seconds of history the fraud guard judges")

    public static let fraudWatchSends = Setting<Int>(
        "PHONE_VERIFY_FRAUD_WATCH_SENDS", .limits, .int(1...1_000_000), defaultsTo: 3,
        "unconfirmed codes to a block in the window (and \(fraudSurge.name) times its usual number) after which it is watched: its starts need a challenge when a provider is configured")

    public static let fraudSurge = Setting<Int>(
        "PHONE_VERIFY_FRAUD_SURGE", .limits, .int(1...1000), defaultsTo: 3,
        "a block or country pauses only when its volume in the window is at least this many times its average per window over the baseline")

    public static let fraudBaseline = Setting<Int>(
        "PHONE_VERIFY_FRAUD_BASELINE", .limits, .int(3600...2_592_000), defaultsTo: 82800,
        "seconds of history before the window that form a block's or country's baseline (kept only as long as \(Settings.retention.name) allows)")

    public static let fraudCountryMinSends = Setting<Int>(
        "PHONE_VERIFY_FRAUD_COUNTRY_MIN_SENDS", .limits, .int(1...10_000_000), defaultsTo: 200,
        "sends to a country in the window before the country as a whole can pause")

    public static let fraudCountryBlocks = Setting<Int>(
        "PHONE_VERIFY_FRAUD_COUNTRY_BLOCKS", .limits, .int(1...100_000), defaultsTo: 5,
        "anomalous blocks a country needs in the window before the country as a whole can pause")

    public static let fraudCountryClients = Setting<Int>(
        "PHONE_VERIFY_FRAUD_COUNTRY_CLIENTS", .limits, .int(1...1_000_000), defaultsTo: 10,
        "distinct client networks (IPv4 /24, IPv6 /48) sending to an anomalous country in the window before the country as a whole can pause")

    public static let fraudFloor = Setting<Int>(
        "PHONE_VERIFY_FRAUD_FLOOR", .limits, .int(1...1_000_000), defaultsTo: 3,
        "unconfirmed codes per window a watched or paused block (or paused country) admits beyond the \(fraudWatchSends.name) that made it watched, whatever proof a start carries, when its own baseline sends per window are fewer")

    public static let fraudProofRate = Setting<Int>(
        "PHONE_VERIFY_FRAUD_PROOF_RATE", .limits, .int(0...1_000_000), defaultsTo: 10,
        "sends per block (or country) and window admitted past its usual volume with device-bound proof (app_attest, play_integrity) or a grant bound to the number")

    public static let fraudSteer = Setting<String>(
        "PHONE_VERIFY_FRAUD_STEER", .limits, .oneOf(["whatsapp", "off"]) { $0.lowercased() }, defaultsTo: "whatsapp",
        "whatsapp: a plain SMS start whose destination the fraud guard refuses goes out over WhatsApp only, when the whatsapp channel is enabled (auto starts always do); off: it is refused")

    public static let testNumbers = Setting<[String: String]>(
        "PHONE_VERIFY_TEST_NUMBERS", .limits, .testNumbers, default: "(none)",
        "fixed-code test numbers, +E164:CODE,… (no SMS; only the number's phone_send quota and the check limits apply)",
        mask: .testNumberCodes)

    public static let testNumbersExpireAt = Setting<Date>(
        "PHONE_VERIFY_TEST_NUMBERS_EXPIRE_AT", .limits, .instant, default: "(none)",
        "RFC 3339 instant after which test numbers are refused; required in production when test numbers are set",
        production: .required(reason: " when \(testNumbers.name) is set") { !$0.testNumbers.isEmpty })

    static let limitsSection: [any SettingEntry] = [
        limits, lockoutBackoff, prefixDigits, fraud, fraudMinSends, fraudMinConversion, fraudWindow, fraudWatchSends,
        fraudSurge, fraudBaseline, fraudCountryMinSends, fraudCountryBlocks, fraudCountryClients, fraudFloor, fraudProofRate, fraudSteer,
        testNumbers, testNumbersExpireAt,
    ]
}

extension SettingType where Value == RateLimits {
    /// Overrides of the default limits, scope by scope.
    static var limits: Self {
        Self("scope=N/window;…") { text in
            do { return (try RateLimits.defaults.overridden(by: text), []) } catch { return (nil, ["has \(error)"]) }
        }
    }
}

extension SettingType where Value == (initial: Int, max: Int) {
    static var backoff: Self {
        Self("FIRST,LONGEST durations") { text in
            do { return (try RateLimits.parseBackoff(text), []) } catch { return (nil, ["has \(error)"]) }
        }
    }
}

extension SettingType where Value == [String: String] {
    static var testNumbers: Self {
        Self("+E164:CODE,…") { text in
            do { return (try TestNumbers.parse(text), []) } catch { return (nil, ["has \(error)"]) }
        }
    }
}
