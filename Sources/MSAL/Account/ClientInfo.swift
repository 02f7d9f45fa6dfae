import Foundation

/// The token response's `client_info`: base64url JSON `{"uid", "utid"}` (docs/protocol.md#client_info).
package struct ClientInfo: Sendable, Equatable {
    package var uid: String
    package var utid: String

    /// `uid.utid`, MSAL's home account id and `MSALAccount.identifier`.
    package var homeAccountId: String { "\(uid).\(utid)" }

    package init(uid: String, utid: String) {
        self.uid = uid
        self.utid = utid
    }

    package init(encoded: String) throws(NativeAuthDecodingError) {
        guard let data = Base64URL.decode(encoded), let json = JSONValue.parse(data), let object = json.objectValue else {
            throw NativeAuthDecodingError("client_info is not base64url-encoded JSON")
        }
        guard let uid = object["uid"]?.stringValue, !uid.isEmpty, let utid = object["utid"]?.stringValue, !utid.isEmpty else {
            throw NativeAuthDecodingError("client_info lacks uid or utid")
        }
        self.init(uid: uid, utid: utid)
    }
}
