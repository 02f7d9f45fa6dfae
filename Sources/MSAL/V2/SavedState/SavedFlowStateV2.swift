import Foundation

/// A saved native auth V2 state: the document of SavedFlowState.swift at version 2
/// (docs/saved-states.md#version-2-native-auth-v2). Besides the V1 members it holds the flow's
/// scenario, the step's purpose, and the links the state continues at, already resolved and
/// checked again against the authority when read. Never a password or a code.
package struct SavedFlowStateV2: Sendable, Equatable {
    /// The V2 kinds this SDK writes. `v2NewPasswordRequired`, `v2AttributesRequired`,
    /// `v2SignInAfterSignUp` and `v2SignInAfterResetPassword` are reserved for the sign-up and reset
    /// flows: read as `unsupportedVersion` (a later SDK's state), never as malformed.
    package enum Kind: String, Sendable, CaseIterable {
        case v2CodeRequired, v2PasswordRequired, v2AuthMethodSelectionRequired, v2MFAVerificationRequired
        case v2StrongAuthRegistrationRequired, v2StrongAuthVerificationRequired

        static let reserved: Set<String> = [
            "v2NewPasswordRequired", "v2AttributesRequired", "v2SignInAfterSignUp", "v2SignInAfterResetPassword",
        ]

        var isSelection: Bool { self == .v2AuthMethodSelectionRequired || self == .v2StrongAuthRegistrationRequired }
        /// The relation a method's link is saved under (selection kinds).
        var methodRelation: String { self == .v2StrongAuthRegistrationRequired ? "enroll" : "challenge" }
        /// The relation the code or password is submitted at (verification kinds).
        var submitRelation: String { self == .v2StrongAuthVerificationRequired ? "activate" : "verify" }
    }

    /// What the state continues with besides its token.
    package enum Step: Sendable, Equatable {
        /// The methods to choose from, and whether a selection was already made on the saved state
        /// (then the restored state refuses a second one locally, as the original does).
        case selection([V2Method], spent: Bool)
        /// The method being verified and its submit, resend and recover links.
        case verification(V2Verification)
    }

    package static let version = 2

    package var kind: Kind
    package var clientId: String
    package var authority: String
    package var continuationToken: String
    package var correlationId: UUID
    package var issuedAt: Date
    package var scenario: MSALNativeAuthFlowScenario
    package var username: String
    package var scopes: [String]
    package var claims: String?
    package var purpose: V2SignInMachine.Purpose
    package var step: Step

    /// What a state on `core` holds.
    init(_ kind: Kind, _ core: V2StateCore, purpose: V2SignInMachine.Purpose, _ step: Step) {
        let environment = core.flow.controller.client.environment
        self.kind = kind
        clientId = environment.clientId
        authority = environment.authorityURL.absoluteString
        continuationToken = core.continuation.token
        correlationId = core.continuation.correlationId
        issuedAt = core.issuedAt
        scenario = core.flow.scenario
        username = core.flow.username
        scopes = core.flow.scopes
        claims = core.flow.claims
        self.purpose = purpose
        self.step = step
    }

    // MARK: The document

    /// The JSON members, in the names docs/saved-states.md#version-2-native-auth-v2 lists.
    private struct Document: Codable {
        struct Method: Codable {
            var id: String
            var type: String
            var hint: String?
            var challenge: String?
            var enroll: String?
        }
        var format: String
        var version: Int
        var kind: String
        var clientId: String
        var authority: String
        var correlationId: String
        /// Seconds since 1970, whole.
        var issuedAt: Int64
        var continuationToken: String
        var scenario: String
        var username: String
        var scopes: [String]
        var claims: String?
        var purpose: String
        var methods: [Method]?
        var spent: Bool?
        /// Relation → absolute URL: `verify` or `activate`, `resend`, `recover`.
        var links: [String: String]?
        var methodId: String?
        var channel: String?
        var sentTo: String?
        var codeLength: Int?
    }

    private static let purposes: [V2SignInMachine.Purpose: String] = [
        .firstFactor: "firstFactor", .mfa: "mfa", .recovery: "recovery", .existingAccount: "existingAccount",
        .registration: "registration",
    ]

    private var document: Document {
        var document = Document(
            format: SavedFlowState.format, version: Self.version, kind: kind.rawValue, clientId: clientId, authority: authority,
            correlationId: correlationId.uuidString, issuedAt: Int64(issuedAt.timeIntervalSince1970.rounded(.down)),
            continuationToken: continuationToken, scenario: scenario.description, username: username, scopes: scopes, claims: claims,
            purpose: Self.purposes[purpose] ?? "")
        switch step {
        case .selection(let methods, let spent):
            let relation = kind.methodRelation
            document.methods = methods.map {
                let href = $0.link.absoluteString
                return Document.Method(
                    id: $0.id, type: $0.type, hint: $0.hint, challenge: relation == "challenge" ? href : nil,
                    enroll: relation == "enroll" ? href : nil)
            }
            document.spent = spent ? true : nil
        case .verification(let verification):
            var links = [kind.submitRelation: verification.submit.absoluteString]
            links["resend"] = verification.resend?.absoluteString
            links["recover"] = verification.recover?.absoluteString
            document.links = links
            (document.methodId, document.channel) = (verification.methodId, verification.type)
            (document.sentTo, document.codeLength) = (verification.hint, verification.codeLength)
        }
        return document
    }

    /// The document's bytes: UTF-8 JSON, keys sorted.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers, booleans and collections of them only: encoding cannot fail.
        return (try? encoder.encode(document)) ?? Data()
    }

    /// Reads a version 2 document; every link in it must pass `links`' checks (the authority's
    /// scheme, host and port). Every way it can be wrong is a `RestoreFailure` naming what.
    package static func decode(_ data: Data, links: V2Links) throws(RestoreFailure) -> SavedFlowStateV2 {
        guard data.count <= SavedFlowState.maximumSize else {
            throw .malformed("the saved state is \(data.count) bytes, more than the \(SavedFlowState.maximumSize) a saved state can be")
        }
        guard let version = SavedFlowState.version(of: data) else { throw .malformed("the saved state is not a flow state document") }
        guard version >= 1 else { throw .malformed("the saved state has no valid version") }
        guard version >= 2 else {
            throw .wrongKind("the saved state is a native auth V1 state (version \(version)); restore it with restoreState(serialized:)")
        }
        guard version <= Self.version else {
            throw .unsupportedVersion("the saved state has format version \(version); this SDK reads up to version \(Self.version)")
        }
        let document: Document
        do { document = try JSONDecoder().decode(Document.self, from: data) } catch {
            if let kind = (try? JSONDecoder().decode(KindOnly.self, from: data))?.kind, Kind.reserved.contains(kind) {
                throw .unsupportedVersion("a \(kind) state is kept for a later SDK; this one cannot restore it")
            }
            throw .malformed("the saved state lacks a member or has one of the wrong type")
        }
        return try SavedFlowStateV2(checking: document, links: links)
    }

    /// Just the `kind` member of a document that is otherwise not this SDK's.
    private struct KindOnly: Decodable {
        var kind: String?
    }

    private init(checking document: Document, links: V2Links) throws(RestoreFailure) {
        guard let kind = Kind(rawValue: document.kind) else {
            if Kind.reserved.contains(document.kind) {
                throw .unsupportedVersion("a \(document.kind) state is kept for a later SDK; this one cannot restore it")
            }
            throw .malformed("unknown state kind \"\(document.kind)\"")
        }
        guard let correlationId = UUID(uuidString: document.correlationId) else { throw .malformed("the correlation id is not a UUID") }
        guard !document.clientId.isEmpty, !document.authority.isEmpty else { throw .malformed("the client id or authority is empty") }
        guard !document.continuationToken.isEmpty else { throw .malformed("a \(kind.rawValue) state needs a continuation token") }
        guard !document.username.isEmpty else { throw .malformed("a \(kind.rawValue) state needs a username") }
        guard document.scenario == MSALNativeAuthFlowScenario.signIn.description else {
            throw .unsupportedVersion("this SDK restores V2 sign-in states only, not \"\(document.scenario)\"")
        }
        guard let purpose = Self.purposes.first(where: { $0.value == document.purpose })?.key else {
            throw .malformed("unknown purpose \"\(document.purpose)\"")
        }
        func url(_ text: String) throws(RestoreFailure) -> URL {
            do throws(V2Links.Refusal) { return try links.check(absolute: text) } catch {
                throw .malformed("the saved state holds a link the SDK will not follow (\(error.message))")
            }
        }
        let step: Step
        if kind.isSelection {
            guard let methods = document.methods, !methods.isEmpty else { throw .malformed("a \(kind.rawValue) state needs its methods") }
            var read: [V2Method] = []
            for method in methods {
                let href = kind.methodRelation == "enroll" ? method.enroll : method.challenge
                guard let href, !method.id.isEmpty else { throw .malformed("a method lacks its id or \(kind.methodRelation) link") }
                read.append(V2Method(id: method.id, type: method.type, hint: method.hint, link: try url(href)))
            }
            step = .selection(read, spent: document.spent ?? false)
        } else {
            guard let submit = document.links?[kind.submitRelation] else {
                throw .malformed("a \(kind.rawValue) state needs its \(kind.submitRelation) link")
            }
            if let length = document.codeLength, !(1...64).contains(length) { throw .malformed("the code length is out of range") }
            var resend: URL?
            var recover: URL?
            if let text = document.links?["resend"] { resend = try url(text) }
            if let text = document.links?["recover"] { recover = try url(text) }
            step = .verification(
                V2Verification(
                    methodId: document.methodId, type: document.channel, hint: document.sentTo, codeLength: document.codeLength,
                    submit: try url(submit), resend: resend, recover: recover))
        }
        if case .verification(let verification) = step, verification.isPassword != (kind == .v2PasswordRequired) {
            throw .malformed("a \(kind.rawValue) state with the wrong channel")
        }
        self.kind = kind
        clientId = document.clientId
        authority = document.authority
        continuationToken = document.continuationToken
        self.correlationId = correlationId
        issuedAt = Date(timeIntervalSince1970: TimeInterval(document.issuedAt))
        scenario = .signIn
        username = document.username
        scopes = document.scopes
        claims = document.claims
        self.purpose = purpose
        self.step = step
    }
}
