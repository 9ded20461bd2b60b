import Foundation

/// Keeps the client RiderKit registered at each authorization server (RFC 7591), by issuer, so the
/// next process signs in as the same client instead of registering another.
///
/// Unlike provider metadata, a registration is not derived data: losing it leaves a client the
/// server still knows and makes RiderKit register a new one. So an adapter refuses what it
/// cannot keep safely (a folder others may change) rather than dropping it silently.
///
/// A client secret is a credential: an adapter that writes to disk must not write it to a plain
/// file. One that cannot keep it safely keeps it only for the process and loads the registration
/// without it (a client that needs its secret is then registered again).
package protocol ClientRegistrationStore: Sendable {
    /// - Parameter issuer: the issuer identifier, exactly as its metadata spells it.
    /// - Returns: the kept registration of that issuer, or `nil` when there is none, or what is
    ///   there cannot be used (damaged, another layout).
    /// - Throws: ``RiderError/storage(_:underlying:)`` when the registration exists but may not
    ///   be trusted or read (others may read or change it).
    func load(issuer: String) async throws -> RegisteredClient?

    /// Replaces the kept registration of `client.issuer`.
    /// - Parameter client: the registration.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func save(_ client: RegisteredClient) async throws

    /// Forgets the registration of `issuer`, as when the server says the client is unknown
    /// (`invalid_client`).
    /// - Parameter issuer: the issuer identifier.
    /// - Throws: ``RiderError/storage(_:underlying:)``.
    func remove(issuer: String) async throws
}
