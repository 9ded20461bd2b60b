import Foundation
import RiderDomain

/// Fixed values the fuzz targets decode against.
public enum FuzzFixtures {
    /// The instant the fuzzed responses are "received".
    public static let now = Date(timeIntervalSince1970: 1_735_787_045)
    public static let baseURL = URL(string: "https://api.example.test")

    /// The session a fuzzed refresh answer would replace.
    public static let previousSession = Session(
        accessToken: "previous-access-token", refreshToken: "previous-refresh-token",
        expiresAt: now.addingTimeInterval(60), userID: "u_000001", role: .user, issuedAt: now.addingTimeInterval(-3540))

    public static let credentials = Credentials(email: "ada@example.com", password: "fuzz-password-secret")
}
