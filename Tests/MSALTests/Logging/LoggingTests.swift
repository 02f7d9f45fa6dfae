import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// Secrets and personal data stay out of the log unless the app opts into PII logging.
@Suite struct LoggingTests {
    /// Runs a code sign-in with a wrong code, a resend and a right code, then a password sign-in.
    private func runFlows(_ h: Harness) async throws {
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let state, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", suberror: "invalid_oob_value")))
        _ = try? await state.submitCode(code: "87654321")
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.oobChallenge))
        _ = try await state.resendCode()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
    }

    private let secrets = [
        Fixture.username, Fixture.password, "87654321", "T0", "T1", "AT-secret-value", "RT-secret-value",
        "a***@co**o.com", Fixture.clientInfo,
    ]

    @Test func withPIIOffNoSecretOrAddressIsLogged() async throws {
        let h = try Harness(pii: false)
        try await runFlows(h)
        let text = h.log.text
        #expect(!text.isEmpty)
        for secret in secrets {
            #expect(!text.contains(secret), "log contains \(secret)")
        }
        #expect(!text.contains(Fixture.idToken()))
        #expect(text.contains("Masked(not-null)"))
    }

    @Test func withPIIOnTheUsernameAppears() async throws {
        let h = try Harness(pii: true)
        try await runFlows(h)
        #expect(h.log.text.contains(Fixture.username))
    }

    @Test func levelsFilter() async throws {
        let log = LogCapture(level: .error)
        log.config.info("hidden")
        log.config.error("shown")
        #expect(log.all == ["[ERROR] shown"])
        log.config.logLevel = .nothing
        log.config.error("also hidden")
        #expect(log.all.count == 1)
    }

    @Test func piiInterpolationMasksNilAndValues() {
        let message: LogMessage = "user \(pii: "ada") none \(pii: nil)"
        #expect(message.render(piiEnabled: false) == "user Masked(not-null) none Masked(null)")
        #expect(message.render(piiEnabled: true) == "user ada none (null)")
    }
}
