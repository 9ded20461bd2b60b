import Foundation
import RiderApplication
import RiderDomain
import Testing
import TestSupport

/// The session's state machine on its own: every interleaving docs/session.md describes, as
/// events in and actions out, with no actor, no vault and no clock.
@Suite("Session machine")
struct SessionMachineTests {
    static let first = Fixtures.session(accessToken: "access-1", refreshToken: "refresh-1")
    static let renewed = Fixtures.session(accessToken: "access-2", refreshToken: "refresh-2")
    static let now = Fixtures.epoch

    /// A machine with `session` loaded from the vault.
    static func signedIn(_ session: Session = first) -> SessionMachine {
        var machine = SessionMachine()
        machine.loaded(session)
        return machine
    }

    @Test("the vault's answer is taken only while nothing else happened: a sign-in during the read stands")
    func loading() {
        var machine = SessionMachine()
        #expect(machine.state.published == nil)
        machine.signedIn(Self.renewed)
        machine.loaded(Self.first)
        #expect(machine.state.usable == Self.renewed)

        var empty = SessionMachine()
        empty.loaded(nil)
        #expect(empty.state.published == .signedOut(reason: .noSession))
        #expect(empty.noSessionError.code == .notSignedIn)
    }

    @Test("a client's own session has no refresh token and is renewed by asking again as the client; a person's without one is not renewed")
    func clientSessionReissued() {
        var client = Fixtures.session(accessToken: "client-1", refreshToken: nil)
        client.isClientSession = true
        var machine = Self.signedIn(client)
        #expect(machine.refreshWanted(rejecting: nil, at: Self.now) == .start(client, generation: 0))
        #expect(machine.refresh(of: 0, .stored(client)) == .reissue)
        var reissued = Fixtures.session(accessToken: "client-2", refreshToken: nil)
        reissued.isClientSession = true
        #expect(machine.refresh(of: 0, .renewed(reissued)) == .save(reissued))

        var person = Self.signedIn(Fixtures.session(accessToken: "given", refreshToken: nil))
        #expect(person.refreshWanted(rejecting: nil, at: Self.now) == .fail(.cannotRenew))
    }

    @Test("one refresh at a time: the first caller starts it, the others join and are counted")
    func singleFlight() {
        var machine = Self.signedIn()
        #expect(machine.refreshWanted(rejecting: nil, at: Self.now) == .start(Self.first, generation: 0))
        #expect(machine.state.published == .refreshing(userID: Self.first.userID))
        #expect(machine.state.usable == Self.first, "the old token is still sent while it has not expired")
        #expect(machine.refreshWanted(rejecting: "access-1", at: Self.now) == .join)
        #expect(machine.refreshWanted(rejecting: nil, at: Self.now) == .join)
        #expect(machine.refreshWaiters == 2)
    }

    @Test("the refresh's path: the vault first, then the token endpoint, then the vault again")
    func renewal() {
        var machine = Self.signedIn()
        guard case .start(_, let generation) = machine.refreshWanted(rejecting: nil, at: Self.now) else {
            Issue.record("no refresh started")
            return
        }
        #expect(machine.refresh(of: generation, .stored(Self.first)) == .send(refreshToken: "refresh-1"))
        #expect(machine.refreshesSent == 1)
        #expect(machine.refresh(of: generation, .renewed(Self.renewed)) == .save(Self.renewed))
        #expect(machine.state.usable == Self.renewed, "kept in memory before the vault write")
        machine.refreshEnded(generation)
        #expect(machine.state.published == .signedIn(userID: Self.renewed.userID, expiresAt: Self.renewed.expiresAt))
    }

