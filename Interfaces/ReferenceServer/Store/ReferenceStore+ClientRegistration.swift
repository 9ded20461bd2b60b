import Foundation

/// Dynamic client registration (RFC 7591): the clients registered at `/oauth2/register`, kept in
/// memory beside the tokens, up to ``ReferenceServerConfiguration/registrationLimit``.
extension ReferenceStore {
    /// Registers a public client with checked metadata; `nil` when the limit is reached.
    func registerClient(name: String?, redirectURIs: [String], grantTypes: [String],
                        scope: String?) -> RegisteredClient? {
        guard registeredClients.count < registrationLimit else { return nil }
        var id = Self.clientID()
        while registeredClients[id] != nil { id = Self.clientID() }
        let client = RegisteredClient(id: id, issuedAt: Self.wholeSeconds(now()), name: name,
                                      redirectURIs: redirectURIs, grantTypes: grantTypes, scope: scope)
        registeredClients[id] = client
        return client
    }

    /// The registered client with `id`, if any.
    func registeredClient(id: String) -> RegisteredClient? {
        registeredClients[id]
    }

    /// How many clients are registered.
    package var registeredClientCount: Int { registeredClients.count }

    /// `dyn-` and 128 random bits in hex: unguessable, and safe in any URL or form unencoded.
    private static func clientID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "dyn-" + (0..<16).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}

extension ReferenceStore {
    /// How many accounts exist now, deleted ones left out.
    var liveUserCount: Int { users.count - deletedUsers.count }
}
