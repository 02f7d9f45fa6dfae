import Foundation

/// What every saved flow state's document holds, native auth V1 (version 1, SavedFlowState.swift)
/// and V2 (version 2, SavedFlowStateV2.swift) alike (docs/saved-states.md#format): the format and
/// version, the state's kind, the application it belongs to, its correlation id, when its token was
/// issued (its expiry: `maximumAge` later) and the continuation token. Each version's own members,
/// its `Payload`, sit beside these in the same JSON object, so a document reads as one flat object.
package enum SavedStateEnvelope {
    /// The document's `format` value.
    package static let format = "msal-native-auth-flow-state"
    /// The largest document read: continuation tokens are a few kilobytes at most.
    package static let maximumSize = 64 * 1024
    /// How long after its token was issued a saved state is restored (docs/saved-states.md#expiry).
    package static let maximumAge: TimeInterval = 600

    /// The envelope's members and the version's own (`payload`), as one JSON object.
    struct Document<Payload: Codable>: Codable {
        var format = SavedStateEnvelope.format
        var version: Int
        var kind: String
        var clientId: String
        var authority: String
        var correlationId: String
        /// Seconds since 1970, whole.
        var issuedAt: Int64
        var continuationToken: String?
        var payload: Payload

        private enum CodingKeys: String, CodingKey {
            case format, version, kind, clientId, authority, correlationId, issuedAt, continuationToken
        }

        init(
            version: Int, kind: String, clientId: String, authority: String, correlationId: UUID, issuedAt: Date,
            continuationToken: String?, payload: Payload
        ) {
            self.version = version
            self.kind = kind
            self.clientId = clientId
            self.authority = authority
            self.correlationId = correlationId.uuidString
            self.issuedAt = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
            self.continuationToken = continuationToken
            self.payload = payload
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            format = try container.decode(String.self, forKey: .format)
            version = try container.decode(Int.self, forKey: .version)
            kind = try container.decode(String.self, forKey: .kind)
            clientId = try container.decode(String.self, forKey: .clientId)
            authority = try container.decode(String.self, forKey: .authority)
            correlationId = try container.decode(String.self, forKey: .correlationId)
            issuedAt = try container.decode(Int64.self, forKey: .issuedAt)
            continuationToken = try container.decodeIfPresent(String.self, forKey: .continuationToken)
            payload = try Payload(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(format, forKey: .format)
            try container.encode(version, forKey: .version)
            try container.encode(kind, forKey: .kind)
            try container.encode(clientId, forKey: .clientId)
            try container.encode(authority, forKey: .authority)
            try container.encode(correlationId, forKey: .correlationId)
            try container.encode(issuedAt, forKey: .issuedAt)
            try container.encodeIfPresent(continuationToken, forKey: .continuationToken)
            try payload.encode(to: encoder)
        }

        /// The document's bytes: UTF-8 JSON, keys sorted.
        func encoded() -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Strings, finite numbers, booleans and collections of them only: encoding cannot fail.
            return (try? encoder.encode(self)) ?? Data()
        }

        /// Reads a document whose header `version(of:)` or `header(_:)` accepted.
        static func decode(_ data: Data) throws(RestoreFailure) -> Document {
            do { return try JSONDecoder().decode(Document.self, from: data) } catch {
                throw .malformed("the saved state lacks a member or has one of the wrong type")
            }
        }

        /// The envelope's members checked: a known kind, a UUID, a client id and an authority.
        func opened<Kind: RawRepresentable<String>>(as _: Kind.Type) throws(RestoreFailure) -> Opened<Kind> {
            guard let kind = Kind(rawValue: kind) else { throw .malformed("unknown state kind \"\(self.kind)\"") }
            guard let correlationId = UUID(uuidString: correlationId) else { throw .malformed("the correlation id is not a UUID") }
            guard !clientId.isEmpty, !authority.isEmpty else { throw .malformed("the client id or authority is empty") }
            return Opened(
                kind: kind, clientId: clientId, authority: authority, correlationId: correlationId,
                issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)))
        }
    }

    /// The envelope's members once checked.
    struct Opened<Kind> {
        var kind: Kind
        var clientId: String
        var authority: String
        var correlationId: UUID
        var issuedAt: Date
    }

    /// What is read first, so that a newer version is told apart from a malformed document.
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    /// The format version of a document of this format within the size limit, read without the
    /// rest of it (nil otherwise): `restoreState` sends version 2 to the V2 reader.
    package static func version(of data: Data) -> Int? {
        guard !data.isEmpty, data.count <= maximumSize, let header = try? JSONDecoder().decode(Header.self, from: data),
            header.format == format
        else { return nil }
        return header.version
    }

    /// The version of a document of this format within the size limit; every way the header can be
    /// wrong is a `RestoreFailure` naming what. Versions above `newest` are `unsupportedVersion`.
    package static func header(_ data: Data, newest: Int) throws(RestoreFailure) -> Int {
        guard data.count <= maximumSize else {
            throw .malformed("the saved state is \(data.count) bytes, more than the \(maximumSize) a saved state can be")
        }
        guard !data.isEmpty else { throw .malformed("the saved state is empty") }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw .malformed("the saved state is not a JSON object")
        }
        guard header.format == format else { throw .malformed("the saved state is not a flow state (no \"format\": \"\(format)\")") }
        guard let version = header.version, version >= 1 else { throw .malformed("the saved state has no valid version") }
        guard version <= newest else {
            throw .unsupportedVersion("the saved state has format version \(version); this SDK reads up to version \(newest)")
        }
        return version
    }
}
