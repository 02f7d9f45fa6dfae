import Foundation
import MSAL
import MSALRedis

/// The sign-in that waits for input between two invocations (`login --no-prompt`, then
/// `login --code …`): one file, 0600, in the app's directory (docs/cli.md#the-two-invocation-login). It
/// holds the SDK's saved state (`serialized()`, with the continuation token: a secret for the 10
/// minutes the service accepts it) and what the tool shows about the step. A `login --v2` step
/// saves a version 2 document, which `load` restores with `restoreStateV2(serialized:)`. With
/// `"saved_sign_ins": "redis"` the same document is kept in Redis under a new id at every save,
/// and taken (read, opened, then deleted) by the one `login --sign-in-id ID` that continues it
/// (docs/cli.md#redis).
struct FlowStore {
    /// Where the saved sign-in is.
    enum Place {
        /// The file at this path.
        case file(String)
        /// Redis; the id to take (`--sign-in-id`), when continuing.
        case redis(MSALRedisSignInStore, id: String?)
    }

    let place: Place
    let app: MSALNativeAuthPublicClientApplication

    init(path: String, app: MSALNativeAuthPublicClientApplication) {
        self.init(place: .file(path), app: app)
    }

    init(place: Place, app: MSALNativeAuthPublicClientApplication) {
        self.place = place
        self.app = app
    }

    /// The saved file's shape; `state` is the SDK's document, base64.
    private struct Envelope: Codable {
        var version: Int
        var username: String
        var step: String
        var state: Data
        var sentTo: String?
        var channel: String?
        var codeLength: Int?
        /// The MFA method the last code went to (for "send a new code").
        var methodId: String?

        enum CodingKeys: String, CodingKey {
            case version, username, step, state, channel
            case sentTo = "sent_to"
            case codeLength = "code_length"
            case methodId = "method_id"
        }
    }

    static let version = 1

    /// Saves `step` (mode 0600, replacing any earlier one; in Redis, under a new id, returned).
    @discardableResult
    func save(_ step: PendingStep, username: String) throws(CLIError) -> String? {
        let sent = step.sent
        var methodId: String?
        if case .mfaCode(_, let method, _, _) = step { methodId = method?.id }
        let envelope = Envelope(
            version: Self.version, username: username, step: step.name, state: step.state.serialized(), sentTo: sent?.sentTo,
            channel: sent?.channel, codeLength: sent?.codeLength, methodId: methodId)
        let data: Data
        do { data = try JSONEncoder().encode(envelope) } catch { throw CLIError(.failure, "cannot save the sign-in: \(error)") }
        switch place {
        case .file(let path):
            try SecureFile.write(data, to: path)
            return nil
        case .redis(let store, _):
            do { return try store.save(data) } catch { throw RedisBackend.failure(error, doing: "saving the sign-in") }
        }
    }

    /// The saved document: the file's, or the one Redis gives once under the id.
    private func savedData() throws(CLIError) -> Data? {
        switch place {
        case .file(let path):
            return try SecureFile.read(path)
        case .redis(let store, let id):
            guard let id else {
                throw CLIError(
                    .usage,
                    "this configuration keeps waiting sign-ins in Redis: pass --sign-in-id ID (printed by the login that saved it)")
            }
            do {
                return try store.take(id)
            } catch  where error.code == .notFound {
                throw CLIError(
                    .noSavedFlow,
                    "no sign-in is waiting under this id (never saved, expired, or already continued): start again with native-auth login")
            } catch  where error.code == .invalidValue {
                throw CLIError(
                    .noSavedFlow,
                    "the saved sign-in in Redis cannot be opened with this configuration (sealed with another key, or damaged); it stays there for a machine with the right key until it expires"
                )
            } catch {
                throw RedisBackend.failure(error, doing: "taking the saved sign-in")
            }
        }
    }

    /// The saved step, restored on this app; a missing, damaged, expired or foreign one is removed
    /// and reported with `.noSavedFlow`.
    func load() throws(CLIError) -> (step: PendingStep, username: String) {
        guard let data = try savedData() else {
            throw CLIError(.noSavedFlow, "no sign-in is waiting to be continued: start one with native-auth login")
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: data), envelope.version == Self.version else {
            clear()
            throw CLIError(
                .noSavedFlow, "the saved sign-in cannot be read (damaged, or saved by another version): start again with native-auth login")
        }
        let step: PendingStep?
        do {
            step = Self.step(try app.restoreState(serialized: envelope.state), envelope)
        } catch  where error.isWrongKind {
            // A native auth V2 state: the document says which API continues it, so no --v2 is needed.
            do {
                let result = try app.restoreStateV2(serialized: envelope.state)
                step = (try? PendingStep.after(result))?.pending
            } catch {
                throw refused(error)
            }
        } catch {
            throw refused(error)
        }
        guard let step, step.name == envelope.step else {
            clear()
            throw CLIError(.noSavedFlow, "the saved state is not a sign-in step this tool continues: start again with native-auth login")
        }
        return (step, envelope.username)
    }

    /// Removes the saved sign-in, and says why it cannot be continued.
    private func refused(_ error: RestoreStateError) -> CLIError {
        clear()
        let why =
            error.isExpired
            ? "has expired (a step waits at most 10 minutes)"
            : error.isWrongApplication
                ? "belongs to another app or tenant than this configuration"
                : error.isUnsupportedVersion ? "was saved by a newer version" : "is damaged"
        return CLIError(.noSavedFlow, "the saved sign-in \(why): start again with native-auth login")
    }

    /// The V1 step `restored` continues.
    private static func step(_ restored: MSALNativeAuthFlowState, _ envelope: Envelope) -> PendingStep? {
        let sent = envelope.sentTo.map { SentCode(sentTo: $0, channel: envelope.channel ?? "email", codeLength: envelope.codeLength ?? 0) }
        let step: PendingStep?
        switch restored {
        case .signInPasswordRequired(let state): step = .password(state)
        case .signInCodeRequired(let state): step = sent.map { .code(state, $0) }
        case .awaitingMFA(let state): step = .mfaMethod(state.authMethods, state)
        case .mfaRequired(let state):
            step = sent.map {
                .mfaCode(state, method: state.authMethods.first { $0.id == envelope.methodId }, methods: state.authMethods, $0)
            }
        case .registerStrongAuth(let state): step = .registerMethod(state.authMethods, state)
        case .registerStrongAuthVerificationRequired(let state): step = sent.map { .registerCode(state, $0) }
        default: step = nil
        }
        return step
    }

    /// Removes the saved sign-in, if any (in Redis there is none left to remove: `load` took it).
    func clear() {
        if case .file(let path) = place { SecureFile.remove(path) }
    }

    /// Whether a sign-in is saved, and for whom and what (for `status`), without restoring it.
    static func peek(_ path: String) -> (username: String, step: String)? {
        guard let data = try? SecureFile.read(path), let envelope = try? JSONDecoder().decode(Envelope.self, from: data) else { return nil }
        return (envelope.username, envelope.step)
    }
}

extension PendingStep {
    /// The SDK state that continues the step.
    var state: any MSALNativeAuthSerializableState {
        switch self {
        case .password(let state): state
        case .code(let state, _): state
        case .mfaMethod(_, let state): state
        case .mfaCode(let state, _, _, _): state
        case .registerMethod(_, let state): state
        case .registerCode(let state, _): state
        case .v2Password(let state): state
        case .v2Code(let state): state
        case .v2Method(let state): state
        case .v2MFACode(let state): state
        case .v2RegisterMethod(let state): state
        case .v2RegisterCode(let state): state
        }
    }
}
