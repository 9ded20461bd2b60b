/// One finding of `rider doctor`: what was checked, how it stands, and what to do about it.
struct DoctorCheck: Encodable, Sendable, Equatable {
    /// How a check stands. A note is something to know (a fallback is serving, a setting is
    /// unusual) with its fix; only a failure makes `rider doctor` exit 1.
    enum Status: String, Encodable, Sendable {
        case ok, note, fail
    }

    /// A short, stable name scripts can select on (`dbus`, `vault-folder`, `clock`, …).
    let name: String
    let status: Status
    /// What was found, in a sentence; text from the server or the files is quoted as it came.
    let detail: String
    /// What to run or change, for a note or a failure; `null` when there is nothing to do.
    @Nullable var fix: String?

    static func ok(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, status: .ok, detail: detail, fix: nil)
    }

    static func note(_ name: String, _ detail: String, fix: String? = nil) -> DoctorCheck {
        DoctorCheck(name: name, status: .note, detail: detail, fix: fix)
    }

    static func fail(_ name: String, _ detail: String, fix: String?) -> DoctorCheck {
        DoctorCheck(name: name, status: .fail, detail: detail, fix: fix)
    }

    static func == (lhs: DoctorCheck, rhs: DoctorCheck) -> Bool {
        (lhs.name, lhs.status, lhs.detail, lhs.fix) == (rhs.name, rhs.status, rhs.detail, rhs.fix)
    }
}
