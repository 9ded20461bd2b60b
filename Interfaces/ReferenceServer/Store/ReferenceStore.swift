import Foundation

/// The reference server's data: users with their rider profiles, issued tokens and counters.
///
/// Everything lives in memory and starts from the same seed on every run. Besides serving the
/// HTTP routes, the store offers hooks for client-side tests: ``stats()`` to count grants,
/// ``expireAccessTokens()`` to force a refresh.
public actor ReferenceStore {
    /// Every user; a user's index is the number in its id.
    var users: [ReferenceUser]
    /// Lowercased email → index; emails are unique regardless of case.
    var indexByEmail: [String: Int]
    /// Live access tokens (expired ones stay until the next prune, to answer "expired").
    var accessTokens: [String: IssuedToken] = [:]
    /// Refresh tokens that may be exchanged once.
    var refreshTokens: [String: IssuedToken] = [:]
    /// Refresh tokens already exchanged, kept until they would have expired: presenting one
    /// again revokes its family. A revoked family's tokens are removed from all three tables.
    var retiredRefreshTokens: [String: IssuedToken] = [:]
    var nextGrantID: UInt64 = 1
    /// Issue order of tokens, for dropping the oldest past ``maximumStoredTokens``.
    var tokenSequence: UInt64 = 0
    var issuesSincePrune = 0
    let maximumStoredTokens: Int
    /// Failed password grants, for the login throttle.
    var failedLogins: FailedLogins
    /// The newest tokens handed out (at most ``maximumStoredTokens``), oldest first, for leak checks.
    var issued: [String] = []
    /// The newest device codes handed out (at most ``maximumStoredTokens``), for the same leak checks:
    /// a device code is a credential too, until it is spent.
    var issuedDeviceCodes: [String] = []
    var counters = Stats()
    /// How clients introduced themselves (test hook, ``clientIdentities()``).
    var identities: Set<ClientIdentity> = []
    /// Each rider's sports (by user index), in the order they were added.
    var riderSports: [Int: [RiderSportEntry]] = [:]
    var baseLocations: [Int: StoredBaseLocation] = [:]
    var storedPreferences: [Int: StoredPreferences] = [:]
    /// Riders whose `visibility.profile` is `nobody`: left out of what others list, search and look up.
    var hiddenUsers: Set<Int> = []
    /// Uploaded avatars by user index (`POST /riders/me/avatar`).
    var avatars: [Int: StoredAvatar] = [:]
    /// Scheme, host and port of this server, for the `avatar_url` of uploaded avatars.
    var origin: String
    /// Indexes of deleted accounts. Their records stay so that indexes (and ids) are never reused.
    var deletedUsers: Set<Int> = []
    var accessTokenTTL: Duration
    var refreshTokenTTL: Duration
    let tokenGenerator: OpaqueTokenGenerator
    /// Access tokens are JWTs with `exp`, and token responses carry no `expires_in`.
    let jwtAccessTokens: Bool
    /// Outstanding device authorizations (RFC 8628) by device code, expired ones kept for a
    /// while to answer `expired_token`.
    var deviceAuthorizations: [String: DeviceAuthorization] = [:]
    /// Canonical user code → device code, for the verification page.
    var deviceCodesByUserCode: [String: String] = [:]
    var deviceSequence: UInt64 = 0
    let deviceCodeLifetime: Duration
    /// Browser sign-ins shown on the authorization page and not yet answered, by request id.
    var authorizationRequests: [String: AuthorizationRequest] = [:]
    /// Authorization codes issued and not yet redeemed (RFC 6749 §4.1.2), by code.
    var authorizationCodes: [String: AuthorizationCode] = [:]
    /// Pushed authorization requests (RFC 9126) not yet used, by `request_uri`.
    var pushedRequests: [String: PushedRequest] = [:]
    /// Client assertions' `jti`s (RFC 7523) seen, with their expiry.
    var spentClientAssertions: [String: Date] = [:]
    /// Clients registered at `/oauth2/register` (RFC 7591), by client id.
    var registeredClients: [String: RegisteredClient] = [:]
    /// The most clients that may register (``ReferenceServerConfiguration/registrationLimit``).
    let registrationLimit: Int
    let devicePollInterval: Duration
    let now: @Sendable () -> Date

    /// Seeds the store from `configuration`.
    /// - Parameters:
    ///   - configuration: Seed, user count, demo account and token lifetimes.
    ///   - now: The wall clock; tests of the store may pass a fixed one.
    init(configuration: ReferenceServerConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        let seeded = UserSeeder(configuration: configuration).users()
        self.users = seeded
        self.indexByEmail = Dictionary(
            seeded.map { ($0.email.lowercased(), $0.index) },
            uniquingKeysWith: { first, _ in first }
        )
        self.accessTokenTTL = configuration.accessTokenTTL
        self.refreshTokenTTL = configuration.refreshTokenTTL
        self.tokenGenerator = OpaqueTokenGenerator(alphabet: configuration.tokenAlphabet)
        self.jwtAccessTokens = configuration.jwtAccessTokens
        self.maximumStoredTokens = configuration.maximumStoredTokens
        self.failedLogins = FailedLogins(settings: configuration.loginThrottle)
        self.deviceCodeLifetime = configuration.deviceCodeLifetime
        self.devicePollInterval = configuration.devicePollInterval
        self.registrationLimit = configuration.registrationLimit
        // The real port replaces this once it is bound (`setOrigin`), before anyone can connect.
        let host = configuration.host
        self.origin = "http://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(configuration.port)"
        self.now = now
    }

    /// The user with `id`, if any.
    func user(id: String) -> ReferenceUser? {
        guard let index = ReferenceUser.index(forID: id), users.indices.contains(index),
              !deletedUsers.contains(index) else { return nil }
        // `u_0000001` parses to the same index but is not the same id.
        return users[index].id == id ? users[index] : nil
    }

    /// The user at `index`.
    func user(index: Int) -> ReferenceUser? {
        users.indices.contains(index) && !deletedUsers.contains(index) ? users[index] : nil
    }

    /// The user with `id`, if any and if `viewer` may see them (``isVisible(_:to:)``).
    func user(id: String, visibleTo viewer: Int) -> ReferenceUser? {
        user(id: id).flatMap { isVisible($0.index, to: viewer) ? $0 : nil }
    }

    /// Whether the user at `index` shows to the signed-in user at `viewer`: everyone but riders
    /// whose `visibility.profile` is `nobody`, who show only to themselves. `members` and
    /// `everyone` are the same here, since every user route needs a signed-in member.
    func isVisible(_ index: Int, to viewer: Int) -> Bool {
        index == viewer || !hiddenUsers.contains(index)
    }

    /// One page of the users `viewer` may see, ordered by id.
    func page(_ paging: Pagination, visibleTo viewer: Int) -> (users: [ReferenceUser], total: Int) {
        let live = snapshot(visibleTo: viewer)
        return (Array(live[paging.bounds(in: live.count)]), live.count)
    }

    /// The users `viewer` may see as they are now (deleted accounts and hidden riders left
    /// out), for searching outside the actor so searches do not queue.
    func snapshot(visibleTo viewer: Int) -> [ReferenceUser] {
        let hidesNoOne = hiddenUsers.isEmpty || (hiddenUsers.count == 1 && hiddenUsers.contains(viewer))
        if deletedUsers.isEmpty && hidesNoOne { return users }
        return users.filter { !deletedUsers.contains($0.index) && isVisible($0.index, to: viewer) }
    }

    /// Adds an account with an empty rider profile.
    /// - Returns: The new user, or `nil` when the email is taken (compared without case).
    func register(_ registration: ValidRegistration) -> ReferenceUser? {
        let key = registration.email.lowercased()
        guard indexByEmail[key] == nil else { return nil }
        let user = ReferenceUser(
            index: users.count,
            email: registration.email,
            password: registration.password,
            displayName: registration.displayName,
            role: .user,
            riderType: registration.riderType,
            createdAt: Self.wholeSeconds(now())
        )
        users.append(user)
        indexByEmail[key] = user.index
        return user
    }

    /// Applies a validated merge patch if `precondition` holds.
    /// - Returns: The updated user, or the current one when `If-Match` did not match.
    func patchRider(
        userIndex: Int,
        precondition: EntityTagCondition?,
        changes: RiderChanges
    ) -> Result<ReferenceUser, PreconditionFailure> {
        var user = users[userIndex]
        if let precondition, !precondition.matches(user.entityTag) {
            return .failure(PreconditionFailure(currentEntityTag: user.entityTag))
        }
        changes.apply(to: &user)
        // A new avatar_url, or none, replaces an uploaded picture.
        if changes.avatarURL != nil { avatars.removeValue(forKey: userIndex) }
        user.version += 1
        user.updatedAt = max(Self.wholeSeconds(now()), user.updatedAt)
        users[userIndex] = user
        return .success(user)
    }

    /// Timestamps go out with whole seconds; keeping them that way makes what a client reads
    /// back equal to what the store holds.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
