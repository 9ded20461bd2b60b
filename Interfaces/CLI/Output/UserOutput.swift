import Foundation
import RiderKit

/// A user as `rider` prints it: JSON with the contract's keys, or aligned lines.
struct UserOutput: Encodable, Sendable {
    let id: String
    let email: String
    let displayName: String
    let role: String
    @Nullable var riderType: String?
    @Nullable var createdAt: Date?

    init(_ user: User) {
        id = user.id.rawValue
        email = user.email
        displayName = user.displayName
        role = user.role.rawValue
        riderType = user.riderType?.rawValue
        createdAt = user.createdAt
    }

    var lines: [String] { HumanFormat.block(fields) }

    /// The labelled fields `lines` aligns, for outputs that add their own.
    var fields: [(String, String)] {
        [
            ("id", id),
            ("email", email),
            ("display name", displayName),
            ("role", role),
            ("type", riderType ?? "-"),
            ("member since", createdAt.map(HumanFormat.date) ?? "-"),
        ]
    }

    /// One row of a user listing: id, display name, email, type.
    var row: [String] { [id, displayName, email, riderType ?? "-"] }

    /// The columns of ``row`` for a table on a terminal; ids dimmed so names stand out.
    static let tableColumns = [
        TextTable.Column(title: "ID", dimmed: true),
        TextTable.Column(title: "NAME"),
        TextTable.Column(title: "EMAIL"),
        TextTable.Column(title: "TYPE"),
    ]

    /// `users` as aligned plain lines for scripts, or a table with a header row on a terminal.
    static func listing(_ users: [UserOutput], on terminal: TerminalOutput) -> [String] {
        guard terminal.usesTables else { return HumanFormat.columns(users.map(\.row)) }
        return TextTable(columns: tableColumns, rows: users.map(\.row)).lines(style: terminal.style)
    }
}
