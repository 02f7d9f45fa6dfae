import Foundation

/// One native auth V2 answer, read once into the vocabulary the flow machine speaks
/// (docs/decisions.md#native-auth-v2; the order of
/// docs/protocol.md#how-the-sdk-reads-an-answer). Links in it are already
/// resolved and checked (`V2Links`): whatever URL the machine is handed may be sent to.
package enum V2Answer: Sendable, Equatable {
    /// The flow must go on in a browser (`webFallbackRequired`, `redirect_to_web`,
    /// `invalid_grant` + `web_redirect_required`); the server's text when it gave one.
    case browserRequired(message: String?)
    /// A refusal, nested (HAL) or flat (OAuth).
    case error(V2ServerError)
    /// `state: continue`: resume with this token at the `continue` link (nil: the fixed endpoint).
    case resume(token: String, link: URL?)
    /// `action: challenge`: the methods the user may prove themselves with, supported types only.
    case challenge(V2Factor, [V2Method], token: String)
    /// `action: verify`: a code was sent, or a password is asked for.
    case verify(V2Verification, token: String)
    /// `action: riskverify`: post the token to this link before the code is sent.
    case riskVerify(URL, token: String)
    /// `action: register` / `enroll`: the kinds of strong-auth method the user may register.
    case register([V2Method], token: String)
    /// `action: activate`: a code was sent to the method being registered.
    case activate(V2Verification, token: String)
    /// `action: collectAttributes` (sign-up): the attributes asked for and the `submitAttributes` link.
    case collectAttributes([V2AttributeDescriptor], submit: URL, token: String)
    /// `action: update` (reset): the password method and its `update` link (sent with PUT).
    case update(V2Verification, token: String)
    /// `action: poll`: the `poll` link and `pollInterval` (milliseconds) when given.
    case poll(URL, intervalMilliseconds: Int?, token: String)
    /// The entry's 401 invitation: a token and the journey links.
    case entryInvitation(token: String, V2Journeys)
    /// The resume's authorization code.
    case code(String)
    /// Nothing the SDK can act on: not JSON, no token, an unknown action, a refused link...
    case invalid(String)
}

/// `challengeContext.authenticationFactor`.
package enum V2Factor: String, Sendable, Equatable {
    case singleFactor
    case multiFactor
}

/// One entry of `_embedded.methods`.
package struct V2Method: Sendable, Equatable {
    package var id: String
    /// `password`, `email` or `sms` (others are dropped when read).
    package var type: String
    package var hint: String?
    /// `_links.challenge` (a challenge answer) or `_links.enroll`/`register` (a register answer).
    package var link: URL

    package init(id: String, type: String, hint: String?, link: URL) {
        self.id = id
        self.type = type
        self.hint = hint
        self.link = link
    }
}

/// A `verify` or `activate` answer: the method being verified and where to send the code or password.
package struct V2Verification: Sendable, Equatable {
    package var methodId: String?
    package var type: String?
    package var hint: String?
    package var codeLength: Int?
    /// `verify` (or `activate`) link.
    package var submit: URL
    package var resend: URL?
    package var recover: URL?

    package init(methodId: String?, type: String?, hint: String?, codeLength: Int?, submit: URL, resend: URL?, recover: URL?) {
        self.methodId = methodId
        self.type = type
        self.hint = hint
        self.codeLength = codeLength
        self.submit = submit
        self.resend = resend
        self.recover = recover
    }

    /// Whether the service asks for a password rather than a code.
    package var isPassword: Bool { type == "password" }
}

/// The journey links of the entry invitation, each resolved or refused.
package struct V2Journeys: Sendable, Equatable {
    package var links: [String: Result<URL, V2Links.Refusal>]

    package init(links: [String: Result<URL, V2Links.Refusal>]) { self.links = links }
}

/// A server refusal in either shape (docs/decisions.md#native-auth-v2): the nested HAL `error.code`
/// and `innerError.code`, or the flat `error` and `suberror`.
package struct V2ServerError: Sendable, Equatable {
    package var code: String
    package var innerCode: String?
    package var message: String?
    /// `error_codes`, then every `AADSTS(\d+)` of the message not already there.
    package var errorCodes: [Int]
    package var errorURI: String?
    /// The body's `correlationId` / `correlation_id`, when it is a UUID.
    package var correlationId: UUID?
    /// `innerError.details[].code`.
    package var detailCodes: [String]
    /// `innerError.details[].attributeIds`, flattened.
    package var attributeIds: [String]

    package init(
        code: String, innerCode: String? = nil, message: String? = nil, errorCodes: [Int] = [], errorURI: String? = nil,
        correlationId: UUID? = nil, detailCodes: [String] = [], attributeIds: [String] = []
    ) {
        self.code = code
        self.innerCode = innerCode
        self.message = message
        self.errorCodes = errorCodes
        self.errorURI = errorURI
        self.correlationId = correlationId
        self.detailCodes = detailCodes
        self.attributeIds = attributeIds
    }

    /// Whether the refusal names `name` as its inner code or one of its details' codes.
    package func names(_ name: String) -> Bool { innerCode == name || detailCodes.contains(name) }
}
