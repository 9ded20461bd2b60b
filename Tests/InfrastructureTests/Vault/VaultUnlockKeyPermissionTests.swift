import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RiderDomain
import RiderInfrastructure
import Testing
import TestSupport

/// The key an unlock leaves in the kernel keyring is the user's alone. Possessing it is not
/// enough to read it: another user whose process shares the session keyring (after `sudo -u`,
/// or `su` without pam_keyinit) possesses every key in `@u` linked there. The real kernel
/// keyring; the key's permissions are read back from `/proc/keys` as the kernel reports them.
@Suite("Encrypted file unlock: the kept key's permissions")
struct VaultUnlockKeyPermissionTests {
    /// Keys of this suite alone, so a `rider vault lock` running meanwhile does not reach them.
    let prefix = "rider-vault-perm-test-\(UUID().uuidString):"
    static let keyringAnswers = VaultUnlockRetention.availability == .available
    static let python = "/usr/bin/python3"
    static let canSwitchUser = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: python)

    /// One `/proc/keys` line's fields: id, flags, usage, timeout, permissions, uid, gid, type, description.
    struct KernelKey {
        let id: String
        let timeout: String
        let permissions: String
        let description: String
    }

    /// Saves a session through a vault that keeps its unlock for a minute, and returns the key
    /// the kernel then holds under this suite's prefix.
    private func keptKey(in directory: TemporaryDirectory) async throws -> KernelKey {
        let vault = EncryptedFileTokenVault(
            file: directory.url.appendingPathComponent("session.vault"), passphrase: .fixed("pw"),
            binding: SessionBinding(apiOrigin: "http://127.0.0.1:8080"),
            unlockRetention: VaultUnlockRetention.kernelKeyring(timeout: .seconds(60)).keyed(under: prefix))
        try await vault.save(VaultFixtures.session)
        let lines = try String(contentsOfFile: "/proc/keys", encoding: .utf8).split(separator: "\n")
        let keys = lines.compactMap { line -> KernelKey? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 9, fields[7] == "user", fields[8].hasPrefix(prefix) else { return nil }
            // "<description>: <payload length>"
            let description = fields[8].hasSuffix(":") ? String(fields[8].dropLast()) : String(fields[8])
            return KernelKey(id: String(fields[0]), timeout: String(fields[3]), permissions: String(fields[4]),
                             description: description)
        }
        #expect(keys.count == 1, "\(keys)")
        return try #require(keys.first, "no key kept under \(prefix)")
    }

    private func forget() {
        _ = try? VaultUnlockRetention.kernelKeyring(timeout: .seconds(60)).keyed(under: prefix).forgetAll()
    }

    @Test("the possessor may only view it; the owner may view, read, search and link it; nobody else anything; it expires",
          .enabled(if: keyringAnswers, "keyctl is refused here"))
    func permissionMask() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove(); forget() }
        let key = try await keptKey(in: directory)
        // 0x01 possessor view; 0x1b owner view | read | search | link; group and others 0.
        #expect(key.permissions == "011b0000")
        #expect(key.timeout != "perm", "the timeout was not set")
    }

    @Test("another user sharing the session keyring can neither find nor read it",
          .enabled(if: keyringAnswers, "keyctl is refused here"),
          .enabled(if: canSwitchUser, "needs root (to become another user) and \(python)"))
    func secondUserCannotRead() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove(); forget() }
        let key = try await keptKey(in: directory)
        let answer = try Self.tryAsAnotherUser(keyID: key.id, description: key.description)
        // Before: "search <id> read 32", the whole key.
        #expect(answer.hasPrefix("search -") && answer.contains(" read -13"), "\(answer)")
    }

    /// In a child that starts a session keyring of its own, links this user's `@u` into it as
    /// `pam_keyinit` does, and then becomes `nobody`: what searching for the key and reading it
    /// by id answered (a result, or minus errno).
    static func tryAsAnotherUser(keyID: String, description: String) throws -> String {
        let script = #"""
            import ctypes, os, platform, sys
            numbers = {"x86_64": 250, "aarch64": 219}
            libc = ctypes.CDLL(None, use_errno=True)
            def keyctl(*arguments):
                result = libc.syscall(numbers[platform.machine()], *[ctypes.c_long(a) if isinstance(a, int) else a for a in arguments])
                return result if result >= 0 else -ctypes.get_errno()
            KEYCTL_JOIN_SESSION_KEYRING, KEYCTL_LINK, KEYCTL_SEARCH, KEYCTL_READ = 1, 8, 10, 11
            SESSION, USER = -3, -4
            assert keyctl(KEYCTL_JOIN_SESSION_KEYRING, None) > 0
            assert keyctl(KEYCTL_LINK, USER, SESSION) == 0
            os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, 65534)
            found = keyctl(KEYCTL_SEARCH, SESSION, b"user", sys.argv[2].encode(), 0)
            buffer = ctypes.create_string_buffer(64)
            print("search", found, "read", keyctl(KEYCTL_READ, int(sys.argv[1], 16), buffer, 64))
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, keyID, description]
        let output = UninheritedFiles.pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
