import Foundation
@testable import RiderCLI
import RiderKit
import Testing

/// The exact bytes `--json` prints for each result, the contract scripts read (README, the E2E
/// JSONOutputTests): snake_case keys, sorted, absent values as `null` where the output promises
/// the same keys every time, ISO-8601 dates. Pinned here so a change of how the keys are made
/// cannot change a byte.
@Suite("CLI --json: the exact shape of every result")
struct JSONOutputShapeTests {
    /// 2025-01-02T03:04:05Z.
    private static let date = Date(timeIntervalSince1970: 1_735_787_045)
    private static let stamp = "2025-01-02T03:04:05Z"

    private static let ana = User(id: "u_000001", email: "ana@example.com", displayName: "Ana", role: .user,
                                  riderType: .mentor, createdAt: date)
    private static let bo = User(id: "u_000002", email: "bo@example.com", displayName: "Bo")
    private static let anaJSON = #"{"created_at":"2025-01-02T03:04:05Z","display_name":"Ana","email":"ana@example.com","#
        + #""id":"u_000001","rider_type":"mentor","role":"user"}"#
    private static let boJSON = #"{"created_at":null,"display_name":"Bo","email":"bo@example.com","id":"u_000002","#
        + #""rider_type":null,"role":"user"}"#

    private func json(_ value: some Encodable) -> String? { JSONOutput.string(value) }

    @Test("a user: every key present, absent values null")
    func user() {
        #expect(json(UserOutput(Self.ana)) == Self.anaJSON)
        #expect(json(UserOutput(Self.bo)) == Self.boJSON)
    }

    @Test("a cached user: the user's keys beside a cache object")
    func cachedUser() {
        let cached = Cached(value: Self.ana, storedAt: Self.date, source: .cache, isStale: true)
        let expected = #"{"cache":{"age_seconds":90,"offline_reason":null,"source":"cache","stale":true,"#
            + #""stored_at":"2025-01-02T03:04:05Z"},"created_at":"2025-01-02T03:04:05Z","display_name":"Ana","#
            + #""email":"ana@example.com","id":"u_000001","rider_type":"mentor","role":"user"}"#
        #expect(json(CachedUserOutput(cached, now: Self.date.addingTimeInterval(90))) == expected)

        let offline = CacheInfoOutput(source: .offline(reason: .timedOut), storedAt: nil, stale: true, now: Self.date)
        let reason = json(RiderError.timedOut.errorDescription) ?? "?"
        #expect(json(offline) == #"{"age_seconds":null,"offline_reason":"# + reason
            + #","source":"offline","stale":true,"stored_at":null}"#)
    }

