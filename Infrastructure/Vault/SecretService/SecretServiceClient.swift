import CLibSecret
import Foundation

/// The few libsecret calls the vault needs, as blocking functions (run them through
/// ``KeyringCall``). libsecret's store/lookup/clear are variadic in C; these use the `…v`
/// variants that take a `GHashTable` of attributes.
enum SecretServiceClient {
    /// The schema name stored in every item's `xdg:schema` attribute.
    static let schemaName = "org.riderkit.Session"

    /// What the probe found out about the default keyring collection.
    struct Probe: Sendable, Equatable {
        var collectionLabel: String
        var locked: Bool
    }

    /// Whether a Secret Service answers and has an unlocked default collection.
    ///
    /// Needed because with a missing or locked collection lookup and clear report "no item"
    /// without any error.
    static func probe(_ cancellable: KeyringCall.Cancellable) throws(VaultError) -> Probe {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, &error) else {
            throw .unavailable(reason: "no Secret Service on the session bus (\(take(error, or: "no answer")))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(service)) }
        let collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE,
                                                          cancellable, &error)
        if let error { throw .unavailable(reason: "the default keyring cannot be opened (\(take(error, or: "")))") }
        guard let collection else {
            throw .unavailable(reason: "the Secret Service has no default keyring (no `login` collection is set up)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
        var label = "default"
        if let raw = secret_collection_get_label(collection) {
            label = String(cString: raw)
            g_free(raw)
        }
        return Probe(collectionLabel: label, locked: secret_collection_get_locked(collection) != 0)
    }

    /// Stores (or replaces) the item with exactly these attributes in the default collection.
    static func store(_ secret: String, label: String, attributes: [String: String],
                      _ cancellable: KeyringCall.Cancellable) throws(VaultError) {
        let schema = makeSchema()
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        let stored = secret_password_storev_sync(schema, table, "default", label, secret, cancellable, &error)
        if stored == 0 || error != nil {
            throw .unavailable(reason: "the keyring refused to store the session (\(take(error, or: "no reason given")))")
        }
    }

    /// The secret of the first item matching `attributes`, or `nil` when none does.
    static func lookup(_ attributes: [String: String],
                       _ cancellable: KeyringCall.Cancellable) throws(VaultError) -> String? {
        let schema = makeSchema()
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        let raw = secret_password_lookupv_sync(schema, table, cancellable, &error)
        if let error {
            if let raw { secret_password_free(raw) }
            throw .unavailable(reason: "the keyring lookup failed (\(take(error, or: "")))")
        }
        guard let raw else { return nil }
        defer { secret_password_free(raw) }
        return String(cString: raw)
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
        for name in ["service", "account"] {
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
    private static func take(_ error: UnsafeMutablePointer<GError>?, or fallback: String) -> String {
        guard let error else { return fallback }
        defer { g_error_free(error) }
        guard let message = error.pointee.message else { return fallback }
        return String(cString: message)
    }
}
