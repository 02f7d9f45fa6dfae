internal import CSecretService
import Foundation

/// libsecret's synchronous calls for one item (schema name and attributes), in Swift terms. Each
/// call runs its own short main loop inside libsecret, so it may be made from any thread.
struct SecretServiceClient: Sendable {
    let schemaName: String
    let attributes: [String: String]

    /// The stored bytes, or nil when there is no item. A locked default keyring is unlocked first
    /// (the desktop may prompt); one that stays locked is an error, not "not found".
    func lookup() throws(MSALSecretServiceError) -> Data? {
        let service = try connect()
        defer { msal_object_unref(service) }
        if let data = try lookupValue(service) { return data }
        // Not found, or hidden by a locked keyring: lookups skip locked collections silently.
        guard try unlockDefaultCollection(service, required: false) else { return nil }
        return try lookupValue(service)
    }

    /// Stores `data` (text, as msal-extensions stores it) in the default keyring, replacing the
    /// item with the same attributes.
    func store(_ data: Data, label: String) throws(MSALSecretServiceError) {
        let service = try connect()
        defer { msal_object_unref(service) }
        _ = try unlockDefaultCollection(service, required: true)
        try storeValue(service, schemaName: schemaName, attributes: attributes, label: label, data: data, contentType: "text/plain")
    }

    /// Keeps `data` under the schema `<schema>.corrupt` with an extra attribute, as binary, then
    /// removes the item; returns where it went.
    func setAside(_ data: Data, label: String) throws(MSALSecretServiceError) -> String {
        let service = try connect()
        defer { msal_object_unref(service) }
        _ = try unlockDefaultCollection(service, required: true)
        let stamp = ISO8601DateFormatter().string(from: Date())
        var kept = attributes
        kept["msal_set_aside"] = stamp
        try storeValue(
            service, schemaName: schemaName + ".corrupt", attributes: kept, label: label + " (unusable, set aside \(stamp))", data: data,
            contentType: "application/octet-stream")
        try clear(service)
        return "in the Secret Service under schema \"\(schemaName).corrupt\" with msal_set_aside=\(stamp)"
    }

    /// Removes the item; true when there was one.
    @discardableResult
    func remove() throws(MSALSecretServiceError) -> Bool {
        let service = try connect()
        defer { msal_object_unref(service) }
        _ = try unlockDefaultCollection(service, required: true)
        return try clear(service)
    }

    /// Succeeds when the service answers and the default keyring exists and is (or gets) unlocked.
    func checkUsable() throws(MSALSecretServiceError) {
        let service = try connect()
        defer { msal_object_unref(service) }
        _ = try unlockDefaultCollection(service, required: true)
        _ = try lookupValue(service)
    }

    /// Locks the default keyring (tests: a keyring the user locked).
    func lockDefaultCollection() throws(MSALSecretServiceError) {
        let service = try connect()
        defer { msal_object_unref(service) }
        guard let collection = try defaultCollection(service) else {
            throw MSALSecretServiceError(.secretServiceUnavailable, "The Secret Service has no default keyring")
        }
        defer { msal_object_unref(collection) }
        var error: UnsafeMutablePointer<GError>?
        guard msal_collection_set_locked(service, collection, 1, &error) >= 0 else {
            throw Self.consume(error, .operationFailed, "lock the keyring")
        }
    }

    // MARK: Calls

