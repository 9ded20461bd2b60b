// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for every decoder that reads data from outside the process, since that is
// where a crafted input can reach RiderKit: `make fuzz` (60 s each) and `make fuzz-smoke`
// (20 s each, part of `make test`).
//
// A package of its own, like Sanitizers/, so the fuzzing build compiles the layers alone and no
// third-party code: Sources/RiderDomain and Sources/RiderApplication are links to the real source
// folders, and VaultFormat links the three Infrastructure files that parse the session file and
// the stored session. Their only third-party need is SHA-256 for the header checksum, which
// Sources/Crypto provides (a fuzzing stand-in for swift-crypto's SHA256, never shipped).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
// libFuzzer supplies main(); the targets only define LLVMFuzzerTestOneInput.
let fuzzTarget: [SwiftSetting] = strict + [.unsafeFlags(["-parse-as-library"])]

let targets = [
    "fuzz-token-response", "fuzz-token-error", "fuzz-problem", "fuzz-user-json", "fuzz-http-date",
    "fuzz-vault-file", "fuzz-stored-session",
]

let package = Package(
    name: "RiderKitFuzz",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "RiderDomain", path: "Sources/RiderDomain", swiftSettings: strict),
        .target(name: "RiderApplication", dependencies: ["RiderDomain"], path: "Sources/RiderApplication",
                swiftSettings: strict),
        .target(name: "Crypto", path: "Sources/Crypto", swiftSettings: strict),
        .target(name: "VaultFormat", dependencies: ["RiderDomain", "Crypto"], path: "Sources/VaultFormat",
                swiftSettings: strict),
        .target(name: "FuzzSupport", dependencies: ["RiderDomain"], path: "Sources/FuzzSupport", swiftSettings: strict),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: ["RiderDomain", "RiderApplication", "VaultFormat", "FuzzSupport"],
                          path: "Targets/\(name)", swiftSettings: fuzzTarget)
    },
    swiftLanguageModes: [.v6]
)
