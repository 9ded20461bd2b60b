import CLibSecret
import Foundation

/// How a keyring read reached the secret: a package-level observable, so tests can tell that
/// the read made no key exchange.
package enum SecretServiceReadRoute: Sendable, Equatable {
    /// Over the bus directly; `session` is the algorithm of the session opened for the secret
    /// (`plain`), or `nil` when none was needed (no item, or a locked collection).
    case bus(session: String?)
    /// Through libsecret's lookup, which negotiates its Diffie-Hellman session, because of `reason`.
    case libsecret(reason: String)
}

/// The Secret Service spoken to directly over the session bus's shared GDBus connection: the
/// probe (the `default` alias and its collection's lock), and the read of one item's secret in a
/// `plain` session. Writes stay on libsecret (``SecretServiceClient/store(_:label:attributes:identity:_:)``).
///
/// Why not libsecret for reads: its lookup always opens a Diffie-Hellman session
/// (`dh-ietf1024-sha256-aes128-cbc-pkcs7`), and the key agreement costs about 2.4 ms of libgcrypt
/// in the reading process and 2.2 ms in gnome-keyring, one after the other, in every process —
/// the largest part of a `rider whoami` from the cache after the process start
/// (docs/performance.md). The Secret Service specification offers the `plain` algorithm too:
/// the secret then crosses the local session bus unencrypted, from the provider to this process,
/// both the same user's. What that does and does not expose is in docs/vault.md ("Reading
/// without a key exchange"); nothing about what is stored changes.
///
/// The read finds the item exactly as libsecret's `secret_service_lookup_sync` does —
/// `Service.SearchItems` with the attributes and `xdg:schema`, the first unlocked match — and
/// hands back to libsecret whatever needs more than a read: only locked matches (libsecret asks
/// for them to be unlocked), a provider that refuses `plain` (the specification lets it), or an
/// item whose secret the provider does not return.
enum SecretServiceBus {
    /// The Secret Service's bus name; `SECRET_SERVICE_BUS_NAME` overrides it, as it does for libsecret.
    static var busName: String {
        ProcessInfo.processInfo.environment["SECRET_SERVICE_BUS_NAME"] ?? "org.freedesktop.secrets"
    }

    static let servicePath = "/org/freedesktop/secrets"
    private static let serviceInterface = "org.freedesktop.Secret.Service"

    /// What one read found.
    enum Read: Equatable {
        /// The secret of the first unlocked matching item, read in a `plain` session.
        case secret(String)
        /// No item matches; no session was opened.
        case none
        /// The read needs libsecret's lookup, for `reason` (a locked item, `plain` refused, …).
        case needsLibsecret(reason: String)
    }

    /// A D-Bus call's failure: D-Bus's error name when the peer sent one, and GLib's message.
    struct Failure: Error, CustomStringConvertible {
        var remoteName: String?
        var message: String
        /// The call ran out of its D-Bus timeout (`G_IO_ERROR_TIMED_OUT`).
        var timedOut = false
        var description: String { message }
    }

