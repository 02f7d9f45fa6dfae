import Foundation

/// The one shape every saved flow state takes, and its document (docs/saved-states.md#format):
/// a JSON object, version 1, that names the state's kind and the application it belongs to and
/// holds what the state needs to continue.
package struct SavedFlowState: Sendable, Equatable {
    /// The state's kind: the `MSALNativeAuthFlowState` case it restores to.
    package enum Kind: String, Sendable, CaseIterable {
        case signInCodeRequired, signInPasswordRequired, signInAfterSignUp, signInAfterResetPassword
        case signUpCodeRequired, signUpPasswordRequired, signUpAttributesRequired
        case resetPasswordCodeRequired, resetPasswordRequired
        case awaitingMFA, mfaRequired, registerStrongAuth, registerStrongAuthVerificationRequired

        init(_ flow: MSALNativeAuthFlowState) {
            switch flow {
            case .signInCodeRequired: self = .signInCodeRequired
            case .signInPasswordRequired: self = .signInPasswordRequired
            case .signInAfterSignUp: self = .signInAfterSignUp
            case .signInAfterResetPassword: self = .signInAfterResetPassword
            case .signUpCodeRequired: self = .signUpCodeRequired
            case .signUpPasswordRequired: self = .signUpPasswordRequired
            case .signUpAttributesRequired: self = .signUpAttributesRequired
            case .resetPasswordCodeRequired: self = .resetPasswordCodeRequired
            case .resetPasswordRequired: self = .resetPasswordRequired
            case .awaitingMFA: self = .awaitingMFA
            case .mfaRequired: self = .mfaRequired
            case .registerStrongAuth: self = .registerStrongAuth
            case .registerStrongAuthVerificationRequired: self = .registerStrongAuthVerificationRequired
            }
        }

        /// Whether the kind continues a sign-in (it keeps the sign-in's scopes and claims).
        var continuesSignIn: Bool {
            switch self {
            case .signInCodeRequired, .signInPasswordRequired, .awaitingMFA, .mfaRequired, .registerStrongAuth,
                .registerStrongAuthVerificationRequired:
                true
            default: false
            }
        }

        /// Whether the kind has the user's name (every kind but the code and second-factor steps of a sign-in).
        var hasUsername: Bool {
            switch self {
            case .signInCodeRequired, .awaitingMFA, .mfaRequired, .registerStrongAuth, .registerStrongAuthVerificationRequired: false
            default: true
            }
        }

        /// Whether a continuation token may be absent (a sign-up or reset that ended without one
        /// still makes its sign-in state, which fails when used, as in MSAL).
        var tokenOptional: Bool { self == .signInAfterSignUp || self == .signInAfterResetPassword }
    }

    /// The document's `format` value, and the newest version this SDK reads and the one it writes.
    package static let format = "msal-native-auth-flow-state"
    package static let version = 1
    /// The largest document `decode` reads: continuation tokens are a few kilobytes at most.
    package static let maximumSize = 64 * 1024
    /// How long after its token was issued a saved state is restored (docs/saved-states.md#expiry).
    package static let maximumAge: TimeInterval = 600

    package var kind: Kind
    package var clientId: String
    package var authority: String
    package var continuationToken: String?
    package var correlationId: UUID
    package var issuedAt: Date
    package var username: String?
    package var scopes: [String]?
    package var claims: String?
    package var authMethods: [MSALAuthMethod]?

    /// What `flow`'s state holds.
    package init(_ flow: MSALNativeAuthFlowState) {
        func made(_ client: NativeAuthClient, token: String?, _ id: UUID, _ issuedAt: Date) -> SavedFlowState {
            SavedFlowState(
                kind: Kind(flow), clientId: client.environment.clientId, authority: client.environment.authorityURL.absoluteString,
                continuationToken: token, correlationId: id, issuedAt: issuedAt)
        }
        func signIn(_ core: SignInAfterPreviousFlow) -> SavedFlowState {
            var saved = made(core.controller.client, token: core.continuationToken, core.correlationId, core.issuedAt)
            saved.username = core.username
            return saved
        }
        func strongAuth(_ state: MSALNativeAuthBaseState, _ context: SignInContinuationContext) -> SavedFlowState {
            var saved = made(context.controller.client, token: state.continuationToken, state.correlationId, state.lifecycle.issuedAt)
            (saved.scopes, saved.claims, saved.authMethods) = (context.scopes, context.claims, context.authMethods)
            return saved
        }
        func named(_ client: NativeAuthClient, _ username: String, token: String, _ id: UUID, _ lifecycle: StateLifecycle)
            -> SavedFlowState
        {
            var saved = made(client, token: token, id, lifecycle.issuedAt)
            saved.username = username
            return saved
        }
        switch flow {
        case .signInCodeRequired(let state):
            self = made(state.controller.client, token: state.continuationToken, state.correlationId, state.lifecycle.issuedAt)
            (scopes, claims) = (state.scopes, state.claims)
        case .signInPasswordRequired(let state):
            self = named(state.controller.client, state.username, token: state.continuationToken, state.correlationId, state.lifecycle)
            (scopes, claims) = (state.scopes, state.claims)
        case .signInAfterSignUp(let state): self = signIn(state.core)
        case .signInAfterResetPassword(let state): self = signIn(state.core)
        case .signUpCodeRequired(let state):
            self = named(state.controller.client, state.username, token: state.continuationToken, state.correlationId, state.lifecycle)
        case .signUpPasswordRequired(let state):
            self = named(state.controller.client, state.username, token: state.continuationToken, state.correlationId, state.lifecycle)
        case .signUpAttributesRequired(let state):
            self = named(state.controller.client, state.username, token: state.continuationToken, state.correlationId, state.lifecycle)
        case .resetPasswordCodeRequired(let state):
            self = named(state.controller.client, state.username, token: state.continuationToken, state.correlationId, state.lifecycle)
        case .resetPasswordRequired(let state):
            self = named(state.controller.client, state.username, token: state.continuationToken, state.correlationId, state.lifecycle)
        case .awaitingMFA(let state): self = strongAuth(state, state.context)
        case .mfaRequired(let state): self = strongAuth(state, state.context)
        case .registerStrongAuth(let state): self = strongAuth(state, state.context)
        case .registerStrongAuthVerificationRequired(let state): self = strongAuth(state, state.context)
        }
    }

    package init(
        kind: Kind, clientId: String, authority: String, continuationToken: String?, correlationId: UUID, issuedAt: Date
    ) {
        self.kind = kind
        self.clientId = clientId
        self.authority = authority
        self.continuationToken = continuationToken
        self.correlationId = correlationId
        self.issuedAt = issuedAt
    }

    package static func == (lhs: SavedFlowState, rhs: SavedFlowState) -> Bool {
        lhs.document == rhs.document
    }

    // MARK: The document

    /// The JSON members, in the names docs/saved-states.md#format lists.
    private struct Document: Codable, Equatable {
        struct Method: Codable, Equatable {
            var id: String
            var challengeType: String
            var channel: String
            var loginHint: String?
        }
        var format: String
        var version: Int
        var kind: String
        var clientId: String
        var authority: String
        var correlationId: String
        /// Seconds since 1970, whole.
        var issuedAt: Int64
        var continuationToken: String?
        var username: String?
        var scopes: [String]?
        var claims: String?
        var authMethods: [Method]?
    }

    /// What is read first, so that a newer version is told apart from a malformed document.
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    private var document: Document {
        Document(
            format: Self.format, version: Self.version, kind: kind.rawValue, clientId: clientId, authority: authority,
            correlationId: correlationId.uuidString, issuedAt: Int64(issuedAt.timeIntervalSince1970.rounded(.down)),
            continuationToken: continuationToken, username: username, scopes: scopes, claims: claims,
            authMethods: authMethods?.map {
                Document.Method(id: $0.id, challengeType: $0.challengeType, channel: $0.channelTargetType.value, loginHint: $0.loginHint)
            })
    }

    /// The document's bytes: UTF-8 JSON, keys sorted.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and arrays of them only: encoding cannot fail.
        return (try? encoder.encode(document)) ?? Data()
    }

    /// The format version of a document of this format within the size limit, read without the
    /// rest of it (nil otherwise): `restoreState` sends version 2 to the V2 reader (SavedFlowStateV2.swift).
    package static func version(of data: Data) -> Int? {
        guard !data.isEmpty, data.count <= maximumSize, let header = try? JSONDecoder().decode(Header.self, from: data),
            header.format == format
        else { return nil }
        return header.version
    }

    /// Reads a document; every way it can be wrong is a `RestoreFailure` naming what.
    package static func decode(_ data: Data) throws(RestoreFailure) -> SavedFlowState {
        guard data.count <= maximumSize else {
            throw .malformed("the saved state is \(data.count) bytes, more than the \(maximumSize) a saved state can be")
        }
        guard !data.isEmpty else { throw .malformed("the saved state is empty") }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data) else {
            throw .malformed("the saved state is not a JSON object")
        }
        guard header.format == format else { throw .malformed("the saved state is not a flow state (no \"format\": \"\(format)\")") }
        guard let version = header.version, version >= 1 else { throw .malformed("the saved state has no valid version") }
        guard version <= Self.version else {
            throw .unsupportedVersion("the saved state has format version \(version); this SDK reads up to version \(Self.version)")
        }
        let document: Document
        do { document = try decoder.decode(Document.self, from: data) } catch {
            throw .malformed("the saved state lacks a member or has one of the wrong type")
        }
        return try SavedFlowState(checking: document)
    }

    private init(checking document: Document) throws(RestoreFailure) {
        guard let kind = Kind(rawValue: document.kind) else { throw .malformed("unknown state kind \"\(document.kind)\"") }
        guard let correlationId = UUID(uuidString: document.correlationId) else { throw .malformed("the correlation id is not a UUID") }
        guard !document.clientId.isEmpty, !document.authority.isEmpty else { throw .malformed("the client id or authority is empty") }
        self.init(
            kind: kind, clientId: document.clientId, authority: document.authority, continuationToken: document.continuationToken,
            correlationId: correlationId, issuedAt: Date(timeIntervalSince1970: TimeInterval(document.issuedAt)))
        if document.continuationToken?.isEmpty ?? !kind.tokenOptional {
            throw .malformed("a \(kind.rawValue) state needs a continuation token")
        }
        if kind.hasUsername {
            guard let username = document.username, !username.isEmpty else { throw .malformed("a \(kind.rawValue) state needs a username") }
            self.username = username
        }
        if kind.continuesSignIn {
            guard let scopes = document.scopes else { throw .malformed("a \(kind.rawValue) state needs its sign-in's scopes") }
            (self.scopes, claims) = (scopes, document.claims)
        }
        authMethods = document.authMethods?.map {
            MSALAuthMethod(
                id: $0.id, challengeType: $0.challengeType, channelTargetType: MSALNativeAuthChannelType(value: $0.channel),
                loginHint: $0.loginHint)
        }
    }
}

/// Why a saved state cannot be restored, before it becomes the public `RestoreStateError`.
package enum RestoreFailure: Error, Equatable {
    case malformed(String)
    case unsupportedVersion(String)
    case expired(String)
    case wrongApplication(String)
    case wrongKind(String)
}
