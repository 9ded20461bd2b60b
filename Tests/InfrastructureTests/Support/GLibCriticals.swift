import CLibSecret
import Foundation

/// Collects the CRITICAL messages GLib's GIO logs while `body` runs, instead of printing them.
///
/// GIO reports misuse it survives (a `GTask` completed twice, say) only as a log line, so a test
/// that must prove such misuse gone has to listen for it. The handler is process-wide while it is
/// installed: a critical from any test running at the same time is collected too.
enum GLibCriticals {
    private final class Collected: @unchecked Sendable {
        // @unchecked: `messages` is only touched while `lock` is held.
        let lock = NSLock()
        var messages: [String] = []
    }

    static func collecting(_ body: () async throws -> Void) async rethrows -> [String] {
        let collected = Collected()
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_FLAG_FATAL.rawValue
                                                | G_LOG_FLAG_RECURSION.rawValue)
        let handler = g_log_set_handler("GLib-GIO", levels, { _, _, message, data in
            guard let data else { return }
            let collected = Unmanaged<Collected>.fromOpaque(data).takeUnretainedValue()
            let text = message.map { String(cString: $0) } ?? "(no message)"
            collected.lock.withLock { collected.messages.append(text) }
        }, Unmanaged.passUnretained(collected).toOpaque())
        defer {
            g_log_remove_handler("GLib-GIO", handler)
            withExtendedLifetime(collected) {}
        }
        try await body()
        return collected.lock.withLock { collected.messages }
    }
}
