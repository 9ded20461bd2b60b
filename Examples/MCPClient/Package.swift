// swift-tools-version:6.1
import PackageDescription

// An MCP client on Linux: the MCP Swift SDK's `Client`, over RiderKitMCP's streamable HTTP
// transport (Server-Sent Events parsed on Linux too), signed in by RiderKit. `make examples`
// (part of `make test`) runs it against a real MCP server that requires OAuth, one RiderKit's
// authors did not write (scripts/with-mcp-server.sh: the MCP Python SDK behind Glewlwyd;
// scripts/mcp-client-example.sh says how).
let package = Package(
    name: "MCPClient",
    platforms: [.macOS(.v15)],
    dependencies: [
        // An app would write .package(url: "https://…/RiderKit.git", from: "…").
        .package(name: "RiderKit", path: "../.."),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        .executableTarget(
            name: "mcp-client",
            dependencies: [
                .product(name: "RiderKit", package: "RiderKit"),
                .product(name: "RiderKitMCP", package: "RiderKit"),
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
