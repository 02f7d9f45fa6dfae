import Foundation

/// A saved native auth V2 state: the envelope every saved state shares (SavedStateEnvelope.swift) at version 2
/// (docs/saved-states.md#version-2-native-auth-v2). Beside the envelope's members it holds the flow's
/// scenario, the step's purpose, the links the state continues at (already resolved and checked
/// again against the authority when read) and, in a sign-up, the app's attributes still to offer.
/// Never a password or a code.
package struct SavedFlowStateV2: Sendable, Equatable {
    /// The V2 kinds: one per state class that continues (MSALNativeAuthMFARequiredState is never produced).
    package enum Kind: String, Sendable, CaseIterable {
        case v2CodeRequired, v2PasswordRequired, v2AuthMethodSelectionRequired, v2MFAVerificationRequired
        case v2StrongAuthRegistrationRequired, v2StrongAuthVerificationRequired
        case v2NewPasswordRequired, v2AttributesRequired, v2SignInAfterSignUp, v2SignInAfterResetPassword

        var isSelection: Bool { self == .v2AuthMethodSelectionRequired || self == .v2StrongAuthRegistrationRequired }
        /// The relation a method's link is saved under (selection kinds).
        var methodRelation: String { self == .v2StrongAuthRegistrationRequired ? "enroll" : "challenge" }
        /// The relation the code or password is submitted at (verification kinds).
        var submitRelation: String {
            switch self {
            case .v2StrongAuthVerificationRequired: "activate"
            case .v2NewPasswordRequired: "update"
            default: "verify"
            }
        }
        /// The kinds whose step has no purpose of its own: the document omits it, and this one is used.
        var fixedPurpose: V2FlowMachine.Purpose? {
            switch self {
            case .v2NewPasswordRequired: .recovery
            case .v2AttributesRequired, .v2SignInAfterSignUp, .v2SignInAfterResetPassword: .firstFactor
            default: nil
            }
        }
        /// The flows a state of this kind comes from (a new password also from a sign-in's inline
        /// recovery; a code, a selection or a strong-auth step from any of the three).
        var scenarios: Set<MSALNativeAuthFlowScenario> {
            switch self {
            case .v2AttributesRequired, .v2SignInAfterSignUp: [.signUp]
            case .v2SignInAfterResetPassword: [.passwordReset]
            case .v2NewPasswordRequired: [.signIn, .passwordReset]
            case .v2PasswordRequired: [.signIn, .signUp]
            default: [.signIn, .signUp, .passwordReset]
            }
        }
    }

    /// What the state continues with besides its token.
    package enum Step: Sendable, Equatable {
        /// The methods to choose from.
        case selection([V2Method])
        /// The method being verified (or the password being replaced) and its submit, resend and recover links.
        case verification(V2Verification)
        /// A sign-up's password, sent as the `password` attribute to `submit`.
        case signUpPassword(submit: URL)
        /// A sign-up's attributes the app must give, sent to `submit`.
        case attributes([V2AttributeDescriptor], submit: URL)
        /// A finished sign-up or reset; the sign-in resumes at the `continue` link (nil: the fixed endpoint).
        case signInAfter(URL?)
    }

    /// What a sign-up carries from step to step.
    package struct SignUp: Sendable, Equatable {
        /// The app's attribute values, offered whenever the service asks for their ids; never a password.
        package var pendingAttributes: [String: V2AttributeValue]
        /// The ids the state's submit sends by itself with the app's values (an attributes or
        /// password state's prefill), each valued from the username (`email`) or `pendingAttributes`.
        package var submittedIds: [String]
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
    package var purpose: V2FlowMachine.Purpose
    package var step: Step
    /// Present exactly for a sign-up's states.
    package var signUp: SignUp?

    /// What a state on `core` holds; `prefill` is the form an attributes or sign-up password state submits with.
    init(_ kind: Kind, _ core: V2StateCore, purpose: V2FlowMachine.Purpose, _ step: Step, prefill: V2AttributeForm? = nil) {
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
        self.purpose = kind.fixedPurpose ?? purpose
        self.step = step
        if core.flow.scenario == .signUp {
            // A password given up front (MSAL's V1 parameters) is not saved: the restored flow asks for it.
            signUp = SignUp(
                pendingAttributes: core.flow.attributes.filter { $0.key != "password" },
                submittedIds: (prefill?.prefill.keys).map { $0.sorted() } ?? [])
        }
    }

    /// The attributes form of a restored sign-up state: the saved ids valued again from `known` (the
    /// restored machine's `knownAttributes`; a password, never saved, is left out).
    func form(submit: URL, known: [String: V2AttributeValue]) -> V2AttributeForm {
        var prefill: [String: V2AttributeValue] = [:]
        for id in signUp?.submittedIds ?? [] { prefill[id] = known[id] }
        return V2AttributeForm(submit: submit, prefill: prefill)
    }

    // MARK: The document

    /// Version 2's own members beside the envelope's (SavedStateEnvelope.swift), in the names
    /// docs/saved-states.md#version-2-native-auth-v2 lists.
    private struct Payload: Codable {
        struct Method: Codable {
            var id: String
            var type: String
            var hint: String?
            var challenge: String?
            var enroll: String?
        }
        struct Attribute: Codable {
            var id: String
            var inputType: String
            var required: Bool
            var hidden: Bool
            var canChange: Bool
            var label: String?
            var regex: String?
            var options: [String]?
            var confirmationInput: String?
        }
        struct SignUp: Codable {
            var submittedIds: [String]
            var pendingAttributes: [String: Value]
        }
        /// An attribute value: a string, a boolean, a number or an array of strings.
        struct Value: Codable {
            var value: V2AttributeValue

            init(_ value: V2AttributeValue) { self.value = value }

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let flag = try? container.decode(Bool.self) {
                    value = .bool(flag)
                } else if let number = try? container.decode(Double.self) {
                    value = .number(number)
                } else if let text = try? container.decode(String.self) {
                    value = .string(text)
                } else {
                    value = .strings(try container.decode([String].self))
                }
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch value {
                case .string(let text): try container.encode(text)
                case .bool(let flag): try container.encode(flag)
                case .number(let number): try container.encode(number)
                case .strings(let texts): try container.encode(texts)
                }
            }
        }
        var scenario: String
        var username: String
        var scopes: [String]
        var claims: String?
        /// Absent for the kinds with a fixed purpose.
        var purpose: String?
        var methods: [Method]?
        /// Written by earlier releases for a state already used to choose; read and ignored, since a
        /// selection state may choose again (docs/decisions.md#native-auth-v2).
        var spent: Bool?
        /// Relation → absolute URL: `verify`, `activate` or `update`, `resend`, `recover`; `submitAttributes`; `continue`.
        var links: [String: String]?
        var methodId: String?
        var channel: String?
        var sentTo: String?
        var codeLength: Int?
        var attributes: [Attribute]?
        var signUp: SignUp?
    }

    private static let purposes: [V2FlowMachine.Purpose: String] = [
        .firstFactor: "firstFactor", .mfa: "mfa", .recovery: "recovery", .existingAccount: "existingAccount",
        .registration: "registration",
    ]

    private static let scenarios: [MSALNativeAuthFlowScenario] = [.signIn, .signUp, .passwordReset]

    private typealias Document = SavedStateEnvelope.Document<Payload>

    private var document: Document {
        var payload = Payload(
            scenario: scenario.description, username: username, scopes: scopes, claims: claims,
            purpose: kind.fixedPurpose == nil ? Self.purposes[purpose] : nil)
        switch step {
        case .selection(let methods):
            let relation = kind.methodRelation
            payload.methods = methods.map {
                let href = $0.link.absoluteString
                return Payload.Method(
                    id: $0.id, type: $0.type, hint: $0.hint, challenge: relation == "challenge" ? href : nil,
                    enroll: relation == "enroll" ? href : nil)
            }
        case .verification(let verification):
            var links = [kind.submitRelation: verification.submit.absoluteString]
            links["resend"] = verification.resend?.absoluteString
            links["recover"] = verification.recover?.absoluteString
            payload.links = links
            (payload.methodId, payload.channel) = (verification.methodId, verification.type)
            (payload.sentTo, payload.codeLength) = (verification.hint, verification.codeLength)
        case .signUpPassword(let submit):
            payload.links = ["submitAttributes": submit.absoluteString]
        case .attributes(let descriptors, let submit):
            payload.links = ["submitAttributes": submit.absoluteString]
            payload.attributes = descriptors.map {
                Payload.Attribute(
                    id: $0.id, inputType: $0.inputType, required: $0.required, hidden: $0.hidden, canChange: $0.canChange, label: $0.label,
                    regex: $0.regex, options: $0.options, confirmationInput: $0.confirmationInput)
            }
        case .signInAfter(let link):
            payload.links = link.map { ["continue": $0.absoluteString] }
        }
        payload.signUp = signUp.map {
            Payload.SignUp(submittedIds: $0.submittedIds, pendingAttributes: $0.pendingAttributes.mapValues(Payload.Value.init))
        }
        return Document(
            version: Self.version, kind: kind.rawValue, clientId: clientId, authority: authority, correlationId: correlationId,
            issuedAt: issuedAt, continuationToken: continuationToken, payload: payload)
    }

    /// The document's bytes: UTF-8 JSON, keys sorted.
    package func encoded() -> Data { document.encoded() }

    /// Reads a version 2 document; every link in it must pass `links`' checks (the authority's
    /// scheme, host and port). Every way it can be wrong is a `RestoreFailure` naming what.
    package static func decode(_ data: Data, links: V2Links) throws(RestoreFailure) -> SavedFlowStateV2 {
        guard data.count <= SavedStateEnvelope.maximumSize else {
            throw .malformed("the saved state is \(data.count) bytes, more than the \(SavedStateEnvelope.maximumSize) a saved state can be")
        }
        guard let version = SavedStateEnvelope.version(of: data) else { throw .malformed("the saved state is not a flow state document") }
        guard version >= 1 else { throw .malformed("the saved state has no valid version") }
        guard version >= 2 else {
            throw .wrongKind("the saved state is a native auth V1 state (version \(version)); restore it with restoreState(serialized:)")
        }
        guard version <= Self.version else {
            throw .unsupportedVersion("the saved state has format version \(version); this SDK reads up to version \(Self.version)")
        }
        return try SavedFlowStateV2(checking: try Document.decode(data), links: links)
    }

    private init(checking document: Document, links: V2Links) throws(RestoreFailure) {
        // Version 2 always has a token: a document without one lacks a member.
        guard let continuationToken = document.continuationToken else {
            throw .malformed("the saved state lacks a member or has one of the wrong type")
        }
        let envelope = try document.opened(as: Kind.self)
        let kind = envelope.kind
        let payload = document.payload
        guard !continuationToken.isEmpty else { throw .malformed("a \(kind.rawValue) state needs a continuation token") }
        guard !payload.username.isEmpty else { throw .malformed("a \(kind.rawValue) state needs a username") }
        guard let scenario = Self.scenarios.first(where: { $0.description == payload.scenario }) else {
            throw .malformed("unknown scenario \"\(payload.scenario)\"")
        }
        guard kind.scenarios.contains(scenario) else { throw .malformed("a \(kind.rawValue) state cannot come from a \(scenario) flow") }
        let purpose: V2FlowMachine.Purpose
        if let fixed = kind.fixedPurpose {
            purpose = fixed
        } else {
            guard let read = Self.purposes.first(where: { $0.value == payload.purpose })?.key else {
                throw .malformed("unknown purpose \"\(payload.purpose ?? "")\"")
            }
            purpose = read
        }
        let signUp = try Self.signUp(payload, scenario: scenario)
        let step = try Self.step(payload, kind, scenario, links)
        self.kind = kind
        clientId = envelope.clientId
        authority = envelope.authority
        self.continuationToken = continuationToken
        correlationId = envelope.correlationId
        issuedAt = envelope.issuedAt
        self.scenario = scenario
        username = payload.username
        scopes = payload.scopes
        claims = payload.claims
        self.purpose = purpose
        self.step = step
        self.signUp = signUp
    }

    /// The `signUp` member: present exactly in a sign-up; each submitted id has a value to send
    /// (`email` is the username; a password was never saved and is asked for again).
    private static func signUp(_ document: Payload, scenario: MSALNativeAuthFlowScenario) throws(RestoreFailure) -> SignUp? {
        guard scenario == .signUp else {
            guard document.signUp == nil else { throw .malformed("a \(scenario) state with sign-up members") }
            return nil
        }
        guard let saved = document.signUp else { throw .malformed("a sign-up state needs its signUp member") }
        let pending = saved.pendingAttributes.mapValues(\.value)
        guard pending.keys.allSatisfy({ !$0.isEmpty && $0 != "password" }) else {
            throw .malformed("the pending attributes hold an empty id or a password")
        }
        guard pending.values.allSatisfy({ if case .number(let number) = $0 { number.isFinite } else { true } }) else {
            throw .malformed("a pending attribute is not a finite number")
        }
        for id in saved.submittedIds where id != "email" && id != "password" && pending[id] == nil {
            throw .malformed("the submitted attribute \"\(id)\" has no value")
        }
        return SignUp(pendingAttributes: pending, submittedIds: saved.submittedIds)
    }

    /// The step the kind continues with, every link checked.
    private static func step(_ document: Payload, _ kind: Kind, _ scenario: MSALNativeAuthFlowScenario, _ links: V2Links)
        throws(RestoreFailure) -> Step
    {
        func url(_ text: String) throws(RestoreFailure) -> URL {
            do throws(V2Links.Refusal) { return try links.check(absolute: text) } catch {
                throw .malformed("the saved state holds a link the SDK will not follow (\(error.message))")
            }
        }
        let saved = document.links ?? [:]
        if kind.isSelection {
            guard let methods = document.methods, !methods.isEmpty else { throw .malformed("a \(kind.rawValue) state needs its methods") }
            var read: [V2Method] = []
            for method in methods {
                let href = kind.methodRelation == "enroll" ? method.enroll : method.challenge
                guard let href, !method.id.isEmpty else { throw .malformed("a method lacks its id or \(kind.methodRelation) link") }
                read.append(V2Method(id: method.id, type: method.type, hint: method.hint, link: try url(href)))
            }
            return .selection(read)
        }
        switch kind {
        case .v2SignInAfterSignUp, .v2SignInAfterResetPassword:
            guard let text = saved["continue"] else { return .signInAfter(nil) }
            return .signInAfter(try url(text))
        case .v2AttributesRequired:
            guard let text = saved["submitAttributes"] else { throw .malformed("a \(kind.rawValue) state needs its submitAttributes link") }
            guard let attributes = document.attributes else { throw .malformed("a \(kind.rawValue) state needs its attributes") }
            guard attributes.allSatisfy({ !$0.id.isEmpty }) else { throw .malformed("an attribute lacks its id") }
            let descriptors = attributes.map {
                V2AttributeDescriptor(
                    id: $0.id, inputType: $0.inputType, required: $0.required, hidden: $0.hidden, canChange: $0.canChange, label: $0.label,
                    regex: $0.regex, options: $0.options, confirmationInput: $0.confirmationInput)
            }
            return .attributes(descriptors, submit: try url(text))
        case .v2PasswordRequired where saved["submitAttributes"] != nil:
            guard scenario == .signUp, saved["verify"] == nil, let text = saved["submitAttributes"] else {
                throw .malformed("a \(kind.rawValue) state with both a verify and a submitAttributes link, or outside a sign-up")
            }
            return .signUpPassword(submit: try url(text))
        default:
            guard let submit = saved[kind.submitRelation] else {
                throw .malformed("a \(kind.rawValue) state needs its \(kind.submitRelation) link")
            }
            if let length = document.codeLength, !(1...64).contains(length) { throw .malformed("the code length is out of range") }
            var resend: URL?
            var recover: URL?
            if let text = saved["resend"] { resend = try url(text) }
            if let text = saved["recover"] { recover = try url(text) }
            let verification = V2Verification(
                methodId: document.methodId, type: document.channel, hint: document.sentTo, codeLength: document.codeLength,
                submit: try url(submit), resend: resend, recover: recover)
            if kind != .v2NewPasswordRequired, verification.isPassword != (kind == .v2PasswordRequired) {
                throw .malformed("a \(kind.rawValue) state with the wrong channel")
            }
            return .verification(verification)
        }
    }
}
