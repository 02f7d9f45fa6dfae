import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

/// `RecordingSignInDelegate` as an app's test relies on it: every callback recorded in order
/// under its MSAL name, `waitForEvent()` handing them out one by one, whether they came before
/// or after the call.
@Suite(.tags(.concurrency)) @MainActor struct RecordingSignInDelegateTests {
    @Test func aCompletedSignInIsOneEventNamedAsMSALNamesIt() async throws {
        let stub = StubTransport()
        let app = try StubbedApp.make(stub)
        stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
        stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, ["continuation_token": "T1", "challenge_type": "password"]))
        stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, StubbedApp.tokenBody))
        let delegate = RecordingSignInDelegate()
        let parameters = MSALNativeAuthSignInParameters(username: StubbedApp.username)
        parameters.password = StubbedApp.password

        app.signIn(parameters: parameters, delegate: delegate)
        guard case .completed(let result) = await delegate.waitForEvent() else {
            Issue.record("expected onSignInCompleted, got \(delegate.events.map(\.name))")
            return
        }
        #expect(result.account.username == StubbedApp.username)
        #expect(delegate.events.map(\.name) == ["onSignInCompleted"])
    }

    @Test func eachStepsCallbackIsRecordedInOrderWithItsState() async throws {
        let stub = StubTransport()
        let app = try StubbedApp.make(stub)
        stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
        stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, ["continuation_token": "T1", "challenge_type": "password"]))
        stub.expect(
            path: "/oauth2/v2.0/token",
            reply: .json(
                400,
                [
                    "error": "invalid_grant", "error_description": "AADSTS50126: wrong password", "error_codes": [50126],
                    "continuation_token": "T2", "timestamp": "2026-11-30 10:00:00Z", "trace_id": "t", "correlation_id": "c",
                ]))
        let delegate = RecordingSignInDelegate()

        app.signIn(parameters: MSALNativeAuthSignInParameters(username: StubbedApp.username), delegate: delegate)
        guard case .passwordRequired(let state) = await delegate.waitForEvent() else {
            Issue.record("expected onSignInPasswordRequired, got \(delegate.events.map(\.name))")
            return
        }
        state.submitPassword(password: "wrong", delegate: delegate)
        guard case .passwordError(let error, _) = await delegate.waitForEvent() else {
            Issue.record("expected onSignInPasswordRequiredError, got \(delegate.events.map(\.name))")
            return
        }
        #expect(error.isInvalidPassword)
        #expect(delegate.events.map(\.name) == ["onSignInPasswordRequired", "onSignInPasswordRequiredError"])
    }

    @Test func eventsThatArrivedBeforeTheWaitAreHandedOutOneByOne() async throws {
        let stub = StubTransport()
        let app = try StubbedApp.make(stub)
        for _ in 0..<2 {
            stub.expect(
                path: "/oauth2/v2.0/initiate",
                reply: .json(400, StubbedApp.userNotFound))
        }
        let delegate = RecordingSignInDelegate()
        let parameters = MSALNativeAuthSignInParameters(username: StubbedApp.username)

        app.signIn(parameters: parameters, delegate: delegate)
        app.signIn(parameters: parameters, delegate: delegate)
        while delegate.events.count < 2 { await Task.yield() }

        for _ in 0..<2 {
            guard case .startError(let error) = await delegate.waitForEvent() else {
                Issue.record("expected onSignInStartError")
                return
            }
            #expect(error.isUserNotFound)
        }
        #expect(delegate.events.map(\.name) == ["onSignInStartError", "onSignInStartError"])
        #expect(stub.unusedStubs.isEmpty)
    }
}
