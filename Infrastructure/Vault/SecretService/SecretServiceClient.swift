import CLibSecret
import Foundation

/// The few libsecret calls the vault needs, as blocking functions (run them through
/// ``KeyringCall``). libsecret's lookup/clear are variadic in C; these use the `…v` variants
/// that take a `GHashTable` of attributes, and write through `SecretItem` (see ``store(_:label:attributes:_:)``).
enum SecretServiceClient {
    /// The schema name stored in every item's `xdg:schema` attribute.
    static let schemaName = "org.riderkit.Session"

    /// What the probe found out about the default keyring collection.
    struct Probe: Sendable, Equatable {
        /// The collection's label, or its object path when it has none.
        var collectionLabel: String
        var locked: Bool
    }

    /// Whether a Secret Service answers and has an unlocked default collection.
    ///
    /// Needed because with a missing collection lookup and clear report "no item" without any
    /// error, and on a locked one libsecret's lookup asks for it to be unlocked (a prompt).
    static func probe(timeout: Duration, _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> Probe {
        let bus = try SecretServiceBus.connection(cancellable)
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        return try SecretServiceBus.probe(bus, timeout: timeout, cancellable)
    }

    /// The probe, then, when the default collection is unlocked, the secret of the first item
    /// matching `attributes` (`nil` when none does).
    ///
    /// A locked collection is reported by the probe and not searched: libsecret's lookup would
    /// ask for it to be unlocked (a prompt), where RiderKit says it is locked instead. The read
    /// goes over the bus in a `plain` session (``SecretServiceBus``), without libsecret's key
    /// exchange; what that read leaves to libsecret (only locked matches, `plain` refused) is
    /// read by libsecret's lookup, as before.
    static func read(_ attributes: [String: String], timeout: Duration,
                     _ cancellable: KeyringCall.Cancellable) throws(VaultError)
        -> (probe: Probe, secret: String?, route: SecretServiceReadRoute) {
        let bus = try SecretServiceBus.connection(cancellable)
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let found = try SecretServiceBus.probe(bus, timeout: timeout, cancellable)
        guard !found.locked else { return (found, nil, .bus(session: nil)) }
        switch try SecretServiceBus.read(bus, attributes: attributes, timeout: timeout, cancellable) {
        case .secret(let secret):
            return (found, secret, .bus(session: "plain"))
        case .none:
            return (found, nil, .bus(session: nil))
        case .needsLibsecret(let reason):
            return (found, try lookup(attributes, cancellable), .libsecret(reason: reason))
        }
    }

    /// libsecret's lookup: the secret of the first item matching `attributes`, unlocking (a
    /// prompt) when every match is locked; it opens its Diffie-Hellman session for the secret.
    static func lookup(_ attributes: [String: String],
                       _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> String? {
        let service = try connect(cancellable)
        defer { g_object_unref(UnsafeMutableRawPointer(service)) }
        let schema = makeSchema()
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        let value = secret_service_lookup_sync(service, schema, table, cancellable, &error)
        if let error {
            if let value { secret_value_unref(UnsafeMutableRawPointer(value)) }
            throw .unavailable(reason: "the keyring lookup failed (\(take(error, or: "")))")
        }
        guard let value else { return nil }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        guard let text = secret_value_get_text(value) else {
            throw .unreadableSecret(detail: "it is not text")
        }
        return String(cString: text)
    }

    static func connect(_ cancellable: KeyringCall.Cancellable) throws(VaultError)
        -> UnsafeMutablePointer<SecretService> {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, &error) else {
            throw .unavailable(reason: "no Secret Service on the session bus (\(take(error, or: "no answer")))")
        }
        return service
    }

    /// The probe on the connection of libsecret's service proxy (``SecretServiceDiagnosis``).
    static func probe(_ service: UnsafeMutablePointer<SecretService>,
                      _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> Probe {
        let proxy = UnsafeMutableRawPointer(service).assumingMemoryBound(to: GDBusProxy.self)
        guard let connection = g_dbus_proxy_get_connection(proxy) else {
            throw .unavailable(reason: "the default keyring cannot be opened (not connected)")
        }
        return try SecretServiceBus.probe(connection, timeout: nil, cancellable)
    }

    /// Writes `secret` to the item(s) with these attributes, or creates one in the default
    /// collection when there is none.
    ///
    /// Never through `Collection.CreateItem(replace=true)` (libsecret's `secret_password_store`):
    /// KeePassXC 2.7 answers a replacing CreateItem with an access prompt for the existing item
    /// that it never completes, even when it is set not to confirm access, so the call hangs
    /// until the timeout and the old secret stays. `Item.SetSecret` on the item found by its
    /// attributes works on every provider and keeps the item's label and attributes. Every
    /// match is updated, so a duplicate (two processes that created at the same moment) can
    /// never be read back stale. A new item is created without `replace`.
    ///
    /// Items are found by `identity` (the attributes every RiderKit wrote, so an item written before
    /// `server` existed is updated, not duplicated) and created with all of `attributes`.
    static func store(_ secret: String, label: String, attributes: [String: String], identity: [String: String],
                      _ cancellable: KeyringCall.Cancellable) throws(VaultError) {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, &error) else {
            throw .unavailable(reason: "no Secret Service on the session bus (\(take(error, or: "no answer")))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(service)) }
        let schema = makeSchema()
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        let identityTable = makeTable(identity)
        defer { g_hash_table_unref(identityTable) }
        guard let value = secret_value_new(secret, -1, "text/plain") else {
            throw .unavailable(reason: "libsecret could not hold the session for the keyring")
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }

        let items = try search(service, schema, identityTable, cancellable)
        defer { for item in items { g_object_unref(UnsafeMutableRawPointer(item)) } }
        guard items.isEmpty else {
            for item in items {
                let written = secret_item_set_secret_sync(item, value, cancellable, &error)
                if written == 0 || error != nil {
                    throw .unavailable(reason: "the keyring refused to update the session "
                        + "(\(take(error, or: "no reason given")))")
                }
            }
            return
        }

        let collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE,
                                                          cancellable, &error)
        if let error { throw .unavailable(reason: "the default keyring cannot be opened (\(take(error, or: "")))") }
        guard let collection else {
            throw .unavailable(reason: "the Secret Service has no default keyring (no `login` collection is set up)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
        let created = secret_item_create_sync(collection, schema, table, label, value, SECRET_ITEM_CREATE_NONE,
                                              cancellable, &error)
        if let created { g_object_unref(UnsafeMutableRawPointer(created)) }
        if created == nil || error != nil {
            throw .unavailable(reason: "the keyring refused to store the session (\(take(error, or: "no reason given")))")
        }
    }

    /// The items of our schema matching `table`, in any collection, unlocked first (an unlocked
    /// collection's items need no prompt; a provider that confirms access per item may prompt).
    private static func search(_ service: UnsafeMutablePointer<SecretService>,
                               _ schema: UnsafeMutablePointer<SecretSchema>, _ table: OpaquePointer?,
                               _ cancellable: KeyringCall.Cancellable) throws(VaultError)
        -> [UnsafeMutablePointer<SecretItem>] {
        var error: UnsafeMutablePointer<GError>?
        let flags = SecretSearchFlags(rawValue: SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_UNLOCK.rawValue)
        let list = secret_service_search_sync(service, schema, table, flags, cancellable, &error)
        var items: [UnsafeMutablePointer<SecretItem>] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { items.append(data.assumingMemoryBound(to: SecretItem.self)) }
            node = current.pointee.next
        }
        g_list_free(list)
        if let error {
            for item in items { g_object_unref(UnsafeMutableRawPointer(item)) }
            throw .unavailable(reason: "the keyring search failed (\(take(error, or: "")))")
        }
        return items
    }

    /// Removes every item matching `attributes`; returns whether any was removed.
    @discardableResult
    static func clear(_ attributes: [String: String],
                      _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> Bool {
        let schema = makeSchema()
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        let removed = secret_password_clearv_sync(schema, table, cancellable, &error)
        if let error { throw .unavailable(reason: "the keyring could not remove the item (\(take(error, or: "")))") }
        return removed != 0
    }

    /// `org.riderkit.Session` with the string attributes `service` and `account`; libsecret adds
    /// `xdg:schema` to stored items and matches on it in lookups.
    private static func makeSchema() -> UnsafeMutablePointer<SecretSchema> {
        let names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
        defer { g_hash_table_unref(names) }
        // The value is the attribute type; SECRET_SCHEMA_ATTRIBUTE_STRING is 0, a null pointer.
        for name in ["service", "server", "account"] {
            g_hash_table_insert(names, g_strdup(name), nil)
        }
        return secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, names)
    }

    private static func makeTable(_ attributes: [String: String]) -> OpaquePointer? {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
        for (name, value) in attributes {
            g_hash_table_insert(table, g_strdup(name), g_strdup(value))
        }
        return table
    }

    /// The error's message (consuming the error), or `fallback` when there is none.
    static func take(_ error: UnsafeMutablePointer<GError>?, or fallback: String) -> String {
        guard let error else { return fallback }
        defer { g_error_free(error) }
        guard let message = error.pointee.message else { return fallback }
        return String(cString: message)
    }
}
