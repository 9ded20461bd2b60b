// swift-tools-version:6.1
import PackageDescription

// A program that embeds RiderKit the way any other would: through the package's products,
// with its own tests on RiderKitTesting — no network, no keyring, no disk. `make examples`
// (part of `make test`) builds it and runs its tests.
let package = Package(
    name: "EmbeddingApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        // An app would write .package(url: "https://…/RiderKit.git", from: "…").
        .package(name: "RiderKit", path: "../.."),
    ],
    targets: [
        .target(name: "RideBuddy", dependencies: [.product(name: "RiderKit", package: "RiderKit")]),
        .executableTarget(name: "ride-buddy", dependencies: ["RideBuddy"]),
        .testTarget(
            name: "RideBuddyTests",
            dependencies: [
                "RideBuddy",
                .product(name: "RiderKit", package: "RiderKit"),
                .product(name: "RiderKitTesting", package: "RiderKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