    private func connect() throws(MSALSecretServiceError) -> UnsafeMutablePointer<SecretService> {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, nil, &error) else {
            throw Self.consume(error, .secretServiceUnavailable, "reach the Secret Service (is a desktop session with a keyring running?)")
        }
        return service
    }

    /// The default collection, or nil when the service has none.
    private func defaultCollection(_ service: UnsafeMutablePointer<SecretService>) throws(MSALSecretServiceError) -> UnsafeMutablePointer<
        SecretCollection
    >? {
        var error: UnsafeMutablePointer<GError>?
        let collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, nil, &error)
        if collection == nil, error != nil { throw Self.consume(error, .operationFailed, "find the default keyring") }
        return collection
    }

    /// Unlocks the default keyring when it is locked (the desktop's prompt). Returns true when it
    /// was locked and is now unlocked. `required`: a missing keyring is an error.
    private func unlockDefaultCollection(_ service: UnsafeMutablePointer<SecretService>, required: Bool) throws(MSALSecretServiceError)
        -> Bool
    {
        guard let collection = try defaultCollection(service) else {
            guard required else { return false }
            throw MSALSecretServiceError(
                .secretServiceUnavailable, "The Secret Service has no default keyring (no login keyring was ever created)")
        }
        defer { msal_object_unref(collection) }
        var error: UnsafeMutablePointer<GError>?
        let path = String(cString: msal_collection_path(collection))
        let locked = msal_collection_locked(service, path, &error)
        guard locked >= 0 else { throw Self.consume(error, .operationFailed, "ask whether the keyring is locked") }
        guard locked == 1 else { return false }
        _ = msal_collection_set_locked(service, collection, 0, &error)
        if error != nil { throw Self.consume(error, .keyringLocked, "unlock the keyring") }
        guard msal_collection_locked(service, path, &error) == 0 else {
            if error != nil { g_error_free(error) }
            throw MSALSecretServiceError(
                .keyringLocked, "The keyring is locked and was not unlocked (the unlock was declined or could not be shown)")
        }
        return true
    }

    private func lookupValue(_ service: UnsafeMutablePointer<SecretService>) throws(MSALSecretServiceError) -> Data? {
        let schema = try makeSchema(schemaName, attributes.keys)
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        guard let value = secret_service_lookup_sync(service, schema, table, nil, &error) else {
            if error != nil { throw Self.consume(error, .operationFailed, "read the token cache item") }
            return nil
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length = 0
        guard let bytes = secret_value_get(value, &length) else { return Data() }
        return Data(bytes: bytes, count: length)
    }

    private func storeValue(
        _ service: UnsafeMutablePointer<SecretService>, schemaName: String, attributes: [String: String], label: String, data: Data,
        contentType: String
    ) throws(MSALSecretServiceError) {
        let schema = try makeSchema(schemaName, attributes.keys)
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        // `secret_value_new` copies the bytes; an empty document still needs a valid pointer.
        let bytes = data.isEmpty ? Data([0]) : data
        let value = bytes.withUnsafeBytes { raw in
            secret_value_new(raw.baseAddress!.assumingMemoryBound(to: CChar.self), data.count, contentType)
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var error: UnsafeMutablePointer<GError>?
        guard secret_service_store_sync(service, schema, table, nil, label, value, nil, &error) != 0 else {
            throw Self.consume(error, .operationFailed, "store the token cache item")
        }
    }

    @discardableResult
    private func clear(_ service: UnsafeMutablePointer<SecretService>) throws(MSALSecretServiceError) -> Bool {
        let schema = try makeSchema(schemaName, attributes.keys)
        defer { secret_schema_unref(schema) }
        let table = makeTable(attributes)
        defer { g_hash_table_unref(table) }
        var error: UnsafeMutablePointer<GError>?
        let removed = secret_service_clear_sync(service, schema, table, nil, &error) != 0
        if error != nil { throw Self.consume(error, .operationFailed, "remove the token cache item") }
        return removed
    }

    private func makeSchema(_ name: String, _ names: Dictionary<String, String>.Keys) throws(MSALSecretServiceError)
        -> UnsafeMutablePointer<
            SecretSchema
        >
    {
        let copies = names.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        guard let schema = pointers.withUnsafeBufferPointer({ msal_string_schema_new(name, $0.baseAddress, Int32($0.count)) }) else {
            throw MSALSecretServiceError(.invalidConfiguration, "libsecret refused the schema \"\(name)\"")
        }
        return schema
    }

    private func makeTable(_ attributes: [String: String]) -> OpaquePointer {
        let table = msal_string_table_new()!
        for (key, value) in attributes { msal_string_table_insert(table, key, value) }
        return table
    }

    /// An error from a GError (freed here): its message, with what we tried to do. A D-Bus or I/O
    /// failure to reach the service is `secretServiceUnavailable` whatever the call.
    private static func consume(
        _ error: UnsafeMutablePointer<GError>?, _ code: MSALSecretServiceError.Code, _ action: String
    ) -> MSALSecretServiceError {
        guard let error else { return MSALSecretServiceError(code, "Cannot \(action)") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let domain = String(cString: g_quark_to_string(error.pointee.domain))
        var kind = code
        if domain == "g-dbus-error-quark",
            [G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_DISCONNECTED]
                .map({ Int32($0.rawValue) }).contains(error.pointee.code)
        {
            kind = .secretServiceUnavailable
        }
        if message.contains("locked collection") { kind = .keyringLocked }
        return MSALSecretServiceError(kind, "Cannot \(action): \(message)")
    }
}
