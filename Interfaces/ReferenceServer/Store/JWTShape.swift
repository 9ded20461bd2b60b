import Foundation

/// Access tokens shaped like JWTs (RFC 7519): a header, claims with `sub`, `exp` and `jti`, and
/// a random third part. The server looks tokens up like opaque ones; only clients read `exp`.
enum JWTShape {
    static func token(subject: String, expiresAt: Date, id: String) -> String {
        let header = #"{"alg":"HS256","typ":"JWT"}"#
        let claims = #"{"sub":"\#(subject)","exp":\#(Int(expiresAt.timeIntervalSince1970)),"jti":"\#(id)"}"#
        return encode(Data(header.utf8)) + "." + encode(Data(claims.utf8)) + "." + encode(Data(id.utf8).prefix(32))
    }

    private static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
