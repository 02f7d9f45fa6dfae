import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The delegate form: one callback per call, on the main actor, with MSAL's fallback for optional
/// methods the app did not implement.
@Suite(.tags(.concurrency)) @MainActor struct DelegateTests {
    @Test func passwordSignInDeliversExactlyOneCompletion() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        let delegate = RecordingSignInDelegate()
        h.app.signIn(parameters: h.signInParameters(password: Fixture.password), delegate: delegate)
        let event = await delegate.waitForEvent()
        #expect(event.name == "onSignInCompleted")
        try await settle()
        #expect(delegate.events.map(\.name) == ["onSignInCompleted"])
    }

    @Test func codeFlowThroughDelegatesWithRetryState() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        let delegate = RecordingSignInDelegate()
        h.app.signIn(parameters: h.signInParameters(), delegate: delegate)
        guard case .codeRequired(let state, let sentTo, let channel, let codeLength) = await delegate.waitForEvent() else {
            Issue.record("expected onSignInCodeRequired")
            return
        }
        #expect(sentTo == "a***@co**o.com" && channel == "email" && codeLength == 8)

        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", suberror: "invalid_oob_value")))
        state.submitCode(code: "00000000", delegate: delegate)
        guard case .verifyCodeError(let error, let newState) = await delegate.waitForEvent() else {
            Issue.record("expected an error")
            return
        }
        #expect(error.isInvalidCode)
        let retry = try #require(newState)
        #expect(retry.continuationToken == "T1")

        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        retry.submitCode(code: Fixture.code, delegate: delegate)
        #expect(await delegate.waitForEvent().name == "onSignInCompleted")
        #expect(delegate.events.map(\.name) == ["onSignInCodeRequired", "onSignInVerifyCodeError", "onSignInCompleted"])
    }

    @Test func resendThroughDelegate() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let state, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        let delegate = RecordingSignInDelegate()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(400, Fixture.apiError("invalid_request")))
        state.resendCode(delegate: delegate)
        guard case .resendError(let error, let newState) = await delegate.waitForEvent() else {
            Issue.record("expected an error")
            return
        }
        #expect(!error.isBrowserRequired)
        #expect(newState === state)

        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.oobChallenge))
        state.resendCode(delegate: delegate)
        #expect(await delegate.waitForEvent().name == "onSignInResendCodeCodeRequired")
    }

    @Test func passwordErrorHandsBackTheSameState() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        guard case .passwordRequired(let state) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        let delegate = RecordingSignInDelegate()
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [50126])))
        state.submitPassword(password: "wrong", delegate: delegate)
        guard case .passwordError(let error, let newState) = await delegate.waitForEvent() else {
            Issue.record("expected an error")
            return
        }
        #expect(error.isInvalidPassword)
        #expect(newState === state)
    }

    /// On Linux the main actor is the main dispatch queue; after `dispatchMain()` libdispatch may
    /// serve it from a thread other than the process's first, so the check is for the queue.
    @Test func callbacksRunOnTheMainQueue() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(400, Fixture.apiError("user_not_found")))
        let delegate = ThreadCheckingDelegate()
        h.app.signIn(parameters: h.signInParameters(), delegate: delegate)
        let onMain = await delegate.result()
        #expect(onMain)
    }

    @Test func unimplementedOptionalCallbackFallsBackToTheErrorCallback() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        let delegate = ErrorOnlyDelegate()
        h.app.signIn(parameters: h.signInParameters(), delegate: delegate)
        let error = await delegate.error()
        #expect(!error.isBrowserRequired && !error.isUserNotFound)
        #expect(
            error.errorDescription == "MSALNativeAuth has called the delegate method onSignInCodeRequired that has not been implemented")
        try await settle()
        #expect(delegate.count == 1)
    }

    @Test func unimplementedCompletionFallsBackWithNoState() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        guard case .passwordRequired(let state) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        let delegate = PasswordErrorOnlyDelegate()
        state.submitPassword(password: Fixture.password, delegate: delegate)
        let (error, newState) = await delegate.error()
        #expect(error.errorDescription == "MSALNativeAuth has called the delegate method onSignInCompleted that has not been implemented")
        #expect(newState == nil)
    }

    /// Lets any stray second callback arrive before the count is checked.
    private func settle() async throws {
        for _ in 0..<20 { await Task.yield() }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
}

private let mainQueueKey = DispatchSpecificKey<String>()

@MainActor final class ThreadCheckingDelegate: SignInStartDelegate {
    private let answer = AsyncBox<Bool>()
    init() { DispatchQueue.main.setSpecific(key: mainQueueKey, value: "main") }
    func onSignInStartError(error: SignInStartError) { answer.put(DispatchQueue.getSpecific(key: mainQueueKey) == "main") }
    func result() async -> Bool { await answer.take() }
}

@MainActor final class ErrorOnlyDelegate: SignInStartDelegate {
    private let answer = AsyncBox<SignInStartError>()
    private(set) var count = 0
    func onSignInStartError(error: SignInStartError) {
        count += 1
        answer.put(error)
    }
    func error() async -> SignInStartError { await answer.take() }
}

@MainActor final class PasswordErrorOnlyDelegate: SignInPasswordRequiredDelegate {
    private let answer = AsyncBox<(PasswordRequiredError, SignInPasswordRequiredState?)>()
    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        answer.put((error, newState))
    }
    func error() async -> (PasswordRequiredError, SignInPasswordRequiredState?) { await answer.take() }
}

/// One value handed from a callback to a waiting test, on the main actor.
@MainActor final class AsyncBox<Value: Sendable> {
    private var value: Value?
    private var waiter: CheckedContinuation<Value, Never>?

    func put(_ newValue: Value) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: newValue)
        } else {
            value = newValue
        }
    }

    func take() async -> Value {
        if let value { return value }
        return await withCheckedContinuation { waiter = $0 }
    }
}
