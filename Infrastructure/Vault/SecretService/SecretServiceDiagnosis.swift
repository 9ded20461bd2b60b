import CLibSecret
import Foundation

/// How far the keyring answers, step by step — the session bus, a Secret Service on it, its
/// default collection, and whether that collection is locked — for a front end that explains
/// the whole chain at once (`rider doctor`), where the vault only needs to know whether it can
/// use the keyring.
///
/// The steps run as one ``KeyringCall``, so they take their turn with every other libsecret call
/// and end at the timeout however stuck the daemon is: a timeout names the step it stopped at.
package enum SecretServiceDiagnosis: Sendable, Equatable {
    /// The steps, in the order they are taken.
    package enum Step: String, Sendable, Equatable {
        case bus = "the D-Bus session bus"
        case service = "the Secret Service"
        case collection = "the default collection"
    }

    /// No session bus could be reached; `reason` is D-Bus's.
    case busUnavailable(reason: String)
    /// The bus answers, but nothing provides `org.freedesktop.secrets` on it.
    case serviceUnavailable(reason: String)
    /// The Secret Service answers, but has no default collection, or it cannot be opened.
    case collectionUnavailable(reason: String)
    /// The default collection: its label (or object path) and whether it is locked.
    case collection(label: String, locked: Bool)
    /// A step did not answer within the timeout.
    case timedOut(step: Step, after: Duration)

    /// Takes the steps, each only after the one before it answered.
    /// - Parameter timeout: the bound on all of them together.
    /// - Returns: the first step that failed, or the default collection's state.
    package static func run(timeout: Duration) async -> SecretServiceDiagnosis {
        let reached = ReachedStep()
        do throws(VaultError) {
            return try await KeyringCall.run(timeout: timeout) { cancellable throws(VaultError) in
                try steps(cancellable, reached: reached, timeout: timeout)
            }
        } catch .timedOut(let after) {
            return .timedOut(step: reached.step, after: after)
        } catch {
            return .serviceUnavailable(reason: error.message)
        }
    }

    private static func steps(_ cancellable: KeyringCall.Cancellable, reached: ReachedStep,
                              timeout: Duration) throws(VaultError) -> SecretServiceDiagnosis {
        // A failure after the watchdog fired is the timeout's, not the step's.
        func cancelled() -> Bool { g_cancellable_is_cancelled(cancellable) != 0 }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable, &error) else {
            let reason = SecretServiceClient.take(error, or: "no answer")
            if cancelled() { throw .timedOut(after: timeout) }
            return .busUnavailable(reason: reason)
        }
        g_object_unref(UnsafeMutableRawPointer(bus))
        reached.step = .service
        let service: UnsafeMutablePointer<SecretService>
        do {
            service = try SecretServiceClient.connect(cancellable)
        } catch {
            if cancelled() { throw .timedOut(after: timeout) }
            return .serviceUnavailable(reason: reason(of: error))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(service)) }
        reached.step = .collection
        do {
            let probe = try SecretServiceClient.probe(service, cancellable)
            return .collection(label: probe.collectionLabel, locked: probe.locked)
        } catch {
            if cancelled() { throw .timedOut(after: timeout) }
            return .collectionUnavailable(reason: reason(of: error))
        }
    }

    /// The reason alone, without the vault's "the keyring cannot be used:" in front.
    private static func reason(of error: VaultError) -> String {
        if case .unavailable(let reason) = error { return reason }
        return error.message
    }
}

/// The step the diagnosis was at, shared with the thread it runs on, for a timeout to name.
private final class ReachedStep: @unchecked Sendable {
    private let lock = NSLock()
    private var current = SecretServiceDiagnosis.Step.bus

    var step: SecretServiceDiagnosis.Step {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}
