// swift-tools-version:6.0
import PackageDescription

// C libraries come from Debian packages (see scripts/install-deps); each sits behind
// a system-library target and exactly one Swift wrapper module with no pointers in its API.
let package = Package(
    name: "PhoneVerify",
    products: [
        .executable(name: "phone-verify", targets: ["phone-verify"]),
    ],
    targets: [
        // C libraries
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq"),
        .target(
            name: "CPhoneNumber",
            path: "Sources/CPhoneNumber",
            cxxSettings: [.unsafeFlags(["-std=c++17"])],
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]
        ),

        // Pure Swift, no dependencies: base64url for the domain and the crypto wrapper
        .target(name: "Encoding"),
        // Threads for concurrency tests (test targets only)
        .target(name: "ThreadTesting"),

        // One Swift wrapper per C library
        .target(name: "HTTPTypes"),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "HTTPTypes"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Crypto", dependencies: ["COpenSSL", "Encoding"]),
        .target(name: "PhoneNumbers", dependencies: ["CPhoneNumber"]),
        .target(name: "HTTPClient", dependencies: ["CCurl"]),
        .target(name: "Postgres", dependencies: ["CPostgres"]),

        // Cross-cutting
        .target(name: "Telemetry"),

        // Domain and adapters
        .target(name: "VerifyCore", dependencies: ["Encoding"]),
        .target(name: "Stores", dependencies: ["VerifyCore", "SQLite"]),
        .target(name: "PostgresStore", dependencies: ["VerifyCore", "Postgres"]),
        .target(name: "Gateways", dependencies: ["VerifyCore", "Telemetry", "HTTPClient", "Crypto"]),
        .target(name: "Adapters", dependencies: ["VerifyCore", "Crypto", "PhoneNumbers", "HTTPClient"]),
        .target(name: "API", dependencies: ["VerifyCore", "HTTPTypes", "Telemetry"]),
        .target(name: "App", dependencies: [
            "VerifyCore", "Stores", "Gateways", "Adapters", "API", "HTTPServer", "HTTPTypes", "Telemetry", "Crypto",
            "HTTPClient", "SQLite", "PostgresStore",
        ]),
        .executableTarget(name: "phone-verify", dependencies: ["App"]),

        // Test support: fakes for the domain (manual clock, seeded random, in-memory store, recording gateway)
        .target(name: "VerifyTesting", dependencies: ["VerifyCore", "HTTPTypes"]),

        .testTarget(name: "VerifyCoreTests", dependencies: ["VerifyCore", "VerifyTesting"]),
        .testTarget(name: "APITests", dependencies: ["API", "VerifyCore", "VerifyTesting", "HTTPTypes", "Telemetry"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTypes"]),
        .testTarget(name: "SQLiteTests", dependencies: ["ThreadTesting", "SQLite"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "PhoneNumbersTests", dependencies: ["PhoneNumbers"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["ThreadTesting", "HTTPClient", "HTTPServer", "HTTPTypes"]),
        .testTarget(name: "PostgresTests", dependencies: ["ThreadTesting", "Postgres"]),
        .testTarget(name: "StoreContractTests", dependencies: ["Stores", "SQLite", "PostgresStore", "Postgres", "VerifyCore", "VerifyTesting"]),
        .testTarget(name: "PostgresStoreTests", dependencies: ["ThreadTesting", "PostgresStore", "Postgres", "VerifyCore", "VerifyTesting"]),
        .testTarget(name: "AdaptersTests", dependencies: ["Adapters", "VerifyCore", "VerifyTesting", "Crypto", "HTTPServer", "HTTPTypes", "HTTPClient"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateways", "Stores", "VerifyCore", "VerifyTesting", "HTTPServer", "HTTPTypes", "HTTPClient", "Crypto", "Telemetry"]),
        .testTarget(name: "LiveTests", dependencies: ["App", "VerifyCore", "HTTPTypes", "Crypto"]),
    ]
)
