import Foundation

/// The device authorization grant (RFC 8628): a device asks for a code, a person approves or
/// denies it on the verification page, and the device polls the token endpoint meanwhile.
extension ReferenceStore {
    /// The most device authorizations kept at once; past it the oldest are dropped.
    static let maximumDeviceAuthorizations = 10_000

    /// What `POST /oauth2/device_authorization` hands out.
    struct DeviceCodeGrant: Sendable {
        let deviceCode: String
        /// Canonical form; ``UserCode/display(_:)`` for the wire.
        let userCode: String
        let expiresIn: Int
        let interval: Int
    }

    /// Starts a device authorization for `clientID` (`nil`: the public client), for `resource`
    /// (RFC 8707; `nil`: none).
    func startDeviceAuthorization(clientID: String?, scope: String?, resource: String? = nil) -> DeviceCodeGrant {
        makeRoomForDeviceAuthorization()
        var deviceCode = tokenGenerator.next()
        while deviceAuthorizations[deviceCode] != nil { deviceCode = tokenGenerator.next() }
        var userCode = UserCode.random()
        while deviceCodesByUserCode[userCode] != nil { userCode = UserCode.random() }
        let lifetime = Int(deviceCodeLifetime.components.seconds)
        let interval = Int(devicePollInterval.components.seconds)
        deviceAuthorizations[deviceCode] = DeviceAuthorization(
            userCode: userCode, clientID: clientID, scope: scope, resource: resource,
            expiresAt: now().addingTimeInterval(TimeInterval(lifetime)),
            interval: interval, sequence: deviceSequence)
        deviceSequence += 1
        deviceCodesByUserCode[userCode] = deviceCode
        issuedDeviceCodes.append(deviceCode)
        if issuedDeviceCodes.count > maximumStoredTokens { issuedDeviceCodes.removeFirst() }
        return DeviceCodeGrant(deviceCode: deviceCode, userCode: userCode, expiresIn: lifetime, interval: interval)
    }

    /// What a person's answer on the verification page came to.
    enum DeviceDecisionOutcome: Sendable, Equatable {
        case approved
        case denied
        /// No outstanding authorization has this user code (never issued, or long gone).
        case unknownCode
        case expired
        /// Approved or denied before; the first answer stands.
        case alreadyDecided
        /// Wrong email or password; the code stays pending.
        case refused
        case throttled(retryAfter: Int)
    }

    /// Approves (binding it to the person) or denies the authorization with `userCode`, once
    /// the person's email and password pass the same check, and throttle, as the password grant.
    ///
    /// A well-formed code that names no authorization counts as a failure in that throttle too
    /// (RFC 8628 §5.1), by email and by client: user codes carry about 35 bits, so a person
    /// signed in as themselves could otherwise guess codes and approve others' pending devices.
    /// - Parameters:
    ///   - userCode: As typed; compared without case and dashes.
    ///   - client: The address the request came from, for the login throttle.
    func decideDeviceAuthorization(userCode typed: String, email: String, password: String,
                                   approve: Bool, client: String) -> DeviceDecisionOutcome {
        // A malformed code could match nothing, so it is no guess worth counting.
        guard let userCode = UserCode.canonical(typed) else { return .unknownCode }
        if let wait = failedLogins.retryAfter(email: email, client: client, now: now()) {
            return .throttled(retryAfter: wait)
        }
        guard let deviceCode = deviceCodesByUserCode[userCode], let authorization = deviceAuthorizations[deviceCode] else {
            failedLogins.recordUnknownUserCode(email: email, client: client, now: now())
            return .unknownCode
        }
        guard authorization.expiresAt > now() else { return .expired }
        guard authorization.phase == .pending else { return .alreadyDecided }
        switch checkCredentials(email: email, password: password, client: client) {
        case .throttled(let wait):
            return .throttled(retryAfter: wait)
        case .refused:
            return .refused
        case .accepted(let index):
            deviceAuthorizations[deviceCode]?.phase = approve ? .approved(userIndex: index) : .denied
            return approve ? .approved : .denied
        }
    }

    /// What polling the token endpoint with a device code came to.
    enum DeviceGrantOutcome: Sendable {
        case granted(TokenPair)
        case pending
        case slowDown
        case denied
        case expired
        /// Unknown, already redeemed, or started by another client.
        case invalid
        /// `invalid_target` (RFC 8707 §2.2): a resource the device authorization did not ask for.
        case invalidTarget(String)
    }

    /// Answers one poll of the token endpoint (RFC 8628 §3.4, §3.5). Redeeming an approved
    /// code starts a token family like a password grant and spends the code.
    /// - Parameters:
    ///   - clientID: The client polling; must be the one that started the authorization.
    ///   - jkt: The DPoP key the poll proved, which the tokens are bound to.
    ///   - resource: The canonical resource the poll asked for: the device authorization's, if
    ///     it named one; the access token is for it.
    func deviceCodeGrant(deviceCode: String, clientID: String?, jkt: String?, resource: String? = nil) -> DeviceGrantOutcome {
        guard let authorization = deviceAuthorizations[deviceCode], authorization.clientID == clientID else {
            return .invalid
        }
        let now = now()
        guard authorization.expiresAt > now else { return .expired }
        switch authorization.phase {
        case .denied:
            return .denied
        case .approved(let index):
            if let resource, let granted = authorization.resource, resource != granted {
                return .invalidTarget("the device authorization was for the resource \(granted), not \(resource)")
            }
            forgetDeviceAuthorization(deviceCode)
            counters.deviceCodeGrants += 1
            return .granted(issueTokens(userIndex: index, scope: authorization.scope, jkt: jkt,
                                        resource: authorization.resource, audience: resource ?? authorization.resource))
        case .pending:
            deviceAuthorizations[deviceCode]?.lastPolledAt = now
            if let last = authorization.lastPolledAt,
               now.timeIntervalSince(last) < TimeInterval(authorization.interval) {
                deviceAuthorizations[deviceCode]?.interval += 5
                return .slowDown
            }
            return .pending
        }
    }

    func forgetDeviceAuthorization(_ deviceCode: String) {
        guard let authorization = deviceAuthorizations.removeValue(forKey: deviceCode) else { return }
        deviceCodesByUserCode.removeValue(forKey: authorization.userCode)
    }

    /// Drops authorizations expired for longer than a lifetime (until then a poll still learns
    /// `expired_token`), and the oldest ones while the table is full.
    private func makeRoomForDeviceAuthorization() {
        let cutoff = now().addingTimeInterval(-ReferenceStore.seconds(deviceCodeLifetime))
        for (deviceCode, authorization) in deviceAuthorizations where authorization.expiresAt <= cutoff {
            forgetDeviceAuthorization(deviceCode)
        }
        let excess = deviceAuthorizations.count + 1 - Self.maximumDeviceAuthorizations
        guard excess > 0 else { return }
        let oldest = deviceAuthorizations.sorted { $0.value.sequence < $1.value.sequence }.prefix(excess)
        for (deviceCode, _) in oldest { forgetDeviceAuthorization(deviceCode) }
    }
}
