import Foundation
import MSAL

/// The second process of the saved-state tests (Tests/MSALEndToEndTests/SavedStateEndToEndTests.swift):
/// restores a flow state from standard input, takes one step with it, and prints what followed as
/// one JSON line. Only MSAL's public API, as an app in another process would use it.
///
///     msal-flow-step AUTHORITY CLIENT_ID ACTION [ARGUMENT…] < saved-state
///
/// ACTION: `submit-code CODE`, `submit-password PASSWORD`, `submit-attributes JSON`, `sign-in`,
/// `request-challenge METHOD_ID`, `submit-challenge CODE`, `challenge-auth-method METHOD_ID CONTACT`.
/// Prints `{"outcome":"signedIn","username":…}`, `{"outcome":"state","kind":…,"state":…}` (the
/// next state, saved) or `{"outcome":"error","message":…}`; exit status 2 for a usage error.
@main
struct FlowStep {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 3, let url = URL(string: arguments[0]) else { usage() }
        do {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: arguments[1], authority: try MSALCIAMAuthority(url: url), challengeTypes: [.OOB, .password])
            config.capabilities = [.mfaRequired, .registrationRequired]
            config.tokenCacheLocation = .inMemory
            let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
            let saved = FileHandle.standardInput.readDataToEndOfFile()
            let flow = try app.restoreState(serialized: saved)
            print(try await step(flow, arguments[2], Array(arguments.dropFirst(3))))
        } catch {
            print(line(["outcome": "error", "message": (error as? MSALNativeAuthError)?.errorDescription ?? "\(error)"]))
        }
    }

    static func step(_ flow: MSALNativeAuthFlowState, _ action: String, _ values: [String]) async throws -> String {
        switch (flow, action, values.count) {
        case (.signInCodeRequired(let state), "submit-code", 1): return report(try await state.submitCode(code: values[0]))
        case (.signInPasswordRequired(let state), "submit-password", 1):
            return report(try await state.submitPassword(password: values[0]))
        case (.signInAfterSignUp(let state), "sign-in", 0): return report(try await state.signIn())
        case (.signInAfterResetPassword(let state), "sign-in", 0): return report(try await state.signIn())
        case (.signUpCodeRequired(let state), "submit-code", 1):
            switch try await state.submitCode(code: values[0]) {
            case .completed(let next): return saved(next)
            case .passwordRequired(let next): return saved(next)
            case .attributesRequired(_, let next): return saved(next)
            }
        case (.signUpPasswordRequired(let state), "submit-password", 1):
            switch try await state.submitPassword(password: values[0]) {
            case .completed(let next): return saved(next)
            case .attributesRequired(_, let next): return saved(next)
            }
        case (.signUpAttributesRequired(let state), "submit-attributes", 1):
            let attributes = try JSONSerialization.jsonObject(with: Data(values[0].utf8)) as? [String: Any] ?? [:]
            switch try await state.submitAttributes(attributes: attributes) {
            case .completed(let next): return saved(next)
            case .attributesRequired(_, let next), .attributesInvalid(_, let next): return saved(next)
            }
        case (.resetPasswordCodeRequired(let state), "submit-code", 1):
            return saved(try await state.submitCode(code: values[0]))
        case (.resetPasswordRequired(let state), "submit-password", 1):
            return saved(try await state.submitPassword(password: values[0]))
        case (.awaitingMFA(let state), "request-challenge", 1): return try await requestChallenge(state, values[0])
        case (.mfaRequired(let state), "request-challenge", 1): return try await requestChallenge(state, values[0])
        case (.mfaRequired(let state), "submit-challenge", 1):
            return signedIn(try await state.submitChallenge(challenge: values[0]))
        case (.registerStrongAuth(let state), "challenge-auth-method", 2):
            guard let method = state.authMethods.first(where: { $0.id == values[0] }) else { return line(["outcome": "no such method"]) }
            let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: method, verificationContact: values[1])
            switch try await state.challengeAuthMethod(parameters: parameters) {
            case .verificationRequired(let result): return saved(result.newState)
            case .completed(let result): return signedIn(result)
            }
        case (.registerStrongAuthVerificationRequired(let state), "submit-challenge", 1):
            return signedIn(try await state.submitChallenge(challenge: values[0]))
        default:
            return line(["outcome": "unsupported", "kind": flow.kind, "action": action])
        }
    }

    static func requestChallenge(_ state: MFABaseState, _ id: String) async throws -> String {
        guard let method = state.authMethods.first(where: { $0.id == id }) else { return line(["outcome": "no such method"]) }
        return saved(try await state.requestChallenge(authMethod: method).newState)
    }

    static func report(_ result: SignInStepResult) -> String {
        switch result {
        case .completed(let account): signedIn(account)
        case .awaitingMFA(_, let next): saved(next)
        case .strongAuthMethodRegistration(_, let next): saved(next)
        }
    }

    static func signedIn(_ result: MSALNativeAuthUserAccountResult) -> String {
        line(["outcome": "signedIn", "username": result.account.username ?? ""])
    }

    static func saved(_ state: any MSALNativeAuthSerializableState) -> String {
        line(["outcome": "state", "state": String(decoding: state.serialized(), as: UTF8.self)])
    }

    static func line(_ object: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: msal-flow-step AUTHORITY CLIENT_ID ACTION [ARGUMENT…] < saved-state\n".utf8))
        exit(2)
    }
}
