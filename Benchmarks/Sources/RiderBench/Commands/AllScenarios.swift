import ArgumentParser
import Foundation

/// Every scenario, each in a child process of its own, against one shared rider-server.
struct AllScenarios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract: "Run every scenario and print one table (the default)."
    )

    static let scenarios = ["requests", "storm", "cache", "vault", "cli", "users", "signin", "dpop"]

    @Flag(help: "Tiny sizes: checks that every scenario still runs (part of make test).")
    var smoke = false

    @Option(help: "Comma-separated scenarios to run (\(scenarios.joined(separator: ","))).")
    var only: String?

    func run() async throws {
        let chosen = try only.map { list in
            let names = list.split(separator: ",").map(String.init)
            for name in names where !Self.scenarios.contains(name) {
                throw ValidationError("unknown scenario \(name); known: \(Self.scenarios.joined(separator: ", "))")
            }
            return names
        } ?? Self.scenarios
        let server = try ServerProcess()
        defer { server.stop() }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

        var reports: [ScenarioReport] = []
        var failed: [String] = []
        for scenario in chosen {
            FileHandle.standardError.write(Data("rider-bench: \(scenario)…\n".utf8))
            let child = Process()
            child.executableURL = me
            child.arguments = [scenario, "--server", server.baseURL.absoluteString, "--json"] + (smoke ? ["--smoke"] : [])
            var environment = ProcessInfo.processInfo.environment
            environment["RIDER_BIN_DIR"] = Binaries.folder.path
            child.environment = environment
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
            let lastLine = data.split(separator: UInt8(ascii: "\n")).last.map { Data($0) } ?? Data()
            if let report = try? JSONDecoder().decode(ScenarioReport.self, from: lastLine) {
                reports.append(report)
            } else {
                failed.append("\(scenario) exited with status \(child.terminationStatus) and no report")
            }
        }

        print(ReportTable.markdown(reports))
        let checks = ReportTable.checks(reports)
        if !checks.isEmpty { print("\n" + checks) }
        for failure in failed { print("FAIL  \(failure)") }
        // Tiny sizes measure nothing worth judging.
        let targets = smoke ? [] : BenchTarget.all.compactMap { $0.judge(reports) }
        if !targets.isEmpty { print("\nTargets of #19 (a missed one does not fail the run):\n" + targets.joined(separator: "\n")) }
        if !failed.isEmpty || reports.contains(where: { $0.checks.contains { !$0.passed } }) {
            throw ExitCode.failure
        }
    }
}
