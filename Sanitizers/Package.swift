// swift-tools-version:6.1
import PackageDescription

// The Domain and Application layers built alone under ThreadSanitizer (`make race-check`, part
// of `make test`). A package of its own so the sanitized build compiles two modules and no
// third-party code: Sources/RiderDomain and Sources/RiderApplication are links to the real
// source folders, not copies.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "RiderKitSanitizers",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "RiderDomain", path: "Sources/RiderDomain", swiftSettings: strict),
        .target(name: "RiderApplication", dependencies: ["RiderDomain"], path: "Sources/RiderApplication",
                swiftSettings: strict),
        .executableTarget(name: "rider-race-check", dependencies: ["RiderDomain", "RiderApplication"],
                          path: "Sources/RaceCheck", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
