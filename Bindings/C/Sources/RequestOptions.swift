import Foundation
import MSAL

/// The JSON options object of the `_ex` operations and `msal_na_app_acquire_token`
/// (Bindings/C/include/msal_native_auth.h, "Request options"): each operation names the fields it
/// takes, and a field it does not take, or a value of the wrong type, is an argument error naming
/// the field. Nothing is sent when the options are wrong.
struct RequestOptions {
    private let object: [String: Any]

    /// NULL or `""` is an empty object. `allowed`: the fields this operation takes.
    init(_ pointer: UnsafePointer<CChar>?, allowed: Set<String>) throws(InterfaceError) {
        guard let text = try CStrings.read(pointer, "options_json", optional: true), !text.isEmpty else {
            object = [:]
            return
        }
        guard let parsed = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw InterfaceError(.invalidArgument, "'options_json' is not a JSON object")
        }
        if let unknown = parsed.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw InterfaceError(
                .invalidArgument,
                "'options_json': unknown field '\(unknown)' (this call takes: \(allowed.sorted().joined(separator: ", ")))")
        }
        object = parsed
    }

    private static func problem(_ field: String, _ text: String) -> InterfaceError {
        InterfaceError(.invalidArgument, "'options_json': field '\(field)' \(text)")
    }

    /// JSON `true`/`false` only (not 0 or 1).
    func bool(_ field: String) throws(InterfaceError) -> Bool? {
        guard let value = object[field] else { return nil }
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
            throw Self.problem(field, "must be true or false")
        }
        return number.boolValue
    }

    func string(_ field: String) throws(InterfaceError) -> String? {
        guard let value = object[field] else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw Self.problem(field, "must be a non-empty string") }
        return text
    }

    /// A list of non-empty strings, or one space-separated string.
    func strings(_ field: String) throws(InterfaceError) -> [String]? {
        guard let value = object[field] else { return nil }
        if let text = value as? String {
            return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        }
        guard let list = value as? [Any], let texts = list as? [String], !texts.contains(where: \.isEmpty) else {
            throw Self.problem(field, "must be a list of non-empty strings, or one space-separated string")
        }
        return texts
    }

    /// A JSON object whose values are strings.
    func stringMap(_ field: String) throws(InterfaceError) -> [String: String]? {
        guard let value = object[field] else { return nil }
        guard let map = value as? [String: Any], let texts = map as? [String: String] else {
            throw Self.problem(field, "must be a JSON object of strings")
        }
        return texts
    }

    /// A JSON object kept as it is (sign-up attributes).
    func jsonObject(_ field: String) throws(InterfaceError) -> [String: Any]? {
        guard let value = object[field] else { return nil }
        guard let map = value as? [String: Any] else { throw Self.problem(field, "must be a JSON object") }
        return map
    }

    /// A number of seconds in (0, `limit`].
    func seconds(_ field: String, limit: Double) throws(InterfaceError) -> Double? {
        guard let value = object[field] else { return nil }
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c", number.doubleValue > 0,
            number.doubleValue <= limit
        else {
            throw Self.problem(field, "must be a number of seconds in (0, \(Int(limit))]")
        }
        return number.doubleValue
    }

    /// `correlation_id`: a UUID in its usual text form.
    func correlationId() throws(InterfaceError) -> UUID? {
        guard let text = try string("correlation_id") else { return nil }
        guard let id = UUID(uuidString: text) else {
            throw Self.problem("correlation_id", "is not a UUID (like 0f8fad5b-d9cb-469f-a165-70867728950e)")
        }
        return id
    }

    /// `claims`: a claims request, as a JSON object or as the JSON text of one (what
    /// `msal_na_claims_from_challenge` returns); the SDK's own parser decides what is valid.
    func claims() throws(InterfaceError) -> MSALClaimsRequest? {
        guard let value = object["claims"] else { return nil }
        let text: String
        if let given = value as? String {
            text = given
        } else if let map = value as? [String: Any], let data = try? JSONSerialization.data(withJSONObject: map) {
            text = String(decoding: data, as: UTF8.self)
        } else {
            throw Self.problem("claims", "must be a claims request: a JSON object, or its JSON text")
        }
        do {
            return try MSALClaimsRequest(jsonString: text)
        } catch {
            throw Self.problem("claims", "is not a claims request: \((error as NSError).localizedDescription)")
        }
    }

    /// `scopes` as the flows take them: nil when absent or empty.
    func scopes() throws(InterfaceError) -> [String]? {
        guard let list = try strings("scopes"), !list.isEmpty else { return nil }
        return list
    }
}