    @Test("pages of users: totals, has_next, the users; a search page with its cache object")
    func pages() {
        let page = UserPage(users: [Self.ana, Self.bo], total: 2, page: 1, limit: 20, hasNext: false)
        #expect(json(UserListOutput(page)) == #"{"has_next":false,"limit":20,"page":1,"total":2,"users":["#
            + Self.anaJSON + "," + Self.boJSON + "]}")
        let search = UserPageOutput(UserPage(users: [Self.bo], total: 41, page: 2, limit: 1, hasNext: true),
                                    query: "bo", now: Self.date)
        #expect(json(search) == #"{"cache":{"age_seconds":null,"offline_reason":null,"source":"network","#
            + #""stale":false,"stored_at":null},"has_next":true,"limit":1,"page":2,"query":"bo","total":41,"#
            + #""users":["# + Self.boJSON + "]}")
    }

    @Test("a rider profile, with and without its optional fields")
    func rider() {
        let full = Rider(userID: "u_000001", displayName: "Ana", riderType: .mentor, description: "Gravel",
                         avatarURL: URL(string: "https://cdn.example.com/avatars/u_000001.png"),
                         sports: ["mtb", "gravel"], updatedAt: Self.date, entityTag: EntityTag(rawValue: #""v1""#))
        #expect(json(RiderOutput(full)) == #"{"avatar_url":"https://cdn.example.com/avatars/u_000001.png","#
            + #""description":"Gravel","display_name":"Ana","etag":"\"v1\"","rider_type":"mentor","#
            + #""sports":["mtb","gravel"],"updated_at":"2025-01-02T03:04:05Z","user_id":"u_000001"}"#)
        let bare = Rider(userID: "u_000002", displayName: "Bo", riderType: .learner)
        #expect(json(RiderOutput(bare)) == #"{"avatar_url":null,"description":null,"display_name":"Bo","#
            + #""etag":null,"rider_type":"learner","sports":[],"updated_at":null,"user_id":"u_000002"}"#)
    }

    @Test("session, login and logout: who and until when, never a token")
    func session() {
        let session = Session(accessToken: "a", refreshToken: "r", expiresAt: Self.date.addingTimeInterval(3_600),
                              userID: "u_000001", role: .user, issuedAt: Self.date)
        let shown = SessionOutput(session, server: "https://api.example.com", vault: "keyring", vaultLocation: "keyring place",
                                  now: Self.date.addingTimeInterval(60))
        #expect(json(shown) == #"{"account":null,"binding":"bearer","dpop_key_thumbprint":null,"email":null,"expires_at":"2025-01-02T04:04:05Z","expires_in_seconds":3540,"#
            + #""identity_source":null,"issued_at":"2025-01-02T03:04:05Z","refreshable":true,"resource":null,"role":"user","#
            + #""server":"https://api.example.com","user_id":"u_000001","vault":"keyring","vault_location":"keyring place"}"#)
        let bare = Session(accessToken: "a", refreshToken: nil, expiresAt: nil, userID: "u_000002", role: nil,
                           issuedAt: Self.date)
        #expect(json(SessionOutput(bare, server: "https://api.example.com", vault: "file", vaultLocation: "file place", now: Self.date))
            == #"{"account":null,"binding":"bearer","dpop_key_thumbprint":null,"email":null,"expires_at":null,"expires_in_seconds":null,"identity_source":null,"#
            + #""issued_at":"2025-01-02T03:04:05Z","refreshable":false,"resource":null,"role":null,"server":"https://api.example.com","#
            + #""user_id":"u_000002","vault":"file","vault_location":"file place"}"#)
        // A session from an OpenID provider names its account and where that came from.
        let openID = Session(accessToken: "a", refreshToken: nil, expiresAt: nil, userID: "1", role: nil,
                             issuedAt: Self.date,
                             identity: AccountIdentity(email: "ana@example.com", name: "Ana", source: .idToken))
        #expect(json(SessionOutput(openID, server: "https://id.example.com", vault: "file", vaultLocation: "file place", now: Self.date))
            == #"{"account":null,"binding":"bearer","dpop_key_thumbprint":null,"email":"ana@example.com","expires_at":null,"expires_in_seconds":null,"identity_source":"id_token","#
            + #""issued_at":"2025-01-02T03:04:05Z","refreshable":false,"resource":null,"role":null,"server":"https://id.example.com","#
            + #""user_id":"1","vault":"file","vault_location":"file place"}"#)

        // A DPoP-bound session says so, and names its key by thumbprint only.
        var bound = bare
        bound.proofKey = Data("the-private-key".utf8)
        let boundOutput = SessionOutput(bound, server: "https://api.example.com", vault: "file", vaultLocation: "file place", now: Self.date,
                                        dpopKeyThumbprint: "thumb-1")
        let boundJSON = json(boundOutput) ?? ""
        #expect(boundJSON.contains(#""dpop_key_thumbprint":"thumb-1""#))
        #expect(boundJSON.contains(#""binding":"dpop""#))
        #expect(boundOutput.lines(now: Self.date).contains { $0.contains("bound to a DPoP key (thumbprint thumb-1)") })
        #expect(!boundJSON.contains("the-private-key") && !boundJSON.isEmpty)

        // A session that kept no identity is named as session list names its account.
        #expect(SessionOutput(bare, server: "https://api.example.com", vault: "file", vaultLocation: "file place", now: Self.date,
                              account: "bo@example.com").lines(now: Self.date).contains { $0.hasPrefix("account ") && $0.hasSuffix("bo@example.com") })

        #expect(json(LoginOutput(server: "https://api.example.com", email: " ana@example.com\n", session: session))
            == #"{"email":"ana@example.com","expires_at":"2025-01-02T04:04:05Z","issuer":null,"role":"user","#
            + #""server":"https://api.example.com","user_id":"u_000001"}"#)
        #expect(json(LoginOutput(server: "https://api.example.com", email: "bo@example.com", session: bare))
            == #"{"email":"bo@example.com","expires_at":null,"issuer":null,"role":null,"server":"https://api.example.com","#
            + #""user_id":"u_000002"}"#)

        // Signed in at a provider other than the server: both are named.
        let elsewhere = LoginOutput(server: "https://api.example.com", issuer: "https://id.example.com",
                                    email: "ana@example.com", session: session)
        #expect(elsewhere.line.hasPrefix("Logged in as ana@example.com (u_000001) on https://api.example.com "
            + "(signed in at https://id.example.com), "))
        #expect(LoginOutput(server: "https://id.example.com", issuer: "https://id.example.com/", email: "a@b.c",
                            session: session).issuer == nil, "the server is its own issuer: named once")

        #expect(json(LogoutOutput(Logout.Outcome(wasSignedIn: true, revokedOnServer: false)))
            == #"{"account":null,"now_active":null,"revocation_error":null,"revocation_status":null,"#
            + #""revoked_on_server":false,"was_logged_in":true}"#)
        let refused = Logout.Outcome(wasSignedIn: true, revokedOnServer: false,
                                     revocationFailure: .server(status: 401, detail: "invalid_client"))
        #expect(json(LogoutOutput(refused))
            == #"{"account":null,"now_active":null,"revocation_error":"HTTP 401: invalid_client","#
            + #""revocation_status":401,"revoked_on_server":false,"was_logged_in":true}"#)
    }

    @Test("account deletion")
    func accountDeleted() {
        #expect(json(AccountDeletedOutput(DeleteAccount.Outcome(userID: "u_000001", deletedNow: false)))
            == #"{"already_gone":true,"deleted":true,"user_id":"u_000001"}"#)
    }

    @Test("base location, preferences and sports")
    func profileParts() throws {
        let location = try BaseLocation(latitude: 46.5, longitude: 6.25, placeName: "Lausanne", updatedAt: Self.date)
        #expect(json(BaseLocationOutput(location)) == #"{"latitude":46.5,"longitude":6.25,"place_name":"Lausanne","#
            + #""updated_at":"2025-01-02T03:04:05Z"}"#)
        #expect(json(BaseLocationOutput(try BaseLocation(latitude: 46, longitude: -6)))
            == #"{"latitude":46,"longitude":-6,"place_name":null,"updated_at":null}"#)
        #expect(json(BaseLocationOutput(nil)) == #"{"latitude":null,"longitude":null,"place_name":null,"updated_at":null}"#,
                "no base location set: the same keys, null, never a bare null")

        #expect(json(PreferencesOutput(Preferences())) == #"{"notifications":{"messages":true,"newsletter":false,"#
            + #""ride_invitations":true},"visibility":{"profile":"members","show_base_location":false}}"#)

        let mtb = Sport(id: "mtb", name: "Mountain biking")
        #expect(json(SportListOutput([mtb])) == #"{"sports":[{"id":"mtb","name":"Mountain biking"}]}"#)
        #expect(json(RiderSportListOutput([RiderSport(sport: mtb, level: .expert)]))
            == #"{"sports":[{"id":"mtb","level":"expert","name":"Mountain biking"}]}"#)
        #expect(json(RemovedSportOutput(id: "mtb", removed: true)) == #"{"id":"mtb","removed":true}"#)
        #expect(json(RegisterOutput(id: "u_000003", email: "cy@example.com"))
            == #"{"email":"cy@example.com","id":"u_000003"}"#)
    }

    @Test("the cache's statistics and clearing it")
    func cache() {
        let statistics = UserCacheStatistics(entries: 3, maximumEntries: 1_000, sizeOnDisk: 4_096,
                                             oldestStoredAt: Self.date, hits: 5, misses: 2, location: "/tmp/users.sqlite")
        #expect(json(CacheStatisticsOutput(statistics, server: "https://api.example.com", account: "ana@example.com"))
            == #"{"account":"ana@example.com","entries":3,"hits":5,"location":"/tmp/users.sqlite","maximum_entries":1000,"misses":2,"#
            + #""oldest_stored_at":"2025-01-02T03:04:05Z","server":"https://api.example.com","size_on_disk_bytes":4096}"#)
        let empty = UserCacheStatistics(entries: 0, maximumEntries: 10, sizeOnDisk: 0, oldestStoredAt: nil, hits: 0,
                                        misses: 0, location: "memory")
        #expect(json(CacheStatisticsOutput(empty, server: "https://api.example.com", account: nil))
            == #"{"account":null,"entries":0,"hits":0,"location":"memory","maximum_entries":10,"misses":0,"oldest_stored_at":null,"#
            + #""server":"https://api.example.com","size_on_disk_bytes":0}"#)
        #expect(json(CacheClearOutput(removed: 3, location: "/tmp/users.sqlite", account: "ana@example.com"))
            == #"{"account":"ana@example.com","location":"/tmp/users.sqlite","removed":3}"#)
    }

    @Test("the vault's results")
    func vault() {
        let locked = VaultStatusOutput(server: "https://api.example.com", setting: "auto", backend: "keyring",
                                       reason: "the keyring answered", location: "Secret Service",
                                       itemLabel: "rider (api.example.com)", unlocked: false, signedIn: false,
                                       userID: nil, problem: "locked", unlock: "this process only")
        #expect(json(locked) == #"{"accounts":[],"backend":"keyring","item_label":"rider (api.example.com)","location":"Secret Service","#
            + #""problem":"locked","reason":"the keyring answered","server":"https://api.example.com","#
            + #""setting":"auto","signed_in":false,"unlock":"this process only","unlocked":false,"user_id":null}"#)
        let open = VaultStatusOutput(server: "https://api.example.com", setting: "file", backend: "file",
                                     reason: "configured", location: "/tmp/session", itemLabel: nil, unlocked: true,
                                     signedIn: true, userID: "u_000001", problem: nil, unlock: "15 min")
        #expect(json(open) == #"{"accounts":[],"backend":"file","item_label":null,"location":"/tmp/session","problem":null,"#
            + #""reason":"configured","server":"https://api.example.com","setting":"file","signed_in":true,"#
            + #""unlock":"15 min","unlocked":true,"user_id":"u_000001"}"#)
        #expect(json(VaultMigrateOutput(moved: true, from: "file", to: "keyring", location: "Secret Service"))
            == #"{"accounts":[],"from":"file","location":"Secret Service","moved":true,"to":"keyring"}"#)
        #expect(json(VaultAdoptOutput(file: "/tmp/session", server: "https://api.example.com", adopted: true))
            == #"{"adopted":true,"file":"/tmp/session","server":"https://api.example.com"}"#)
        #expect(json(VaultResetOutput(backend: "file", location: "/tmp/session"))
            == #"{"backend":"file","location":"/tmp/session"}"#)
    }

    @Test("errors: code and message, fields and the current profile only when there are some")
    func errors() {
        #expect(json(ErrorOutput(code: "not_found", message: "No user u_999999."))
            == #"{"error":{"code":"not_found","message":"No user u_999999."}}"#)
        let invalid = ErrorOutput(code: "invalid_input", message: "Check the fields.",
                                  fields: [FieldProblemOutput(FieldProblem(field: "display_name", message: "too long"))],
                                  current: RiderOutput(Rider(userID: "u_000002", displayName: "Bo", riderType: .learner)))
        #expect(json(invalid) == #"{"error":{"code":"invalid_input","current":{"avatar_url":null,"description":null,"#
            + #""display_name":"Bo","etag":null,"rider_type":"learner","sports":[],"updated_at":null,"#
            + #""user_id":"u_000002"},"fields":[{"field":"display_name","message":"too long"}],"#
            + #""message":"Check the fields."}}"#)
    }

    @Test("config set and unset: the same keys every time, the value null when none was written, unknown keys left in the file")
    func configChange() {
        #expect(json(ConfigChangeOutput(action: "set", key: "timeout", value: "20", file: "/tmp/config.json"))
            == #"{"action":"set","file":"/tmp/config.json","key":"timeout","unknown_keys":[],"value":"20"}"#)
        #expect(json(ConfigChangeOutput(action: "unset", key: "timeout", value: nil, file: "/tmp/config.json"))
            == #"{"action":"unset","file":"/tmp/config.json","key":"timeout","unknown_keys":[],"value":null}"#,
                "the same keys every time")
        #expect(json(ConfigChangeOutput(action: "set", key: "timeout", value: "20", file: "/c.json", unknownKeys: ["timout"]))
            == #"{"action":"set","file":"/c.json","key":"timeout","unknown_keys":["timout"],"value":"20"}"#)
    }

    @Test("config show: each setting with set, secret, source and problem; the file and its unknown keys")
    func configShow() throws {
        #expect(json(ConfigSettingOutput(.scope, fileValue: nil, environment: [:], server: nil))
            == #"{"environment_variable":"RIDER_SCOPE","key":"scope","problem":null,"secret":false,"set":false,"#
            + #""source":"unset","value":null}"#)
        #expect(json(ConfigSettingOutput(.clientSecret, fileValue: "s3cret", environment: [:], server: nil))
            == #"{"environment_variable":"RIDER_CLIENT_SECRET","key":"client_secret","problem":null,"secret":true,"#
            + #""set":true,"source":"file","value":null}"#)
        #expect(json(ConfigSettingOutput(.timeout, fileValue: "20", environment: [:], server: nil))
            == #"{"environment_variable":"RIDER_TIMEOUT","key":"timeout","problem":null,"secret":false,"set":true,"#
            + #""source":"file","value":20}"#, "a number setting's value is a JSON number")
        #expect(json(ConfigSettingOutput(.cacheKeepOnLogout, fileValue: "true", environment: [:], server: nil))
            == #"{"environment_variable":"RIDER_CACHE_KEEP_ON_LOGOUT","key":"cache_keep_on_logout","problem":null,"#
            + #""secret":false,"set":true,"source":"file","value":true}"#, "a flag's value is a JSON boolean")
        #expect(json(ConfigSettingOutput(.timeout, fileValue: nil, environment: ["RIDER_TIMEOUT": "2.5"], server: nil))?
            .contains(#""value":2.5"#) == true)
        let refused = json(ConfigSettingOutput(.timeout, fileValue: "soon", environment: [:], server: nil)) ?? ""
        #expect(refused.contains(#""value":"soon""#) && !refused.contains(#""problem":null"#),
                "a value that is no number stays text, beside the problem: \(refused)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("config.json")
        try Data(#"{"timeout": 20, "scope": "read", "mysteryKey": {"camelCase": [1, 2.5, 1e20, null, true]}}"#.utf8)
            .write(to: file)
        let show = ConfigShowOutput(try ConfigFileDocument(reading: file), environment: [:], server: nil)
        let settings = show.settings.compactMap { json($0) }.joined(separator: ",")
        #expect(json(show) == #"{"file":""# + file.path + #"","file_exists":true,"settings":["# + settings
            + #"],"unknown_keys":["mysteryKey"]}"#)
    }

    @Test("the config file keeps every value as written: numbers, nested objects with their own keys")
    func configFileValues() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rider-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("config.json")
        try Data(#"{"timeout": {"innerKey": [1, 2.5]}, "cache_ttl": 1e20, "mysteryKey": {"camelCase": [1, -0.5, 20.0, -3.0e2, null, true, "x"]}}"#.utf8)
            .write(to: file)
        var document = try ConfigFileDocument(reading: file)
        #expect(document.text(for: .timeout) == #"{"innerKey":[1,2.5]}"#, "nested keys are not the CLI's to rename")
        #expect(document.text(for: .cacheTimeToLive) == "1e+20")
        document.set(.keyringTimeout, to: "2.5")
        document.set(.cacheMaximumUsers, to: "500")
        document.set(.cacheKeepOnLogout, to: "yes")
        try document.write()
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self) == """
            {
              "cache_keep_on_logout" : true,
              "cache_max_users" : 500,
              "cache_ttl" : 1e+20,
              "keyring_timeout" : 2.5,
              "mysteryKey" : {
                "camelCase" : [
                  1,
                  -0.5,
                  20,
                  -300,
                  null,
                  true,
                  "x"
                ]
              },
              "timeout" : {
                "innerKey" : [
                  1,
                  2.5
                ]
              }
            }

            """)
        let reread = try ConfigFileDocument(reading: file)
        #expect(reread.text(for: .cacheMaximumUsers) == "500" && reread.text(for: .keyringTimeout) == "2.5")
        #expect(reread.text(for: .cacheKeepOnLogout) == "true")
    }
}