    @Test("a newer session another process stored is adopted without sending the refresh token")
    func adoption() {
        var machine = Self.signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: Self.now)
        var newer = Self.renewed
        newer.issuedAt = Self.first.issuedAt.addingTimeInterval(1)
        #expect(machine.refresh(of: 0, .stored(newer)) == .adopt(newer))
        #expect(machine.refreshesSent == 0)
    }

    @Test("a rejected refresh removes the vault entry first, then expires: requests meanwhile join the refresh")
    func rejection() {
        var machine = Self.signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: Self.now)
        _ = machine.refresh(of: 0, .stored(Self.first))
        #expect(machine.refresh(of: 0, .rejected) == .remove)
        #expect(machine.refreshWanted(rejecting: "access-1", at: Self.now) == .join, "still under way")
        #expect(machine.refresh(of: 0, .removed) == .expire)
        #expect(machine.state.published == .signedOut(reason: .sessionExpired))
        #expect(machine.noSessionError.code == .sessionExpired)
        #expect(machine.refreshWanted(rejecting: nil, at: Self.now) == .fail(.sessionExpired))
    }

    @Test("a vault that no longer holds the user's session (signed out elsewhere) expires it; nothing is sent")
    func goneElsewhere() {
        var machine = Self.signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: Self.now)
        #expect(machine.refresh(of: 0, .stored(nil)) == .expire)
        #expect(machine.refreshesSent == 0)
        #expect(machine.state.published == .signedOut(reason: .sessionExpired))
    }

    @Test("a session without a refresh token is removed and expires when the server refuses its access token")
    func noRefreshToken() {
        var machine = Self.signedIn(Fixtures.session(accessToken: "access-1", refreshToken: nil))
        _ = machine.refreshWanted(rejecting: "access-1", at: Self.now)
        #expect(machine.refresh(of: 0, .stored(machine.state.usable)) == .remove)
        #expect(machine.refreshesSent == 0)
    }

    @Test("a renewal asked for a session without a refresh token fails and keeps the session: nothing to renew it with")
    func noRefreshTokenToRenewWith() {
        let given = Fixtures.session(accessToken: "access-1", refreshToken: nil)
        var machine = Self.signedIn(given)
        #expect(machine.refreshWanted(rejecting: nil, at: Self.now) == .fail(.cannotRenew))
        #expect(machine.state.usable == given)
        #expect(machine.refreshesSent == 0)
    }

    @Test("signing out while a refresh is under way: the refresh's answer is dropped, the sign-out stands")
    func signOutDuringRefresh() {
        var machine = Self.signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: Self.now)
        _ = machine.refresh(of: 0, .stored(Self.first))
        machine.signedOut()
        #expect(machine.refresh(of: 0, .renewed(Self.renewed)) == .expire)
        machine.refreshEnded(0)
        #expect(machine.state.usable == nil)
        #expect(machine.state.published == .signedOut(reason: .loggedOut))
    }

    @Test("signing in anew while a refresh is under way: the new session stands")
    func signInDuringRefresh() {
        var machine = Self.signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: Self.now)
        let other = Fixtures.session(accessToken: "access-9", refreshToken: "refresh-9")
        machine.signedIn(other)
        #expect(machine.refresh(of: 0, .stored(Self.first)) == .expire)
        machine.refreshEnded(0)
        #expect(machine.state.usable == other)
    }

    @Test("a failed refresh (the network) keeps the session in place")
    func transientFailure() {
        var machine = Self.signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: Self.now)
        _ = machine.refresh(of: 0, .stored(Self.first))
        machine.refreshEnded(0)
        #expect(machine.state.published == .signedIn(userID: Self.first.userID, expiresAt: Self.first.expiresAt))
    }

    @Test("a 401 for a token already replaced uses the new one; a server rejecting every fresh token stops after 5 in 30 s")
    func rejectedTokens() {
        var machine = Self.signedIn(Self.renewed)
        #expect(machine.refreshWanted(rejecting: "access-1", at: Self.now) == .use(Self.renewed))
        for _ in 0..<5 {
            guard case .start(let current, let generation) = machine.refreshWanted(rejecting: machine.state.usable?.accessToken,
                                                                                   at: Self.now) else {
                Issue.record("a refresh should start")
                return
            }
            _ = machine.refresh(of: generation, .stored(current))
            _ = machine.refresh(of: generation, .renewed(current))
            machine.refreshEnded(generation)
        }
        guard case .fail(let error) = machine.refreshWanted(rejecting: "access-2", at: Self.now) else {
            Issue.record("the loop guard should stop the sixth refresh")
            return
        }
        #expect(error.code == .server)
        if case .start = machine.refreshWanted(rejecting: "access-2", at: Self.now.addingTimeInterval(31)) {} else {
            Issue.record("after the window, refreshing is allowed again")
        }
    }

    @Test("without a session a refresh fails: not signed in, or expired when a request had a token a moment ago")
    func refreshWithoutSession() {
        var machine = SessionMachine()
        machine.loaded(nil)
        #expect(machine.refreshWanted(rejecting: nil, at: Self.now) == .fail(.notSignedIn))
        #expect(machine.refreshWanted(rejecting: "access-1", at: Self.now) == .fail(.sessionExpired))
    }

    /// A machine whose session expired for good.
    static func expired() -> SessionMachine {
        var machine = signedIn()
        _ = machine.refreshWanted(rejecting: nil, at: now)
        _ = machine.refresh(of: 0, .stored(first))
        _ = machine.refresh(of: 0, .rejected)
        _ = machine.refresh(of: 0, .removed)
        machine.refreshEnded(0)
        return machine
    }

    @Test("many requests meet one expiry: the first asks, the others join the one question")
    func oneQuestion() {
        var machine = Self.expired()
        let (admission, asking) = machine.admit()
        #expect(!asking)
        #expect(machine.questionWanted(after: Self.first, admission: admission, failsFast: false) == .ask(Self.first))
        #expect(machine.admit().asking)
        #expect(machine.questionWanted(after: Self.first, admission: admission, failsFast: false) == .join)
        #expect(machine.questionWanted(after: Self.first, admission: admission, failsFast: true) == .fail(.awaitingAuthorization))
    }

    @Test("a question that signed in gives its session to the requests admitted before it")
    func questionAnswered() {
        var machine = Self.expired()
        let admission = machine.admit().admission
        _ = machine.questionWanted(after: Self.first, admission: admission, failsFast: false)
        machine.signedIn(Self.renewed)
        machine.questionEnded()
        #expect(machine.questionWanted(after: Self.first, admission: admission, failsFast: false) == .use(Self.renewed))
    }

    @Test("a question that came to nothing is not asked again for a request admitted before it; a later request asks anew")
    func questionDeclined() {
        var machine = Self.expired()
        let before = machine.admit().admission
        _ = machine.questionWanted(after: Self.first, admission: before, failsFast: false)
        machine.questionEnded()
        #expect(machine.state.published == .signedOut(reason: .sessionExpired))
        #expect(machine.questionWanted(after: Self.first, admission: before, failsFast: false) == .fail(.sessionExpired))
        let after = machine.admit().admission
        #expect(machine.questionWanted(after: Self.first, admission: after, failsFast: false) == .ask(Self.first))
    }

    @Test("a sign-out is not an expiry: a request that meets it is not signed in, and nobody is asked")
    func signOutIsNotExpiry() {
        var machine = Self.expired()
        let admission = machine.admit().admission
        machine.forgetExpiry()
        #expect(machine.questionWanted(after: Self.first, admission: admission, failsFast: false) == .fail(.notSignedIn))
        #expect(machine.state.published == .signedOut(reason: .loggedOut))
    }

    @Test("a token is refreshed within the leeway, at most half its lifetime before expiry, and only with a refresh token")
    func leeway() {
        var session = Self.first
        session.issuedAt = Self.now
        session.expiresAt = Self.now.addingTimeInterval(60)
        #expect(!SessionMachine.needsRefresh(session, at: Self.now.addingTimeInterval(29), leeway: 300))
        #expect(SessionMachine.needsRefresh(session, at: Self.now.addingTimeInterval(31), leeway: 300))
        session.refreshToken = nil
        #expect(!SessionMachine.needsRefresh(session, at: Self.now.addingTimeInterval(59), leeway: 300))
    }
}
