import Foundation

/// Where the encrypted file's passphrase comes from. Asked for lazily, only when the file is
/// actually used, and at most once per vault — unless it is wrong: a passphrase that does not
/// open the file is never kept, and a source a person types into (``typed(attempts:_:)``) is
/// asked again, as passwd(1) and gpg do.
///
/// Never from a command-line argument: other users can read a process's argv.
public struct VaultPassphrase: Sendable {
    /// One passphrase from the source, and whether the source may be asked again if it is wrong.
    package struct Answer: Sendable {
        /// The passphrase.
        package let passphrase: String
        /// Whether a wrong ``passphrase`` may be followed by another ask: only a person typing
        /// has another one to give, and only up to the source's attempts.
        package let mayAskAgain: Bool
    }

    /// Asks the source; `attempt` counts from 1 and grows after each wrong answer.
    private let obtain: @Sendable (_ attempt: Int) async throws(VaultError) -> Answer
    /// Told that a passphrase did not open the file, so nothing goes on handing it out, and
    /// with the error the vault gave up with when no further attempt was allowed.
    private let rejected: @Sendable (_ passphrase: String, _ gaveUp: VaultError?) async -> Void

    /// A passphrase obtained by `obtain`, for example an interactive prompt. Asked once: a wrong
    /// passphrase fails with ``VaultError/wrongPassphrase(file:)``, and the next use asks again.
    public init(_ obtain: @escaping @Sendable () async throws(VaultError) -> String) {
        self.init(obtain: { _ async throws(VaultError) in Answer(passphrase: try await obtain(), mayAskAgain: false) },
                  rejected: { _, _ in })
    }

    private init(obtain: @escaping @Sendable (Int) async throws(VaultError) -> Answer,
                 rejected: @escaping @Sendable (String, VaultError?) async -> Void) {
        self.obtain = obtain
        self.rejected = rejected
    }

    /// A passphrase a person types: when it does not open the file, `ask` is called again with
    /// the next attempt (2, 3, …; say there why it asks again), up to `attempts` times in all.
    /// After the last, the person is not asked again in this process: later uses fail the same way.
    package static func typed(attempts: Int,
                              _ ask: @escaping @Sendable (_ attempt: Int) async throws(VaultError) -> String)
        -> VaultPassphrase
    {
        let outcome = GaveUp()
        return VaultPassphrase(obtain: { attempt async throws(VaultError) in
            if let error = await outcome.error { throw error }
            return Answer(passphrase: try await ask(attempt), mayAskAgain: attempt < attempts)
        }, rejected: { _, gaveUp in
            if let gaveUp { await outcome.record(gaveUp) }
        })
    }

    /// How a typed passphrase ended, once the person has had all their attempts.
    private actor GaveUp {
        private(set) var error: VaultError?
        func record(_ error: VaultError) { self.error = error }
    }

    /// The passphrase itself (tests, programs that hold it already).
    public static func fixed(_ passphrase: String) -> VaultPassphrase {
        VaultPassphrase { passphrase }
    }

    /// No passphrase available: using the encrypted file fails with ``VaultError/passphraseRequired``.
    public static let unavailable = VaultPassphrase { () throws(VaultError) in throw .passphraseRequired }

    /// `RIDER_VAULT_PASSPHRASE`, else the first line of the 0600 file named by
    /// `RIDER_VAULT_PASSPHRASE_FILE`; `nil` when neither is set.
    package static func environment(_ environment: [String: String]) -> VaultPassphrase? {
        if let value = environment["RIDER_VAULT_PASSPHRASE"], !value.isEmpty { return .fixed(value) }
        guard let path = environment["RIDER_VAULT_PASSPHRASE_FILE"], !path.isEmpty else { return nil }
        return VaultPassphrase { () throws(VaultError) in try readFile(URL(fileURLWithPath: path)) }
    }

    /// Tries `self`, and `fallback` when `self` has no passphrase.
    public func orElse(_ fallback: VaultPassphrase) -> VaultPassphrase {
        VaultPassphrase(obtain: { attempt async throws(VaultError) in
            do throws(VaultError) {
                return try await self.answer(attempt: attempt)
            } catch {
                guard case .passphraseRequired = error else { throw error }
                return try await fallback.answer(attempt: attempt)
            }
        }, rejected: { passphrase, gaveUp in
            await self.rejected(passphrase, gaveUp)
            await fallback.rejected(passphrase, gaveUp)
        })
    }

    /// The same source, asked once: every vault given the result shares the first passphrase it
    /// obtained (a person with several accounts types it once per process, not once per file).
    /// A passphrase that does not open a file is forgotten, never shared: the next vault asks again.
    package func remembered() -> VaultPassphrase {
        let memory = Remembered(self)
        return VaultPassphrase(obtain: { attempt async throws(VaultError) in try await memory.answer(attempt: attempt) },
                               rejected: { passphrase, gaveUp in await memory.forget(passphrase, gaveUp: gaveUp) })
    }

    private actor Remembered {
        let source: VaultPassphrase
        var obtained: Answer?
        init(_ source: VaultPassphrase) { self.source = source }
        func answer(attempt: Int) async throws(VaultError) -> Answer {
            if let obtained { return obtained }
            let answer = try await source.answer(attempt: attempt)
            obtained = answer
            return answer
        }
        func forget(_ passphrase: String, gaveUp: VaultError?) async {
            if obtained?.passphrase == passphrase { obtained = nil }
            await source.rejected(passphrase, gaveUp)
        }
    }

    /// The passphrase, for the first time of asking.
    /// - Throws: ``VaultError/passphraseRequired`` when there is none.
    package func get() async throws(VaultError) -> String {
        try await answer(attempt: 1).passphrase
    }

    /// The passphrase for `attempt` (1 the first time, then one more after each wrong one), and
    /// whether a wrong one may be followed by another attempt.
    /// - Throws: ``VaultError/passphraseRequired`` when there is none.
    package func answer(attempt: Int) async throws(VaultError) -> Answer {
        let answer = try await obtain(attempt)
        guard !answer.passphrase.isEmpty else { throw .passphraseRequired }
        return answer
    }

    /// Tells the source that `passphrase` does not open the file, so it is not handed out again.
    /// - Parameter gaveUp: the error the vault ends with, when the source allowed no further attempt.
    package func reject(_ passphrase: String, gaveUp: VaultError? = nil) async {
        await rejected(passphrase, gaveUp)
    }

    private static func readFile(_ file: URL) throws(VaultError) -> String {
        // Only the file itself must be private: it may sit in any folder the user chooses.
        guard let data = try PrivateFile.read(file, checkingFolder: false) else {
            throw .io(file: file.path, reason: "the passphrase file named by RIDER_VAULT_PASSPHRASE_FILE does not exist")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
