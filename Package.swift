// swift-tools-version:6.1
import PackageDescription

// Layers point inward: Interfaces → Infrastructure → Application → Domain.
// SwiftPM enforces what the folders only suggest.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "RiderKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RiderKit", targets: ["RiderKit"]),
        // Foundation's URLSession as the transport, for programs that want it: a product of its own
        // so RiderKit and `rider` do not load libcurl and its thirty libraries at every start.
        .library(name: "RiderURLSession", targets: ["RiderURLSession"]),
        // For embedding programs' test targets: stub transport, manual clock, spy vault, fixtures,
        // `RiderKit.testing()`. Imports Swift Testing, so link it into test targets only.
        .library(name: "RiderKitTesting", targets: ["RiderKitTesting"]),
        // A ClientMiddleware and ClientTransport for clients made by swift-openapi-generator: the
        // session engine (bearer, single-flight refresh, retry) in front of any generated client.
        .library(name: "RiderKitOpenAPI", targets: ["RiderKitOpenAPI"]),
        // For the MCP Swift SDK's `Client`: a streamable-HTTP transport that parses Server-Sent
        // Events on Linux too, each request authorized by a RiderKit session.
        .library(name: "RiderKitMCP", targets: ["RiderKitMCP"]),
        // `rider` is a small front (RiderFront) that prints the help, completions and version itself
        // and executes `rider-core`, the whole CLI, for everything else: a start of about 1 ms for
        // what needs none of RiderKit (#34, docs/architecture.md).
        .executable(name: "rider", targets: ["RiderFront"]),
        .executable(name: "rider-core", targets: ["RiderCLI"]),
        .executable(name: "rider-server", targets: ["RiderServerMain"]),
        .library(name: "RiderReferenceServer", targets: ["RiderReferenceServer"]),
        .executable(name: "rider-bench", targets: ["RiderBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Default traits pull swift-configuration in; the reference server does not need it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // scrypt and AES-GCM for the encrypted session file; never hand-written crypto.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // JOSE: the id_token's signature against the provider's JWKS (RFC 7515, 7517), and the
        // reference server's signing of it. Needs swift-crypto 4.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        // SQLite with FTS5, WAL pools and migrations for the user cache (issue #5).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The default HTTP transport on Linux: on loopback URLSession reached a quarter of a raw
        // socket client's requests/s and did not scale with concurrency (issue #6, docs/performance.md).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already built for AsyncHTTPClient and Hummingbird; named so the transport can map its errors.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Counters for embedding programs (already built for Hummingbird; no extra build time).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // `make docs`: DocC catalogs for RiderKit, RiderDomain and RiderApplication. A command plugin,
        // so `swift build` does not build it; only `swift package generate-documentation` does.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // RiderKitOpenAPI: the ClientMiddleware and ClientTransport protocols of generated clients,
        // and the HTTP types they speak.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Spans for requests, refreshes, vault and cache operations, to whatever tracer the program
        // bootstraps (swift-otel, say). Already built for AsyncHTTPClient and Hummingbird.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // RiderKitMCP: the MCP Swift SDK's `Client`, `Transport` and message types.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // MARK: Domain — models, errors, ports. Foundation only.
        .target(name: "RiderDomain", path: "Domain", swiftSettings: strict),

        // MARK: Application — use cases, API contract, session engine. Domain only.
        .target(name: "RiderApplication", dependencies: ["RiderDomain"], path: "Application", swiftSettings: strict),

        // MARK: Infrastructure — adapters for the ports.
        // libsecret (Secret Service over D-Bus) comes in as a system library.
        .systemLibrary(
            name: "CLibSecret",
            path: "Infrastructure/CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // The kernel key retention service (keyctl), for the encrypted file's unlock: a few C
        // lines, because `syscall` is variadic and Swift cannot call it.
        .target(name: "CKernelKeyring", path: "Infrastructure/CKernelKeyring"),
        // One call to SQLite's variadic `sqlite3_db_config`, for the cache's close (CacheLog).
        .target(name: "CSQLiteLog", path: "Infrastructure/CSQLiteLog", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "RiderInfrastructure",
            dependencies: [
                "RiderDomain",
                "CLibSecret",
                "CKernelKeyring",
                "CSQLiteLog",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ],
            path: "Infrastructure",
            exclude: ["CLibSecret", "CKernelKeyring", "CSQLiteLog", "URLSession", "OpenIDConnect"],
            swiftSettings: strict
        ),
        // The id_token's signature check, over jwt-kit: a module of its own, because importing
        // JWTKit changes how Glibc's `stat` resolves across a whole module under
        // MemberImportVisibility, and the sanitized build then need not compile jwt-kit either.
        .target(
            name: "RiderOpenIDConnect",
            dependencies: ["RiderDomain", .product(name: "JWTKit", package: "jwt-kit"),
                           .product(name: "Crypto", package: "swift-crypto")],
            path: "Infrastructure/OpenIDConnect",
            swiftSettings: strict
        ),
        .target(name: "RiderURLSession", dependencies: ["RiderDomain"], path: "Infrastructure/URLSession",
                swiftSettings: strict),

        // MARK: Interfaces
        .target(
            name: "RiderKit",
            dependencies: ["RiderDomain", "RiderApplication", "RiderInfrastructure", "RiderOpenIDConnect"],
            path: "Interfaces/RiderKit",
            swiftSettings: strict
        ),
        .target(
            name: "RiderKitOpenAPI",
            dependencies: [
                "RiderDomain", "RiderApplication", "RiderKit",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Interfaces/RiderKitOpenAPI",
            swiftSettings: strict
        ),
        .target(
            name: "RiderKitMCP",
            dependencies: [
                "RiderDomain", "RiderApplication", "RiderKit",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Interfaces/RiderKitMCP",
            swiftSettings: strict
        ),
        // Only the public API layers: what an embedding program can see, nothing of Infrastructure's
        // internals (scripts/check-layers.sh checks the imports).
        .target(
            name: "RiderKitTesting",
            dependencies: ["RiderDomain", "RiderApplication", "RiderKit"],
            path: "Interfaces/RiderKitTesting",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "RiderCLI",
            dependencies: [
                "RiderKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Interfaces/CLI",
            swiftSettings: strict
        ),
        // No dependency at all, not even Foundation, and linked as a static executable: the loader
        // has nothing to relocate or bind and the runtime nothing to scan, so `rider --help` starts
        // like a C program. Its texts are generated from RiderCLI's commands (FrontTexts.swift).
        .executableTarget(
            name: "RiderFront",
            path: "Interfaces/CLIFront",
            swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-static-executable"])]
        ),
        .target(
            name: "RiderReferenceServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 for PKCE, and signing id_tokens (both already built for Infrastructure).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            path: "Interfaces/ReferenceServer",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "RiderServerMain",
            dependencies: [
                "RiderReferenceServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Interfaces/ReferenceServerMain",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ReadmeExample",
            dependencies: ["RiderKit"],
            path: "Examples/ReadmeExample",
            swiftSettings: strict
        ),

        // MARK: Benchmarks — `make bench` runs them in release mode; `make test` runs a smoke pass.
        // They live in this package, not their own, so the smoke pass reuses the test build
        // instead of compiling every dependency a second time.
        // The floor for the cache: the raw sqlite3 C API, the same system library GRDB builds on.
        .systemLibrary(
            name: "CSQLite3",
            path: "Benchmarks/Sources/CSQLite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "RiderBench",
            dependencies: [
                "RiderKit", "RiderURLSession", "CSQLite3",
                // DPoP proofs next to a bare ES256 signature.
                "RiderOpenIDConnect",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The KDF floor for the vault: scrypt alone, with the vault's parameters.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/Sources/RiderBench",
            swiftSettings: strict
        ),

        // MARK: Tests
        .target(
            name: "TestSupport",
            // The reference server and the composition root: `withReferenceServer` and a RiderKit
            // pointed at it, one harness for every suite that talks to the server.
            dependencies: ["RiderDomain", "RiderApplication", "RiderInfrastructure", "RiderKit", "RiderKitTesting",
                           "RiderReferenceServer", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(name: "DomainTests", dependencies: ["RiderDomain"], path: "Tests/DomainTests", swiftSettings: strict),
        .testTarget(
            name: "ApplicationTests",
            dependencies: ["RiderApplication", "TestSupport"],
            path: "Tests/ApplicationTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "InfrastructureTests",
            dependencies: [
                "RiderInfrastructure", "RiderURLSession", "CLibSecret", "RiderReferenceServer", "RiderKit", "TestSupport",
                "RiderOpenIDConnect",
                // To write cache files of older and newer schemas.
                .product(name: "GRDB", package: "GRDB.swift"),
                // To sign the id_tokens the verifier is given, with keys of every kind.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // To check DPoP proofs with swift-crypto alone, not with the jwt-kit that signed them.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/InfrastructureTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ReferenceServerTests",
            // TestSupport for `withReferenceServer`; HummingbirdTesting (from the hummingbird package
            // the server already uses) to hand requests to the router without a socket.
            dependencies: [
                "RiderReferenceServer", "TestSupport",
                // RiderKit's own WWW-Authenticate parser, to read the server's challenges as the client does.
                "RiderApplication",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                // To sign DPoP proofs of every kind, well-formed and not, for the server to check.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/ReferenceServerTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "RiderKitTests",
            dependencies: [
                "RiderKit", "RiderKitTesting", "TestSupport", .product(name: "Logging", package: "swift-log"),
                // The library's in-memory tracer, bound per test with `withTracer`.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/RiderKitTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "RiderKitOpenAPITests",
            dependencies: [
                "RiderKitOpenAPI", "RiderKit", "RiderDomain", "RiderReferenceServer", "TestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/RiderKitOpenAPITests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "RiderKitMCPTests",
            // Hummingbird for a streamable-HTTP MCP server over loopback.
            dependencies: [
                "RiderKitMCP", "RiderKit", "RiderDomain", "RiderApplication", "TestSupport",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/RiderKitMCPTests",
            swiftSettings: strict
        ),
        // Imports only what an embedding program's tests can: RiderKit and RiderKitTesting.
        .testTarget(
            name: "RiderKitTestingTests",
            dependencies: ["RiderKit", "RiderKitTesting"],
            path: "Tests/RiderKitTestingTests",
            swiftSettings: strict
        ),
        // The CLI's own types (tables, the config file, the command tree's help) tested in-process.
        .testTarget(
            name: "CLITests",
            dependencies: ["RiderCLI", "RiderKit"],
            path: "Tests/CLITests",
            swiftSettings: strict
        ),
        // Saves sessions in a loop, to be killed mid-write or run twice at once by the vault tests.
        .executableTarget(
            name: "VaultWriter",
            dependencies: ["RiderDomain", "RiderInfrastructure"],
            path: "Tests/VaultWriter",
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "RiderKit", "RiderReferenceServer", "RiderCLI", "RiderServerMain", "ReadmeExample", "TestSupport",
                "VaultWriter",
                // To capture every log line at trace level (SecretHygieneAcrossTheStackTests).
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/EndToEndTests",
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
