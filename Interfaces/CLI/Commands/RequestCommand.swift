import ArgumentParser
import Foundation
import RiderApplication
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rider request [METHOD] URL`: one authorized request to the server the session belongs to, its
/// answer on standard output — a session used by a script without handing it the token.
struct RequestCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send an authorized request to the server and print the answer (as gh api).",
        discussion: """
            The request goes out as rider's own do: with the session's token (and a DPoP proof \
            for a bound session), renewed first when it is about to expire, once more after a \
            sign-in when the server asks for a scope the session lacks (on a terminal), and to \
            the server's origin only — a path is taken under the server's base URL, an absolute \
            URL elsewhere is refused before anything is sent. The token itself is never printed.

            The answer's body goes to standard output as it is when standard output is a pipe or \
            a file, and made terminal-safe on a terminal; with --include the status line and \
            headers come first. An answer with status 400 or above is printed too, then rider \
            exits as for that error (4 for 401, 9 for 4xx input errors, …).

            --data @FILE sends a file, --data @- standard input, anything else as it is; the \
            content type is application/json unless --header Content-Type says otherwise. \
            Authorization, DPoP and Cookie headers are the session's to set and are refused.

            Examples:
              rider request /auth/me
              rider request PATCH /riders/me --data '{"description":"Sundays"}' \\
                --header 'If-Match: "v3"'
              rider request POST https://api.example.com/reports --data @report.json
            """
    )

    @Argument(help: ArgumentHelp("The method (GET unless given) and the address: a path on the server or an absolute "
                                 + "URL on its origin.", valueName: "method] [url"))
    var words: [String]

    @Option(name: .customLong("data"), help: ArgumentHelp("The body: @FILE, @- for standard input, or the text itself.",
                                                          valueName: "body"))
    var data: String?

    @Option(name: .customLong("header"), help: ArgumentHelp("A header to send, 'Name: value' (repeatable).",
                                                            valueName: "header"))
    var headers: [String] = []

    @Flag(name: .customShort("i"), help: "Print the status line and the answer's headers before its body.")
    var include = false

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func validate() throws {
        guard (1...2).contains(words.count) else {
            throw ValidationError("give the address, with the method before it when not GET: rider request [METHOD] URL")
        }
        if words.count == 2, !words[0].allSatisfy({ $0.isLetter }) {
            throw ValidationError("'\(words[0])' is not an HTTP method")
        }
        for header in headers where header.firstIndex(of: ":") == nil {
            throw ValidationError("--header takes 'Name: value', not '\(header)'")
        }
        if global.json { throw ValidationError("request prints the server's answer as it is: leave out --json") }
    }

    func run() async throws {
        let context = try CommandContext(global)
        let method = HTTPMethod(rawValue: words.count == 2 ? words[0].uppercased() : "GET")
        let headerPairs = headers.map { line -> (String, String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        let body = try data.map { (try Self.read($0), contentType: headerPairs.last {
            $0.0.lowercased() == "content-type" }?.1 ?? "application/json") }
        let rider = context.rider
        let send = SendAuthorizedRequest(
            api: APIClient(configuration: rider.api, pipeline: RequestPipeline(transport: rider.transport,
                                                                               middlewares: rider.authorizedSteps)),
            configuration: rider.api)
        let response = try await send(method, words[words.count - 1], body: body,
                                      headers: headerPairs.filter { $0.0.lowercased() != "content-type" })
        Self.show(response, include: include)
        if response.status >= 400 { throw ProblemMapping.error(for: response) }
    }

    /// The body `--data` names.
    static func read(_ argument: String) throws -> Data {
        guard argument.hasPrefix("@") else { return Data(argument.utf8) }
        let path = String(argument.dropFirst())
        do {
            return path == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RiderError.invalidInput([FieldProblem(field: "data", message: "\(path) cannot be read")])
        }
    }

    /// The answer on standard output: as it is for a program, terminal-safe for a person.
    static func show(_ response: HTTPResponse, include: Bool) {
        var head = ""
        if include {
            head = "HTTP \(response.status)\n" + response.headers.map { "\($0.name): \($0.value)\n" }.joined() + "\n"
        }
        if isatty(STDOUT_FILENO) == 1 {
            Console.standardOutput(head + String(decoding: response.body, as: UTF8.self))
        } else {
            FileHandle.standardOutput.write(Data(head.utf8) + response.body)
        }
    }
}
