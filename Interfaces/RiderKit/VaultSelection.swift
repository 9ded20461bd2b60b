import RiderDomain

/// Which backend a ``VaultChoice`` led to, and why.
package struct VaultSelection: Sendable {
    /// The backend in use: never ``VaultChoice/automatic``, which is the choice between the others.
    package let backend: VaultChoice
    /// Why it was chosen, e.g. "the keyring did not answer within 2 seconds".
    package let reason: String
    /// The vault itself.
    package let vault: any TokenVault
}
