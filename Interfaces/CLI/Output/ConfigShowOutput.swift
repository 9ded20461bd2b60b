import Foundation
import RiderKit

/// `rider config show`: the config file's path, then every setting RiderKit reads.
struct ConfigShowOutput: Encodable, Sendable {
    let file: String
    let fileExists: Bool
    let settings: [ConfigSettingOutput]
    /// Keys in the file RiderKit does not know: it refuses to start until they are removed.
    let unknownKeys: [String]

    init(_ document: ConfigFileDocument, environment: [String: String], server: String?, issuer: String? = nil) {
        file = document.file.path
        fileExists = document.exists
        var settings = ConfigKey.allCases.map {
            ConfigSettingOutput($0, fileValue: document.text(for: $0), environment: environment, server: server,
                                 issuer: issuer)
        }
        // With an issuer, the token and revocation endpoints nobody set come from its metadata.
        if settings.contains(where: { $0.key == ConfigKey.issuer.rawValue && $0.set }) {
            for index in settings.indices
            where [ConfigKey.tokenPath.rawValue, ConfigKey.revokePath.rawValue].contains(settings[index].key) {
                settings[index].discoveredWhenDefault()
            }
        }
        self.settings = settings
        unknownKeys = document.unknownKeys
    }

    /// A line naming the file, then a table (key, value, source): titled and styled on a
    /// terminal, plain aligned lines when piped.
    func lines(on terminal: TerminalOutput) -> [String] {
        let title = "config file \(file.terminalSafe)" + (fileExists ? "" : " (does not exist; `rider config set` creates it)")
        var lines = [terminal.style.bold(title)]
        let rows = settings.map(\.row)
        if terminal.usesTables {
            let columns = [TextTable.Column(title: "KEY"), TextTable.Column(title: "VALUE"),
                           TextTable.Column(title: "SOURCE", dimmed: true)]
            lines += TextTable(columns: columns, rows: rows).lines(style: terminal.style)
        } else {
            lines += HumanFormat.columns(rows)
        }
        for setting in settings {
            guard let problem = setting.problem else { continue }
            lines.append("invalid \(setting.key) (\(setting.shownSource)): \(problem.terminalSafe)")
        }
        if !unknownKeys.isEmpty {
            lines.append("unknown keys in the file (rider will not start until they are removed with "
                + "`rider config unset KEY`): \(unknownKeys.map(\.terminalSafe).joined(separator: ", "))")
        }
        return lines
    }
}
