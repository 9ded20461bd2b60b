import Foundation
import MCP
import RiderKit
import RiderKitMCP

// mcp-client URL TOOL [NAME=VALUE…] — connects to the MCP server at URL, lists its tools and
// calls TOOL with the arguments given (a VALUE that reads as an integer is sent as one).
//
// RiderKit is configured as `rider` is (RIDER_… variables, the config file), with the server's
// URL as the resource (RIDER_RESOURCE). The session is the one in the vault — `rider login` may
// have made it, in another process — or, when there is none, one made here through the browser:
// the authorization server found from the server's 401 (RFC 9728), a client registered there
// when none is configured (RFC 7591), a token asked for that server alone (RFC 8707). Every
// request then carries the session's token, renewed when needed, by RiderSessionAuthorizer;
// RiderKitMCP's transport reads the server's answers, Server-Sent Events included, on Linux too.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let url = URL(string: arguments[0]), url.scheme != nil else {
    FileHandle.standardError.write(Data("usage: mcp-client URL TOOL [NAME=VALUE…]\n".utf8))
    exit(2)
}
var toolArguments: [String: Value] = [:]
for pair in arguments.dropFirst(2) {
    guard let equals = pair.firstIndex(of: "=") else {
        FileHandle.standardError.write(Data("mcp-client: '\(pair)' is not NAME=VALUE\n".utf8))
        exit(2)
    }
    let value = String(pair[pair.index(after: equals)...])
    toolArguments[String(pair[..<equals])] = Int(value).map { .int($0) } ?? .string(value)
}

do {
    let rider = try RiderKit.live(configuration: .load())
    if try await rider.sessions.currentSession() == nil {
        _ = try await rider.signIn(.browser { prompt in
            // Shown always: a person whose browser did not open can open it by hand.
            let opened = prompt.openedInBrowser ? " (opened in the browser)" : ""
            FileHandle.standardError.write(Data("mcp-client: sign in at \(prompt.url)\(opened)\n".utf8))
        })
    }
    let transport = StreamableHTTPTransport(endpoint: url, authorizer: RiderSessionAuthorizer(rider))
    let client = Client(name: "riderkit-mcp-client-example", version: "1.0")
    let initialized = try await client.connect(transport: transport)
    print("server: \(initialized.serverInfo.name) (MCP \(initialized.protocolVersion))")
    let (tools, _) = try await client.listTools()
    print("tools: " + tools.map(\.name).sorted().joined(separator: " "))
    let (content, isError) = try await client.callTool(name: arguments[1], arguments: toolArguments)
    let text = content.compactMap { part -> String? in
        if case .text(let text, _, _) = part { return text } else { return nil }
    }.joined()
    print("\(arguments[1]): \(text)")
    await client.disconnect()
    await rider.close()
    exit(isError == true ? 1 : 0)
} catch {
    FileHandle.standardError.write(Data("mcp-client: \(error)\n".utf8))
    exit(1)
}
