import ArgumentParser

/// The options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The server's base URL, e.g. https://api.example.com (overrides RIDER_BASE_URL).",
        valueName: "url"))
    var server: String?

    @Flag(name: .long, help: "Print machine-readable JSON on stdout (snake_case keys, ISO-8601 dates); errors go to stderr as JSON.")
    var json = false

    @Flag(name: .long, help: "Log each request (method, URL, status) to stderr. Never logs headers, bodies or tokens.")
    var verbose = false
}
