import ArgumentParser
import Foundation

/// Options every scenario takes.
struct ScenarioOptions: ParsableArguments {
    @Option(help: "Base URL of a running rider-server; without it the scenario starts its own.")
    var server: String?

    @Flag(help: "Tiny sizes: checks that the scenario still runs, measures nothing worth publishing.")
    var smoke = false

    @Flag(help: "Print the report as JSON (what the driver reads) instead of a table.")
    var json = false

    /// The server to use: the one given, else a fresh one (kept alive by the returned value).
    func startServer() throws -> ServerProcess {
        if let server {
            guard let url = URL(string: server) else { throw ValidationError("--server \(server) is not a URL") }
            return ServerProcess(attachingTo: url)
        }
        return try ServerProcess()
    }

    /// Prints the report in the requested form; fails the command when a check failed.
    func emit(_ report: ScenarioReport) throws {
        var report = report
        report.peakResidentBytes = ProcessMemory.peakResidentBytes
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(ReportTable.markdown([report]))
            if !report.checks.isEmpty { print("\n" + ReportTable.checks([report])) }
        }
        if report.checks.contains(where: { !$0.passed }) { throw ExitCode.failure }
    }
}
