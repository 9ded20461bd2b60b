import Foundation
import RiderInfrastructure
import RiderKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The checks of `rider doctor` about signing in on this machine: a loopback port for the
/// browser's redirect, a browser to open, and the proxies requests go through.
extension DoctorChecks {
    // MARK: Sign-in on this machine

    /// Whether `login --web` can listen: each configured `listen` address, or a port of the
    /// system's choosing on 127.0.0.1, else on ::1. Bound and closed at once.
    static func loopback(_ addresses: [LoopbackListenAddress], deviceFlowServes: Bool) -> DoctorCheck {
        let wanted = addresses.isEmpty ? LoopbackListenAddress.automatic : addresses
        var refused: [String] = []
        for address in wanted {
            if let reason = bindFails(address) {
                refused.append("\(address): \(reason)")
                continue
            }
            let which = address.port == 0 ? "a port on \(address.host)" : "\(address)"
            let skipped = refused.isEmpty ? "" : " (\(refused.joined(separator: "; ")))"
            return .ok("loopback", "\(which) can be bound for a browser sign-in's redirect\(skipped)")
        }
        let detail = "no loopback address can be bound: " + refused.joined(separator: "; ")
        let fix = addresses.isEmpty ? "check that the loopback interface is up (ip link set lo up)"
            : "free the port, or list another: rider config set listen '127.0.0.1:PORT [::1]:PORT'"
        return deviceFlowServes ? .note("loopback", detail, fix: fix + "; meanwhile rider login --device signs in")
            : .fail("loopback", detail, fix: fix)
    }

    /// Why `address` cannot be bound, or `nil` when it can (then it is closed again).
    private static func bindFails(_ address: LoopbackListenAddress) -> String? {
        let isV6 = address.host.contains(":")
        let socket = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return String(cString: strerror(errno)) }
        defer { close(socket) }
        let port = UInt16(truncatingIfNeeded: address.port).bigEndian
        let result: Int32
        if isV6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port
            socketAddress.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port
            socketAddress.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return result == 0 ? nil : String(cString: strerror(errno))
    }

    /// Whether a browser would be opened (`$BROWSER`, else `xdg-open` in a graphical session);
    /// none is opened here. Without one, the address is pasted back or a device code is used,
    /// so this is a note.
    static func browser(environment: [String: String], deviceFlowServes: Bool) -> DoctorCheck {
        if SystemBrowserOpener(environment: environment).canOpenPages {
            let browser = environment["BROWSER"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            return .ok("browser", browser.map { "pages open with $BROWSER (\($0))" }
                            ?? "pages open with xdg-open in the graphical session")
        }
        let instead = deviceFlowServes ? "rider login --device, or rider login --web --no-browser and paste the address back"
            : "rider login --web --no-browser, and paste the address your browser ends on back"
        return .note("browser", "no browser can be opened here (no $BROWSER, and no graphical session with xdg-open)",
                     fix: "set BROWSER to a browser command, or sign in with " + instead)
    }

    // MARK: Proxies

    /// The proxy variables in effect, by name and host only: a proxy URL may carry a password.
    static func proxy(environment: [String: String]) -> DoctorCheck {
        let read = ["https_proxy", "HTTPS_PROXY", "http_proxy", "all_proxy", "ALL_PROXY"]
        var found: [String] = []
        for name in read {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { continue }
            let alone = ProxyEnvironment(environment: ["all_proxy": value])
            found.append(alone.problem == nil ? "\(name): \(alone.https)" : "\(name): not a proxy address")
        }
        for name in ["no_proxy", "NO_PROXY"] {
            guard let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let hosts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            found.append("\(name): \(hosts.joined(separator: " "))")
        }
        let ignored = (environment["HTTP_PROXY"] ?? "").isEmpty ? ""
            : "; HTTP_PROXY is ignored (as curl ignores it: a CGI request's Proxy header sets it), use http_proxy"
        if let problem = ProxyEnvironment(environment: environment).problem {
            return .fail("proxy", problem, fix: "correct it (http://host:port or socks5://host:port) or unset it")
        }
        guard !found.isEmpty else { return .ok("proxy", "no proxy variable is set: requests go direct" + ignored) }
        return .ok("proxy", found.joined(separator: "; ") + "; loopback is never proxied" + ignored)
    }
}
