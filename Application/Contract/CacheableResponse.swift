import Foundation

/// A response the server lets clients reuse for a while (`Cache-Control: max-age`, RFC 9111 §5.2.2.1).
package struct CacheableResponse<Value: Sendable>: Sendable {
    package var value: Value
    /// Seconds the value may be reused; `nil` when the server did not say.
    package var maxAge: TimeInterval?

    package init(value: Value, maxAge: TimeInterval?) {
        self.value = value
        self.maxAge = maxAge
    }

    /// The `max-age` of a `Cache-Control` value; `nil` when absent, unparsable, or when
    /// `no-store`/`no-cache` forbid reuse.
    static func maxAge(_ header: String?) -> TimeInterval? {
        guard let header else { return nil }
        var maxAge: TimeInterval?
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            switch parts.first {
            case "no-store", "no-cache": return nil
            case "max-age":
                guard parts.count == 2, let seconds = Int(parts[1].trimmingCharacters(in: ["\""])), seconds >= 0 else {
                    return nil
                }
                maxAge = TimeInterval(seconds)
            default: continue
            }
        }
        return maxAge
    }
}

extension CacheableResponse: Equatable where Value: Equatable {}
