import RiderDomain

/// Which backend a ``VaultChoice`` led to, and why.
public struct VaultSelection: Sendable {
    /// The backend in use: never ``VaultChoice/automatic``, which is the choice between the others.
    public let backend: VaultChoice
    /// Why it was chosen, e.g. "the keyring did not answer within 2 seconds".
    public let reason: String
    /// The vault itself.
    public let vault: any TokenVault
}
