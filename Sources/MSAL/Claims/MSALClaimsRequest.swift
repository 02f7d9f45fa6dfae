import Foundation

/// A request for specific claims, sent as the `claims` parameter. Mirrors MSAL's `MSALClaimsRequest`
/// for construction from JSON; the builder API for individual claims arrives with the token-cache work.
public final class MSALClaimsRequest: Sendable, CustomStringConvertible {
    private let value: JSONValue

    /// Parses a claims-request JSON object such as `{"access_token":{"acrs":{"essential":true,"value":"c4"}}}`.
    /// Throws `MSALError` with code `.invalidJSON` when the text is not a JSON object.
    public init(jsonString: String) throws(MSALError) {
        guard let parsed = JSONValue.parse(Data(jsonString.utf8)), case .object = parsed else {
            throw MSALError(.invalidJSON, "The claims request is not a JSON object")
        }
        value = parsed
    }

    /// The JSON text sent on the wire (compact, keys sorted).
    public func jsonString() -> String {
        value.serialized()
    }

    public var description: String { jsonString() }
}
