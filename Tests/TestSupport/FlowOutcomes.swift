import MSAL

/// A flow ended in another outcome than the test expected.
package struct UnexpectedOutcome: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// The state a V2 result carries, or an error naming what came instead.
package func expectState<State>(_ result: MSALNativeAuthFlowResult, _ type: State.Type) throws -> State {
    let state: Any? =
        switch result {
        case .codeRequired(let s): s
        case .passwordRequired(let s): s
        case .authMethodSelectionRequired(let s): s
        case .mfaVerificationRequired(let s): s
        case .strongAuthRegistrationRequired(let s): s
        case .strongAuthVerificationRequired(let s): s
        case .newPasswordRequired(let s): s
        case .attributesRequired(let s): s
        case .signInAfterSignUp(let s): s
        case .signInAfterResetPassword(let s): s
        case .completed: nil
        }
    guard let typed = state as? State else { throw UnexpectedOutcome("expected \(State.self), got \(result)") }
    return typed
}

/// The error `body` throws, or an error saying it threw none.
package func flowError(_ body: () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult) async throws -> MSALNativeAuthFlowError
{
    do {
        let result = try await body()
        throw UnexpectedOutcome("expected an error, got \(result)")
    } catch let error as MSALNativeAuthFlowError {
        return error
    }
}
