/// A concrete place a session can be kept, as named on the command line.
public enum VaultBackend: String, Sendable, CaseIterable {
    case secretService = "secret-service"
    case encryptedFile = "encrypted-file"
    case memory
}
