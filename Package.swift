// swift-tools-version:6.0
import PackageDescription

// The tree is the architecture (docs/ARCHITECTURE.md). Dependencies point inward and downward:
//   Sources/Application    App (wiring, configuration, commands) and the phone-verify executable
//   Sources/HTTP           API: the native HTTP surface (router, middleware, routes)
//   Sources/Features       feature modules on the API: each exports route groups and middleware
//   Sources/Vendors        one target, one folder per messaging vendor (Twilio, Vonage, Meta, …): its
//                          gateways, callback routes, status mapping and settings values
//   Sources/Infrastructure the domain's protocols implemented: stores, gateways, credentials, crypto, phone parsing, challenges
//   Sources/Domain         VerifyCore: the domain, no HTTP, SQL or C
//   Sources/Wrappers       one Swift module per C library, no pointers in its public API
//   Sources/C              system-library targets (Debian packages, see scripts/install-deps) and the C++ shim
//   Sources/Support        pure Swift beside the layers: Encoding, HTTPMessages, Telemetry, CBOR, SettingsTable
//   Sources/Testing        test support (fakes, thread helpers): test targets only
//   Sources/Client         the Swift client library for apps (PhoneVerifyClient) and its example
//                          (phone-sign-in): Foundation only, nothing of the server
let package = Package(
    name: "PhoneVerify",
    // Apple platforms the client library supports (URLSession async/await); Linux ignores this.
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .executable(name: "phone-verify", targets: ["phone-verify"]),
        .library(name: "PhoneVerifyClient", targets: ["PhoneVerifyClient"]),
        .executable(name: "phone-sign-in", targets: ["phone-sign-in"]),
    ],
    targets: [
        // C libraries
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/C/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .systemLibrary(name: "CSQLite", path: "Sources/C/CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "COpenSSL", path: "Sources/C/COpenSSL", pkgConfig: "libcrypto"),
        .systemLibrary(name: "CCurl", path: "Sources/C/CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CPostgres", path: "Sources/C/CPostgres", pkgConfig: "libpq"),
        .target(
            name: "CPhoneNumber",
            path: "Sources/C/CPhoneNumber",
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]
        ),

        // Support: pure Swift, no dependencies
        .target(name: "Encoding", path: "Sources/Support/Encoding"),
        .target(name: "HTTPMessages", path: "Sources/Support/HTTPMessages"),
        .target(name: "Telemetry", path: "Sources/Support/Telemetry"),
        .target(name: "CBOR", path: "Sources/Support/CBOR"),
        // The settings table's types: what a setting is, its value types, masking, production rules
        .target(name: "SettingsTable", path: "Sources/Support/SettingsTable"),

        // One Swift wrapper per C library
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "HTTPMessages"], path: "Sources/Wrappers/HTTPServer"),
        .target(name: "SQLite", dependencies: ["CSQLite"], path: "Sources/Wrappers/SQLite"),
        .target(name: "LibCrypto", dependencies: ["COpenSSL", "Encoding"], path: "Sources/Wrappers/LibCrypto"),
        .target(name: "PhoneNumbers", dependencies: ["CPhoneNumber"], path: "Sources/Wrappers/PhoneNumbers"),
        .target(name: "CurlClient", dependencies: ["CCurl", "Encoding"], path: "Sources/Wrappers/CurlClient"),
        .target(name: "Postgres", dependencies: ["CPostgres"], path: "Sources/Wrappers/Postgres"),

        // Domain
        .target(name: "VerifyCore", dependencies: ["Encoding"], path: "Sources/Domain/VerifyCore"),

        // Infrastructure: implementations of the domain's protocols
        // The stores' shared columns and row decoding (each store binds values its own way).
        .target(name: "StoreRecords", dependencies: ["VerifyCore"], path: "Sources/Infrastructure/StoreRecords"),
        .target(name: "SQLiteStore", dependencies: ["VerifyCore", "StoreRecords", "SQLite"], path: "Sources/Infrastructure/SQLiteStore"),
        .target(name: "PostgresStore", dependencies: ["VerifyCore", "StoreRecords", "Postgres"], path: "Sources/Infrastructure/PostgresStore"),
        .target(
            name: "Gateways", dependencies: ["VerifyCore", "Encoding", "Telemetry", "CurlClient", "LibCrypto"],
            path: "Sources/Infrastructure/Gateways"),
        // Credentials: tokens and keys (JWT signing and verifying, JWKS, grants, session tokens, key ring)
        .target(name: "Credentials", dependencies: ["VerifyCore", "LibCrypto", "CurlClient"], path: "Sources/Infrastructure/Credentials"),
        // Crypto: the domain's code protection (HMAC code hasher, AES-GCM sealer, random source)
        .target(name: "Crypto", dependencies: ["VerifyCore", "LibCrypto"], path: "Sources/Infrastructure/Crypto"),
        .target(name: "PhoneParsing", dependencies: ["VerifyCore", "PhoneNumbers"], path: "Sources/Infrastructure/PhoneParsing"),
        .target(
            name: "Challenges", dependencies: ["VerifyCore", "Encoding", "CurlClient", "LibCrypto", "CBOR"],
            path: "Sources/Infrastructure/Challenges"),

        // HTTP surface
        .target(name: "API", dependencies: ["VerifyCore", "Encoding", "HTTPMessages", "Telemetry"], path: "Sources/HTTP/API"),

        // Features: plug into the API (route groups + middleware); the API imports none of them
        .target(
            name: "TwilioCompatAPI", dependencies: ["API", "VerifyCore", "Encoding", "HTTPMessages", "Telemetry"],
            path: "Sources/Features/TwilioCompatAPI"),
        .target(name: "DevInbox", dependencies: ["API", "VerifyCore", "HTTPMessages"], path: "Sources/Features/DevInbox"),
        .target(
            name: "Console", dependencies: ["API", "VerifyCore", "Encoding", "HTTPMessages", "Telemetry"], path: "Sources/Features/Console"),

        // Vendors: one folder per messaging vendor, plugged in through App's VendorRegistry
        .target(
            name: "Vendors",
            dependencies: ["API", "Gateways", "Credentials", "VerifyCore", "Encoding", "HTTPMessages", "CurlClient", "LibCrypto", "SettingsTable"],
            path: "Sources/Vendors"),

        // Application
        .target(
            name: "App",
            dependencies: [
                "VerifyCore", "Encoding", "SettingsTable", "SQLiteStore", "Gateways", "Vendors", "Credentials", "Crypto", "PhoneParsing", "Challenges", "API", "TwilioCompatAPI", "DevInbox", "Console", "HTTPServer", "HTTPMessages", "Telemetry", "LibCrypto",
                "CurlClient", "SQLite", "PostgresStore",
            ],
            path: "Sources/Application/App"),
        .executableTarget(name: "phone-verify", dependencies: ["App"], path: "Sources/Application/phone-verify"),

        // Client: the library apps use (Foundation only) and its example command
        .target(name: "PhoneVerifyClient", path: "Sources/Client/PhoneVerifyClient"),
        .executableTarget(name: "phone-sign-in", dependencies: ["PhoneVerifyClient"], path: "Sources/Client/phone-sign-in"),

        // Test support: fakes for the domain (manual clock, seeded random, in-memory store, recording
        // gateway) and threads for concurrency tests
        .target(name: "VerifyTesting", dependencies: ["VerifyCore", "HTTPMessages"], path: "Sources/Testing/VerifyTesting"),
        .target(name: "ThreadTesting", path: "Sources/Testing/ThreadTesting"),
        .target(name: "VendorTesting", dependencies: ["HTTPServer", "HTTPMessages"], path: "Sources/Testing/VendorTesting"),
        // Counts a thread's heap allocations (it interposes malloc in the test executable): the
        // allocation budget of a start, a check and a resend (docs/BENCHMARKS.md, "Statement budget").
        .target(name: "AllocationCounting", path: "Sources/Testing/AllocationCounting"),

        .testTarget(name: "VerifyCoreTests", dependencies: ["VerifyCore", "VerifyTesting"]),
        .testTarget(name: "EncodingTests", dependencies: ["Encoding"]),
        .testTarget(
            name: "APITests",
            dependencies: ["API", "TwilioCompatAPI", "DevInbox", "Console", "Vendors", "VerifyCore", "VerifyTesting", "HTTPMessages", "Telemetry"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPMessages"]),
        .testTarget(name: "SQLiteTests", dependencies: ["ThreadTesting", "SQLite"]),
        .testTarget(name: "LibCryptoTests", dependencies: ["LibCrypto"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR"]),
        .testTarget(name: "PhoneNumbersTests", dependencies: ["PhoneNumbers"]),
        .testTarget(name: "CurlClientTests", dependencies: ["ThreadTesting", "CurlClient", "HTTPServer", "HTTPMessages"]),
        .testTarget(name: "PostgresTests", dependencies: ["ThreadTesting", "Postgres"]),
        .testTarget(
            name: "StoreContractTests", dependencies: ["AllocationCounting", "SQLiteStore", "SQLite", "PostgresStore", "Postgres", "VerifyCore", "VerifyTesting"]),
        .testTarget(name: "PostgresStoreTests", dependencies: ["ThreadTesting", "PostgresStore", "Postgres", "VerifyCore", "VerifyTesting"]),
        .testTarget(
            name: "CredentialsTests",
            dependencies: ["Credentials", "VerifyCore", "VerifyTesting", "LibCrypto", "HTTPServer", "HTTPMessages", "CurlClient"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "VerifyCore", "LibCrypto"]),
        .testTarget(name: "PhoneParsingTests", dependencies: ["PhoneParsing", "VerifyCore"]),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "VendorTesting", "Gateways", "SQLiteStore", "VerifyCore", "VerifyTesting", "HTTPServer", "HTTPMessages", "CurlClient", "LibCrypto", "Telemetry",
            ]),
        .testTarget(
            name: "VendorsTests",
            dependencies: [
                "VendorTesting", "Vendors", "Gateways", "API", "VerifyCore", "VerifyTesting", "HTTPServer", "HTTPMessages", "CurlClient", "LibCrypto", "Telemetry",
            ]),
        .testTarget(
            name: "ChallengesTests",
            dependencies: [
                "Challenges", "VerifyCore", "VerifyTesting", "LibCrypto", "HTTPServer", "HTTPMessages", "CurlClient", "Encoding", "CBOR",
            ]),
        .testTarget(name: "LiveTests", dependencies: ["App", "API", "Gateways", "Vendors", "SettingsTable", "HTTPServer", "Telemetry", "VerifyCore", "HTTPMessages", "LibCrypto"]),
        // The client's unit tests (canned responses), live tests against the built phone-verify
        // binary, and its agreement with docs/openapi.json; LibCrypto only mints test tokens.
        .testTarget(name: "PhoneVerifyClientTests", dependencies: ["PhoneVerifyClient", "LibCrypto"]),
    ],
    // The C++ shim (CPhoneNumber) needs C++17 for libphonenumber's headers; set here rather than
    // with an unsafe -std flag, which would stop this package from being used as a dependency.
    cxxLanguageStandard: .cxx17
)

// Release builds optimise across modules. The server is many small modules (the tree above), and
// without this a generic or a small function stops being specialised or inlined at each module's
// edge (docs/BENCHMARKS.md, "Third round": 0.85-0.97 of the CPU per flow in runs under load,
// within noise on the quiet machine; no run-time cost). Debug builds (the tests) are unchanged.
// The client library and its example are left out: other packages build them, and an unsafe
// flag would stop them from depending on it.
let serverLayers = ["Application", "HTTP", "Features", "Vendors", "Infrastructure", "Domain", "Wrappers", "Support"]
for target in package.targets where target.type == .regular || target.type == .executable {
    guard let path = target.path,
        serverLayers.contains(where: { path == "Sources/\($0)" || path.hasPrefix("Sources/\($0)/") })
    else { continue }
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
}
