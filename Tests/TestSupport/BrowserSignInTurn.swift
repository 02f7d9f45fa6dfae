import NativeAuthTesting
import Testing

/// A suite with this trait runs its browser sign-ins while no other such suite does: MSAL allows
/// one browser sign-in per process, and the test runner runs suites in parallel.
package struct BrowserSignInTurn: SuiteTrait, TestScoping {
    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await BrowserSignInTurns.take { try await function() }
    }
}

extension Trait where Self == BrowserSignInTurn {
    /// Takes the process's turn for browser sign-ins for the whole suite.
    package static var browserSignInTurn: Self { BrowserSignInTurn() }
}
