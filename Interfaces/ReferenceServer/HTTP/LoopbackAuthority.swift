/// Whether a request's `Host` (its authority) names this machine: `localhost`, an IPv4 literal
/// in 127.0.0.0/8 or `[::1]`, each with an optional port.
///
/// While the test hooks are on, the server answers nothing else. A web page the person opens
/// can make the browser send requests to a loopback port, but under a name of its own (DNS
/// rebinding), and the browser then sends that name as `Host`; refusing it keeps the page out.
enum LoopbackAuthority {
    static func accepts(_ authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return false }
        let host: Substring
        let port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.isEmpty ? nil : rest.dropFirst()
            guard host == "::1" else { return false }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard host.lowercased() == "localhost" || isLoopbackIPv4(host) else { return false }
        }
        guard let port else { return true }
        return !port.isEmpty && port.count <= 5 && port.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    private static func isLoopbackIPv4(_ host: Substring) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } && UInt8($0) != nil }
    }
}
