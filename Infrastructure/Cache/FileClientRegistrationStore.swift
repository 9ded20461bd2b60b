import Foundation
import RiderDomain

/// Keeps the client registered at each authorization server in a small JSON file in the state
/// folder (`$XDG_STATE_HOME/rider/<issuer>/client-registration.json`, the issuer's folder named as
/// the provider metadata's is), written atomically with mode 0600 in folders only the user may
/// change (``PrivateFile``).
///
/// - A file or folder others may read or change is refused with `RiderError.storage`, never
///   repaired: the error says what to run (``PathSafety``). Unlike the provider metadata cache,
///   which reads such a file as none, a registration is not public data to fetch again, and a
///   file someone else could write could name a client of theirs.
/// - A damaged file, one of another layout version or one holding another issuer's registration
///   reads as none, as the provider metadata cache's does, so RiderKit registers again; but the
///   save that follows first moves it aside to `client-registration.json.damaged` rather than
///   overwriting it unseen.
/// - A client secret, which a public client should not be issued but a server may issue anyway,
///   never goes into the file (the ``TokenVault`` port keeps a session, not a client's
///   credentials): it is kept in this instance's memory only. The file records that one was
///   issued; a later process loads the registration without it, and a client that needs its
///   secret is registered again.
package actor FileClientRegistrationStore: ClientRegistrationStore {
    /// The folder holding one folder per issuer.
    package nonisolated let root: URL
    /// Secrets issued to clients saved by this instance, by issuer, with the client id they belong to.
    private var secrets: [String: (clientID: String, secret: String)] = [:]

    /// - Parameter root: the folder holding one folder per issuer (``defaultRoot(in:)`` unless told).
    package init(root: URL) { self.root = root }

    /// `$XDG_STATE_HOME/rider`, where the sessions' per-server folders are.
    /// - Parameter directories: the XDG folders.
    /// - Returns: the root folder.
    package static func defaultRoot(in directories: XDGDirectories) -> URL {
        directories.stateHome.appendingPathComponent("rider", isDirectory: true)
    }

    /// The file that keeps `issuer`'s registration.
    /// - Parameter issuer: the issuer identifier.
    /// - Returns: `<root>/<issuer folder>/client-registration.json`.
    package nonisolated func file(forIssuer issuer: String) -> URL {
        root.appendingPathComponent(XDGDirectories.folderName(forOrigin: issuer), isDirectory: true)
            .appendingPathComponent("client-registration.json")
    }

    /// - Throws: `RiderError.storage(_:underlying:)` naming the file when it, or a folder holding
    ///   it, may be read or changed by others, or cannot be read.
    package func load(issuer: String) async throws -> RegisteredClient? {
        let file = file(forIssuer: issuer)
        guard let data = try read(file) else { return nil }
        guard var client = Self.decode(data, issuer: issuer) else { return nil }
        if let kept = secrets[issuer], kept.clientID == client.clientID { client.clientSecret = kept.secret }
        return client
    }

    /// - Throws: `RiderError.storage(_:underlying:)` naming the file.
    package func save(_ client: RegisteredClient) async throws {
        let file = file(forIssuer: client.issuer)
        // A file this version cannot read is kept aside, not overwritten unseen.
        if let existing = try read(file), Self.decode(existing, issuer: client.issuer) == nil {
            let aside = file.appendingPathExtension("damaged")
            do {
                try PrivateFile.write(existing, to: aside)
            } catch {
                throw RiderError.storage("the client registration \(file.path) cannot be read and could not be "
                    + "kept aside at \(aside.path); move it away to register again", underlying: error)
            }
        }
        do {
            try PrivateFile.write(try JSONEncoder.registrationRecords.encode(Record(client)), to: file)
        } catch {
            throw Self.storageError(error, file: file, doing: "written")
        }
        if let secret = client.clientSecret {
            secrets[client.issuer] = (client.clientID, secret)
        } else {
            secrets[client.issuer] = nil
        }
    }

    /// - Throws: `RiderError.storage(_:underlying:)` naming the file.
    package func remove(issuer: String) async throws {
        let file = file(forIssuer: issuer)
        secrets[issuer] = nil
        do {
            try PrivateFile.remove(file)
        } catch {
            throw Self.storageError(error, file: file, doing: "removed")
        }
    }

    private func read(_ file: URL) throws -> Data? {
        do {
            return try PrivateFile.read(file)
        } catch {
            throw Self.storageError(error, file: file, doing: "read")
        }
    }

    private static func decode(_ data: Data, issuer: String) -> RegisteredClient? {
        guard let record = try? JSONDecoder.registrationRecords.decode(Record.self, from: data),
              record.version == Record.currentVersion, record.issuer == issuer, !record.clientID.isEmpty
        else { return nil }
        return record.client
    }

    private static func storageError(_ error: any Error, file: URL, doing: String) -> RiderError {
        switch error {
        case VaultError.io(_, let reason):
            return RiderError.storage("the client registration \(file.path) cannot be \(doing): \(reason)", underlying: error)
        case let error as VaultError:
            // A file or folder others could change is refused, not repaired: the message says what to run.
            return RiderError.storage("the client registration \(file.path) cannot be \(doing): \(error.message)",
                                      underlying: error)
        default:
            return RiderError.storage("the client registration \(file.path) cannot be \(doing)", underlying: error)
        }
    }

    /// The file's layout: a version, then the registration without its secret.
    struct Record: Codable {
        /// Bumped when the layout changes; another version reads as none (and is kept aside).
        static let currentVersion = 1
        var version = Self.currentVersion
        var issuer: String
        var clientID: String
        /// Whether the server issued a secret, which is not in the file.
        var clientSecretIssued: Bool
        var clientSecretExpiresAt: Date?
        var issuedAt: Date?
        var grantTypes: [String]
        var redirectURIs: [String]
        var responseTypes: [String]
        var tokenEndpointAuthMethod: String
        var scope: String?
        var mayReceiveIDTokens: Bool
        var origin: RegisteredClient.Origin

        enum CodingKeys: String, CodingKey {
            case version, issuer, scope, origin
            case clientID = "client_id"
            case clientSecretIssued = "client_secret_issued"
            case clientSecretExpiresAt = "client_secret_expires_at"
            case issuedAt = "issued_at"
            case grantTypes = "grant_types"
            case redirectURIs = "redirect_uris"
            case responseTypes = "response_types"
            case tokenEndpointAuthMethod = "token_endpoint_auth_method"
            case mayReceiveIDTokens = "may_receive_id_tokens"
        }

        init(_ client: RegisteredClient) {
            issuer = client.issuer
            clientID = client.clientID
            clientSecretIssued = client.clientSecret != nil
            clientSecretExpiresAt = client.clientSecretExpiresAt
            issuedAt = client.issuedAt
            grantTypes = client.grantTypes
            redirectURIs = client.redirectURIs
            responseTypes = client.responseTypes
            tokenEndpointAuthMethod = client.tokenEndpointAuthMethod
            scope = client.scope
            mayReceiveIDTokens = client.mayReceiveIDTokens
            origin = client.origin
        }

        var client: RegisteredClient {
            RegisteredClient(issuer: issuer, clientID: clientID, clientSecretExpiresAt: clientSecretExpiresAt,
                             issuedAt: issuedAt, grantTypes: grantTypes, redirectURIs: redirectURIs,
                             responseTypes: responseTypes, tokenEndpointAuthMethod: tokenEndpointAuthMethod,
                             scope: scope, mayReceiveIDTokens: mayReceiveIDTokens, origin: origin)
        }
    }
}

extension JSONEncoder {
    fileprivate static var registrationRecords: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var registrationRecords: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
