import Foundation
import MSAL
import Testing

@testable import NativeAuthCLI

/// The exit statuses: distinct, documented, and each SDK error mapped to the right one.
struct ExitCodeTests {
    private let correlation = UUID()

    @Test func statusesAreDistinctAndDocumentedInDocsCLI() throws {
        #expect(Set(ExitCode.allCases.map(\.rawValue)).count == ExitCode.allCases.count)
        #expect(Set(ExitCode.allCases.map(\.name)).count == ExitCode.allCases.count)
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/cli.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for code in ExitCode.allCases {
            #expect(text.contains("| \(code.rawValue) | `\(code.name)` |"), "docs/cli.md lists \(code.rawValue) \(code.name)")
        }
    }

    private func details(_ error: String? = nil, suberror: String? = nil) -> NativeAuthErrorDetails {
        var details = NativeAuthErrorDetails(message: "text", correlationId: correlation)
        details.serverError = error
        details.serverSuberror = suberror
        return details
    }

    /// An expired continuation token ends the saved sign-in in V2 as in V1 (exit 9, start again), in
    /// the form the service sends and the older one; an invalid token is no expiry.
    @Test func anExpiredV2TokenIsAnExpiredSignIn() {
        let expired: [NativeAuthErrorDetails] = [
            details("expiredToken", suberror: "expiredContinuationToken"), details("invalidGrant", suberror: "expiredToken"),
            details("expiredToken"),
        ]
        for details in expired {
            let error = MSALNativeAuthFlowError(type: .generalError, details)
            let mapped = ErrorMapping.native(error)
            #expect(mapped.code == .noSavedFlow, "\(details.serverError ?? "") / \(details.serverSuberror ?? "")")
            #expect(mapped.message.hasPrefix("the sign-in expired: start again with native-auth login"))
        }
        let invalid = MSALNativeAuthFlowError(type: .generalError, details("invalidRequest", suberror: "invalidContinuationToken"))
        #expect(ErrorMapping.native(invalid).code == .failure)
    }

    @Test func nativeErrorsMapToTheirStatus() {
        let cases: [(MSALNativeAuthError, ExitCode)] = [
            (SignInStartError(type: .userNotFound, details()), .wrongCredentials),
            (SignInStartError(type: .invalidCredentials, details()), .wrongCredentials),
            (SignInStartError(type: .browserRequired, details()), .browserRequired),
            (SignInStartError(type: .generalError, details()), .failure),
            (PasswordRequiredError(type: .invalidPassword, details()), .wrongCredentials),
            (VerifyCodeError(type: .invalidCode, details()), .wrongCredentials),
            (VerifyCodeError(type: .generalError, details("expired_token")), .noSavedFlow),
            (MFASubmitChallengeError(type: .invalidChallenge, details()), .wrongCredentials),
            (RegisterStrongAuthSubmitChallengeError(type: .invalidChallenge, details()), .wrongCredentials),
            (RegisterStrongAuthChallengeError(type: .invalidInput, details()), .usage),
            (MFARequestChallengeError(type: .authMethodBlocked, details()), .failure),
            (RetrieveAccessTokenError(type: .refreshTokenExpired, details()), .notSignedIn),
            (RetrieveAccessTokenError(type: .invalidScope, details()), .usage),
            (RetrieveAccessTokenError(type: .browserRequired, details()), .browserRequired),
        ]
        for (error, expected) in cases {
            #expect(ErrorMapping.native(error).code == expected, "\(error)")
        }
        let network = NativeAuthErrorDetails(MSALNativeAuthNetworkFailure(kind: .transport, message: "refused"), correlationId: correlation)
        #expect(ErrorMapping.native(RetrieveAccessTokenError(type: .generalError, network)).code == .network)
        #expect(ErrorMapping.native(SignInStartError(type: .generalError, network)).code == .network)
    }

    @Test func standardErrorsMapToTheirStatus() {
        #expect(ErrorMapping.standard(NSError(domain: MSALErrorDomain, code: MSALError.userCanceled.rawValue)).code == .browserRequired)
        #expect(ErrorMapping.standard(NSError(domain: NSURLErrorDomain, code: NSURLErrorCannotConnectToHost)).code == .network)
        let noBrowser = NSError(
            domain: MSALErrorDomain, code: MSALError.internal.rawValue,
            userInfo: [MSALInternalErrorCodeKey: MSALInternalError.internalErrorNoViewController.rawValue])
        #expect(ErrorMapping.standard(noBrowser).code == .browserRequired)
        #expect(ErrorMapping.standard(NSError(domain: MSALErrorDomain, code: MSALError.internal.rawValue)).code == .failure)
    }

    @Test func jsonErrorsCarryNameAndStatus() throws {
        let terminal = RecordingTerminal()
        let status = Reporter(terminal: terminal, json: true).failure(CLIError(.notSignedIn, "no account"))
        #expect(status == 8 && terminal.out.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(terminal.err.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(
            error["code"] as? String == "not_signed_in" && error["exit_status"] as? Int == 8 && error["message"] as? String == "no account")
    }
}

/// A terminal that records what the tool writes and answers prompts from a list.
final class RecordingTerminal: Terminal, @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""
    private var answers: [String]

    init(answers: [String] = []) { self.answers = answers }

    var out: String { lock.withLock { outText } }
    var err: String { lock.withLock { errText } }
    var inputIsTerminal: Bool { false }
    func output(_ text: String) { lock.withLock { outText += text } }
    func message(_ text: String) { lock.withLock { errText += text } }
    func readLine(prompt: String) -> String? {
        lock.withLock {
            errText += prompt
            return answers.isEmpty ? nil : answers.removeFirst()
        }
    }
    func readSecret(prompt: String) -> String? { readLine(prompt: prompt) }
}
