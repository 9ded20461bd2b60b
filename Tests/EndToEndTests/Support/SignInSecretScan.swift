import Foundation
import RiderInfrastructure
import RiderReferenceServer
import Testing

/// What a browser or device sign-in passes through rider besides the tokens: values the test saw
/// go by, and the PKCE challenges whose verifiers rider alone holds.
struct SignInSecrets: Sendable {
    /// Values that must never show: an authorization code, say.
    var values: [String] = []
    /// The sign-in's `code_challenge`s: any string whose S256 is one of them is its verifier.
    var codeChallenges: [String] = []
}

/// What ``expectNoSecretsLeaked(from:in:sourceLocation:)`` checks, and more, for the sign-ins that go
/// through a browser or a device code (issuing tokens or not): rider's outputs *and every file in the sandbox* (its state,
/// configuration and cache, what it gave the browser) hold no issued token or device code, not the password,
/// none of `secrets.values`, no PKCE verifier of `secrets.codeChallenges`, and no JWT — rider
/// never shows or writes an id_token in the clear, refused or accepted. Failures name the file
/// or the output, never the secret.
func expectNoSignInSecretsLeaked(from server: RunningReferenceServer, in sandbox: Sandbox,
                                 _ secrets: SignInSecrets = SignInSecrets(),
                                 sourceLocation: SourceLocation = #_sourceLocation) async {
    let forbidden = await server.store.issuedTokens() + server.store.deviceCodes() + [Demo.password]
        + secrets.values.filter { !$0.isEmpty }
    var texts = await sandbox.transcript.outputs.enumerated().map { ("output \($0.offset + 1)", $0.element) }
    texts += sandboxFiles(sandbox).map { file in
        (file.path, String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self))
    }
    #expect(texts.count > 1, "nothing to scan", sourceLocation: sourceLocation)
    let cryptography = SwiftCryptoSignInCryptography()
    for (name, text) in texts {
        let leaked = forbidden.filter { text.contains($0) }.count
        #expect(leaked == 0, "\(leaked) sign-in secret(s) in \(name)", sourceLocation: sourceLocation)
        // Booleans, so that a failure's expansion of the expression does not print the secret.
        let holdsJWT = text.contains(/eyJ[A-Za-z0-9_-]{2,}\.eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/)
        #expect(!holdsJWT, "a JWT (an id_token?) in \(name)", sourceLocation: sourceLocation)
        guard !secrets.codeChallenges.isEmpty else { continue }
        let holdsVerifier = text.matches(of: /[A-Za-z0-9._~-]{43,128}/).contains { match in
            let challenge = cryptography.sha256(Data(match.output.utf8)).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            return secrets.codeChallenges.contains(challenge)
        }
        #expect(!holdsVerifier, "the PKCE code verifier in \(name)", sourceLocation: sourceLocation)
    }
}

/// Every regular file under the sandbox's root.
private func sandboxFiles(_ sandbox: Sandbox) -> [URL] {
    guard let files = FileManager.default.enumerator(at: sandbox.root, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    return files.compactMap { $0 as? URL }.filter {
        (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
    }
}
