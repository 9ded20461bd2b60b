/// A concrete place a session can be kept, as named on the command line.
public enum VaultBackend: String, Sendable, CaseIterable {
    /// The desktop keyring, through the freedesktop Secret Service.
    case secretService = "secret-service"
    /// The passphrase-encrypted file under `$XDG_STATE_HOME/rider/`.
    case encryptedFile = "encrypted-file"
    /// This process only.
    case memory
}