    /// The session bus's shared connection (the one libsecret uses too); the caller unrefs it.
    static func connection(_ cancellable: KeyringCall.Cancellable) throws(VaultError)
        -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable, &error) else {
            throw .unavailable(reason: "no Secret Service on the session bus (\(SecretServiceClient.take(error, or: "no answer")))")
        }
        return bus
    }

    /// The D-Bus timeout for one call: `timeout` in milliseconds, at least 1, or GLib's default
    /// (25 s) when `nil`. The ``KeyringCall`` watchdog bounds the call as well.
    static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return -1 }
        let (seconds, attoseconds) = timeout.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int32.max }
        return Int32(clamping: max(1, total.partialValue + attoseconds / 1_000_000_000_000_000))
    }

    /// Two calls — the `default` alias, then the collection's properties — rather than
    /// libsecret's `SecretCollection`, whose proxy costs six more round trips to set up and
    /// tear down (match rules, name owner, properties).
    static func probe(_ connection: OpaquePointer, timeout: Duration?,
                      _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> SecretServiceClient.Probe {
        let milliseconds = milliseconds(timeout)
        let path: String
        do throws(Failure) {
            let reply = try call(connection, path: servicePath, interface: serviceInterface, method: "ReadAlias",
                                 [g_variant_new_string("default")], replyType: "(o)", milliseconds, cancellable)
            defer { g_variant_unref(reply) }
            guard let alias = child(reply, 0) else { throw Failure(message: "no answer") }
            defer { g_variant_unref(alias) }
            path = string(alias) ?? "/"
        } catch {
            throw vaultError(error, timeout, or: "the default keyring cannot be opened (\(error))")
        }
        guard path != "/" else {
            throw .unavailable(reason: "the Secret Service has no default keyring (no `login` collection is set up)")
        }
        let properties: OpaquePointer
        do throws(Failure) {
            let reply = try call(connection, path: path, interface: "org.freedesktop.DBus.Properties", method: "GetAll",
                                 [g_variant_new_string("org.freedesktop.Secret.Collection")], replyType: "(a{sv})",
                                 milliseconds, cancellable)
            defer { g_variant_unref(reply) }
            guard let all = child(reply, 0) else { throw Failure(message: "no properties") }
            properties = all
        } catch {
            throw vaultError(error, timeout, or: "the default keyring cannot be opened (\(error))")
        }
        defer { g_variant_unref(properties) }
        let locked = g_variant_lookup_value(properties, "Locked", nil)
        defer { if let locked { g_variant_unref(locked) } }
        let label = g_variant_lookup_value(properties, "Label", nil)
        defer { if let label { g_variant_unref(label) } }
        let isLocked = locked.map { String(cString: g_variant_get_type_string($0)) == "b" && g_variant_get_boolean($0) != 0 }
        // The label, or the object path when it is empty: a KeePassXC database made by
        // `keepassxc-cli` has no name, and `its keyring ""` names nothing.
        let name = label.flatMap(string).flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        // A provider that does not say is taken as unlocked, as libsecret's collection took it.
        return SecretServiceClient.Probe(collectionLabel: name ?? path, locked: isLocked ?? false)
    }

    /// The secret of the first unlocked item matching `attributes` (and `xdg:schema`), read in a
    /// `plain` session that is closed again before returning.
    ///
    /// - Throws: ``VaultError/unavailable(reason:)`` when the search or the read fails (a reply of
    ///   the wrong shape included), ``VaultError/timedOut(after:)`` when a call outlives `timeout`,
    ///   ``VaultError/unreadableSecret(detail:)`` when the secret is not UTF-8 text.
    static func read(_ connection: OpaquePointer, attributes: [String: String],
                     timeout: Duration, _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> Read {
        let milliseconds = milliseconds(timeout)
        var query = attributes
        query["xdg:schema"] = SecretServiceClient.schemaName
        let unlocked: [String], locked: [String]
        do throws(Failure) {
            let reply = try call(connection, path: servicePath, interface: serviceInterface, method: "SearchItems",
                                 [dictionary(query)], replyType: "(aoao)", milliseconds, cancellable)
            defer { g_variant_unref(reply) }
            unlocked = paths(in: reply, at: 0)
            locked = paths(in: reply, at: 1)
        } catch {
            throw vaultError(error, timeout, or: "the keyring lookup failed (\(error))")
        }
        // libsecret's lookup takes the first unlocked match, and unlocks (prompts) only when every
        // match is locked: that case is libsecret's.
        guard let item = unlocked.first else {
            return locked.isEmpty ? .none : .needsLibsecret(reason: "the matching item is locked")
        }

        let session: String
        do throws(Failure) {
            let reply = try call(connection, path: servicePath, interface: serviceInterface, method: "OpenSession",
                                 [g_variant_new_string("plain"), g_variant_new_variant(g_variant_new_string(""))],
                                 replyType: "(vo)", milliseconds, cancellable)
            defer { g_variant_unref(reply) }
            guard let path = child(reply, 1).flatMap({ value in defer { g_variant_unref(value) }; return string(value) }),
                  path != "/" else {
                return .needsLibsecret(reason: "the Secret Service opened no plain session")
            }
            session = path
        } catch {
            if error.timedOut || g_cancellable_is_cancelled(cancellable) != 0 { throw .timedOut(after: timeout) }
            // org.freedesktop.DBus.Error.NotSupported is how the specification lets a provider refuse.
            return .needsLibsecret(reason: "the Secret Service refused a plain session (\(error))")
        }
        defer {
            // Closed even when the read failed, without waiting for the answer (one round trip
            // less; nothing depends on it): a call without a callback goes out with
            // NO_REPLY_EXPECTED. Should a process exit before GDBus's worker has sent it, the
            // provider drops the session anyway when the process leaves the bus.
            var none: [OpaquePointer?] = []
            g_dbus_connection_call(connection, busName, session, "org.freedesktop.Secret.Session", "Close",
                                   g_variant_new_tuple(&none, 0), nil, G_DBUS_CALL_FLAGS_NONE, milliseconds,
                                   nil, nil, nil)
        }

        let bytes: [UInt8]
        do throws(Failure) {
            let reply = try call(connection, path: servicePath, interface: serviceInterface, method: "GetSecrets",
                                 [objectPaths([item]), g_variant_new_object_path(session)],
                                 replyType: "(a{o(oayays)})", milliseconds, cancellable)
            defer { g_variant_unref(reply) }
            guard let secrets = child(reply, 0) else { throw Failure(message: "no secrets in the reply") }
            defer { g_variant_unref(secrets) }
            guard let secret = g_variant_lookup_value(secrets, item, nil) else {
                // The item was locked or deleted since the search; libsecret's lookup says what
                // that means (it unlocks, or finds nothing).
                return .needsLibsecret(reason: "the Secret Service returned no secret for the item")
            }
            defer { g_variant_unref(secret) }
            // (session, parameters, value, content type); `plain` sends the value as it is.
            guard let value = child(secret, 2) else { throw Failure(message: "a secret of the wrong shape") }
            defer { g_variant_unref(value) }
            var count: gsize = 0
            if let start = g_variant_get_fixed_array(value, &count, 1), count > 0 {
                bytes = Array(UnsafeRawBufferPointer(start: start, count: Int(count)))
            } else {
                bytes = []
            }
        } catch {
            if error.remoteName == "org.freedesktop.Secret.Error.IsLocked" {
                return .needsLibsecret(reason: "the matching item is locked")
            }
            throw vaultError(error, timeout, or: "the keyring lookup failed (\(error))")
        }
        // Text as RiderKit stores it (`text/plain`, UTF-8); what is not, libsecret's lookup
        // could not have handed over as text either.
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadableSecret(detail: "it is not text")
        }
        return .secret(text)
    }

    /// A failed call as the vault reports it: a timeout (D-Bus's, or the watchdog's cancel) as
    /// ``VaultError/timedOut(after:)``, anything else as ``VaultError/unavailable(reason:)``.
    private static func vaultError(_ failure: Failure, _ timeout: Duration?, or reason: String) -> VaultError {
        if let timeout, failure.timedOut { return .timedOut(after: timeout) }
        return .unavailable(reason: reason)
    }

    /// Calls `method` with `arguments` (floating references, which the call takes) on the
    /// Secret Service; the reply, checked against `replyType` by GDBus, is the caller's to unref.
    private static func call(_ connection: OpaquePointer, path: String, interface: String,
                             method: String, _ arguments: [OpaquePointer?], replyType: String?,
                             _ milliseconds: Int32, _ cancellable: KeyringCall.Cancellable) throws(Failure) -> OpaquePointer {
        var arguments = arguments
        let parameters = g_variant_new_tuple(&arguments, gsize(arguments.count))
        let type = replyType.flatMap { g_variant_type_new($0) }
        defer { if let type { g_variant_type_free(type) } }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(connection, busName, path, interface, method, parameters, type,
                                                G_DBUS_CALL_FLAGS_NONE, milliseconds, cancellable, &error)
        if let error {
            if let reply { g_variant_unref(reply) }
            var failure = Failure(remoteName: nil, message: "")
            if let name = g_dbus_error_get_remote_error(error) {
                failure.remoteName = String(cString: name)
                g_free(name)
            }
            failure.timedOut = error.pointee.domain == g_io_error_quark()
                && error.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue)
            failure.message = SecretServiceClient.take(error, or: "no answer")
            throw failure
        }
        guard let reply else { throw Failure(message: "no answer") }
        return reply
    }

    /// Child `index` of a tuple (a new reference), or `nil` when it has no such child.
    private static func child(_ tuple: OpaquePointer, _ index: Int) -> OpaquePointer? {
        g_variant_n_children(tuple) > gsize(index) ? g_variant_get_child_value(tuple, gsize(index)) : nil
    }

    /// The text of a string or object-path variant (unwrapping a `v`), or `nil` for any other type.
    private static func string(_ variant: OpaquePointer) -> String? {
        let type = String(cString: g_variant_get_type_string(variant))
        if type == "v", let inner = g_variant_get_variant(variant) {
            defer { g_variant_unref(inner) }
            return string(inner)
        }
        guard type == "s" || type == "o", let text = g_variant_get_string(variant, nil) else { return nil }
        return String(cString: text)
    }

    /// The object paths in the `ao` at `index` of `tuple`.
    private static func paths(in tuple: OpaquePointer, at index: Int) -> [String] {
        guard let array = child(tuple, index) else { return [] }
        defer { g_variant_unref(array) }
        return (0..<g_variant_n_children(array)).compactMap { position in
            let element = g_variant_get_child_value(array, position)
            defer { if let element { g_variant_unref(element) } }
            return element.flatMap(string)
        }
    }

    /// An `a{ss}` of `pairs` (a floating reference).
    private static func dictionary(_ pairs: [String: String]) -> OpaquePointer? {
        var entries: [OpaquePointer?] = pairs.sorted { $0.key < $1.key }.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_string(value))
        }
        let type = g_variant_type_new("{ss}")
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &entries, gsize(entries.count))
    }

    /// An `ao` of `paths` (a floating reference).
    private static func objectPaths(_ paths: [String]) -> OpaquePointer? {
        var elements: [OpaquePointer?] = paths.map { g_variant_new_object_path($0) }
        let type = g_variant_type_new("o")
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &elements, gsize(elements.count))
    }
}
