// swift-tools-version:6.1
import PackageDescription

// The Domain, Application and Infrastructure layers built under ThreadSanitizer
// (`make race-check`, part of `make test`), driven by `rider-race-check`: the session engine's
// concurrency scenarios, and concurrent stress on the real vaults (encrypted file, Secret
// Service), the file locks and the SQLite user cache.
//
// A package of its own, not `swift test --sanitize=thread` on the main package, so the sanitized
// build compiles only what these layers link: GRDB, swift-crypto (with BoringSSL) and swift-log,
// not Hummingbird, SwiftNIO, ArgumentParser or the test frameworks. From cold, that is well
// under half the CPU time of the main package's sanitized test build, which compiles all of them
// (docs/reliability.md, "Data races", has the figures).
// Sources/RiderDomain, Sources/RiderApplication and Sources/RiderInfrastructure are links to the
// real source folders, not copies; the dependencies carry the main package's version requirements.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "RiderKitSanitizers",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "RiderDomain", path: "Sources/RiderDomain", swiftSettings: strict),
        .target(name: "RiderApplication", dependencies: ["RiderDomain"], path: "Sources/RiderApplication",
                swiftSettings: strict),
        .systemLibrary(
            name: "CLibSecret",
            path: "Sources/RiderInfrastructure/CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .target(name: "CKernelKeyring", path: "Sources/RiderInfrastructure/CKernelKeyring"),
        .target(name: "CSQLiteLog", path: "Sources/RiderInfrastructure/CSQLiteLog",
                linkerSettings: [.linkedLibrary("sqlite3")]),
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
            ],
            path: "Sources/RiderInfrastructure",
            // The HTTP adapters (AsyncHTTPClient, URLSession), the browser sign-in's NIO loopback
            // listener and the swift-metrics recorder are left out: they would bring SwiftNIO and
            // a second BoringSSL into the sanitized build, and their shared state is inside
            // AsyncHTTPClient and SwiftNIO, which have their own TSan CI. (The id_token verifier
            // is a module of its own in the main package, OpenIDConnect.)
            exclude: ["CLibSecret", "CKernelKeyring", "CSQLiteLog", "HTTP", "URLSession", "Metrics", "Browser", "OpenIDConnect", "Tracing"],
            swiftSettings: strict
        ),
        .executableTarget(name: "rider-race-check",
                          dependencies: ["RiderDomain", "RiderApplication", "RiderInfrastructure"],
                          path: "Sources/RaceCheck", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
