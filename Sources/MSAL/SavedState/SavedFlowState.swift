import Foundation

/// A saved native auth V1 flow state, and its document (docs/saved-states.md#format): the envelope
/// every saved state shares (SavedStateEnvelope.swift) at version 1, naming the state's kind and the
/// application it belongs to, and beside it what the state needs to continue.
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

    /// The newest version this SDK reads and the one it writes.
    package static let version = 1

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
        lhs.encoded() == rhs.encoded()
    }

    // MARK: The document

    /// Version 1's own members beside the envelope's (SavedStateEnvelope.swift), in the names
    /// docs/saved-states.md#format lists.
    private struct Payload: Codable {
        struct Method: Codable {
            var id: String
            var challengeType: String
            var channel: String
            var loginHint: String?
        }
        var username: String?
        var scopes: [String]?
        var claims: String?
        var authMethods: [Method]?
    }

    private typealias Document = SavedStateEnvelope.Document<Payload>

    private var document: Document {
        Document(
            version: Self.version, kind: kind.rawValue, clientId: clientId, authority: authority, correlationId: correlationId,
            issuedAt: issuedAt, continuationToken: continuationToken,
            payload: Payload(
                username: username, scopes: scopes, claims: claims,
                authMethods: authMethods?.map {
                    Payload.Method(id: $0.id, challengeType: $0.challengeType, channel: $0.channelTargetType.value, loginHint: $0.loginHint)
                }))
    }

    /// The document's bytes: UTF-8 JSON, keys sorted.
    package func encoded() -> Data { document.encoded() }

    /// Reads a document; every way it can be wrong is a `RestoreFailure` naming what.
    package static func decode(_ data: Data) throws(RestoreFailure) -> SavedFlowState {
        _ = try SavedStateEnvelope.header(data, newest: version)
        return try SavedFlowState(checking: try Document.decode(data))
    }

    private init(checking document: Document) throws(RestoreFailure) {
        let envelope = try document.opened(as: Kind.self)
        let kind = envelope.kind
        let payload = document.payload
        self.init(
            kind: kind, clientId: envelope.clientId, authority: envelope.authority, continuationToken: document.continuationToken,
            correlationId: envelope.correlationId, issuedAt: envelope.issuedAt)
        if document.continuationToken?.isEmpty ?? !kind.tokenOptional {
            throw .malformed("a \(kind.rawValue) state needs a continuation token")
        }
        if kind.hasUsername {
            guard let username = payload.username, !username.isEmpty else { throw .malformed("a \(kind.rawValue) state needs a username") }
            self.username = username
        }
        if kind.continuesSignIn {
            guard let scopes = payload.scopes else { throw .malformed("a \(kind.rawValue) state needs its sign-in's scopes") }
            (self.scopes, claims) = (scopes, payload.claims)
        }
        authMethods = payload.authMethods?.map {
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
