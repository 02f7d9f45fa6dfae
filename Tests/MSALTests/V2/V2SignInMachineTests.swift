import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The V2 sign-in rules without the SDK or a network: replies in, requests and outcomes out.
@Suite struct V2SignInMachineTests {
    let id = Answer.first
    let link = URL(string: "https://contoso.ciamlogin.com/t/api/v2.0/x")!

    func machine() -> V2SignInMachine { V2SignInMachine(username: Fixture.username, scopes: ["openid"], claims: nil) }

    func method(_ id: String, _ type: String) -> V2Method { V2Method(id: id, type: type, hint: nil, link: link.appendingPathComponent(id)) }

    func verification(_ type: String) -> V2Verification {
        V2Verification(
            methodId: "m", type: type, hint: "h", codeLength: 8, submit: link.appendingPathComponent("verify"), resend: nil, recover: nil)
    }

    /// A machine that has sent `signin/start` with `password`.
    func started(password: String? = nil) throws -> V2SignInMachine {
        var m = machine()
        _ = m.start(password: password, correlationId: id)
        let journeys = V2Journeys(links: ["sign_in": .success(link)])
        guard
            case .interact(_, .startSignIn(Fixture.username), _) = try call(
                m.entered(.answer(.entryInvitation(token: "c0", journeys)), correlationId: id))
        else { throw UnexpectedOutcome("expected sign_in") }
        return m
    }

    @Test func exactlyOneFirstFactorIsChallengedAtOnce() throws {
        var m = try started()
        let next = try call(
            m.interacted(
                .answer(.challenge(.singleFactor, [method("m-e", "email"), method("m-s", "sms")], token: "c1")), correlationId: id))
        guard case .interact(let url, .tokenOnly, let continuation) = next else { throw UnexpectedOutcome("\(next)") }
        #expect(url.lastPathComponent == "m-e" && continuation.token == "c1")
        guard case .codeRequired = try result(m.interacted(.answer(.verify(verification("email"), token: "c2")), correlationId: id)) else {
            throw UnexpectedOutcome("expected a code")
        }
    }

    @Test func twoFirstFactorsAreASelection() throws {
        var m = try started(password: "pw")
        let outcome = try result(
            m.interacted(
                .answer(.challenge(.singleFactor, [method("m-p", "password"), method("m-e", "email")], token: "c1")), correlationId: id))
        guard case .selectionRequired(.firstFactor, let methods, _) = outcome else { throw UnexpectedOutcome("\(outcome)") }
        #expect(methods.count == 2)
    }

    @Test func mfaIsAlwaysASelection() throws {
        var m = try started()
        let outcome = try result(
            m.interacted(
                .answer(.challenge(.multiFactor, [method("m-e", "email"), method("m-p", "password")], token: "c3")), correlationId: id))
        guard case .selectionRequired(.mfa, let methods, _) = outcome else { throw UnexpectedOutcome("\(outcome)") }
        #expect(methods.map(\.type) == ["email"])
    }

    @Test func noSupportedMethodIsAGeneralError() throws {
        var m = try started()
        let failure = try failure(m.interacted(.answer(.challenge(.singleFactor, [method("m-s", "sms")], token: "c1")), correlationId: id))
        #expect(failure.kind == .generalError)
    }

    @Test func theUpfrontPasswordAnswersOnlyTheOnePasswordFactor() throws {
        var m = try started(password: "pw")
        _ = try call(m.interacted(.answer(.challenge(.singleFactor, [method("m-p", "password")], token: "c1")), correlationId: id))
        guard
            case .interact(_, .password("pw"), _) = try call(
                m.interacted(.answer(.verify(verification("password"), token: "c2")), correlationId: id))
        else {
            throw UnexpectedOutcome("expected the password")
        }
        var email = try started(password: "pw")
        _ = try call(email.interacted(.answer(.challenge(.singleFactor, [method("m-e", "email")], token: "c1")), correlationId: id))
        guard case .codeRequired = try result(email.interacted(.answer(.verify(verification("email"), token: "c2")), correlationId: id))
        else {
            throw UnexpectedOutcome("expected a code")
        }
    }

    @Test func oneRiskHopThenAnErrorOnTheSecond() throws {
        var m = machine()
        _ = m.select(method("m-s", "sms"), contact: nil, purpose: .mfa, on: Continuation("c3", id))
        _ = try call(m.interacted(.answer(.riskVerify(link, token: "r1")), correlationId: id))
        #expect(try failure(m.interacted(.answer(.riskVerify(link, token: "r2")), correlationId: id)).kind == .generalError)
    }

    @Test func aRiskHopAfterAnEmailChallengeIsAnError() throws {
        var m = machine()
        _ = m.select(method("m-e", "email"), contact: nil, purpose: .mfa, on: Continuation("c3", id))
        #expect(try failure(m.interacted(.answer(.riskVerify(link, token: "r1")), correlationId: id)).kind == .generalError)
    }

    @Test func continueResumesThenRedeems() throws {
        var m = machine()
        _ = m.submitCode("1234", verification: verification("email"), purpose: .firstFactor, on: Continuation("c2", id))
        guard case .resume(let url, let next) = try call(m.interacted(.answer(.resume(token: "c3", link: link)), correlationId: id)) else {
            throw UnexpectedOutcome("expected the resume")
        }
        #expect(url == link && next.token == "c3")
        guard case .redeem("the-code", _) = try call(m.resumed(.answer(.code("the-code")), correlationId: id)) else {
            throw UnexpectedOutcome("expected the token request")
        }
    }

    @Test func localChecksSendNothing() throws {
        var unknown = machine()
        #expect(try failure(unknown.select(nil, contact: nil, purpose: .mfa, on: Continuation("c", id))).kind == .generalError)
        var noContact = machine()
        #expect(
            try failure(noContact.select(method("r", "sms"), contact: "", purpose: .registration, on: Continuation("c", id))).kind
                == .invalidInput)
        var emptyCode = machine()
        #expect(
            try failure(emptyCode.submitCode("", verification: verification("sms"), purpose: .mfa, on: Continuation("c", id))).kind
                == .invalidChallenge)
        var emptyPassword = machine()
        #expect(
            try failure(emptyPassword.submitPassword("", verification: verification("password"), on: Continuation("c", id))).kind
                == .invalidPassword)
        var noResend = machine()
        #expect(try failure(noResend.resend(verification("email"), purpose: .firstFactor, on: Continuation("c", id))).kind == .generalError)
    }

    @Test func theEntryWithoutASignInLinkIsAGeneralError() throws {
        var m = machine()
        _ = m.start(password: nil, correlationId: id)
        let failure = try failure(m.entered(.answer(.entryInvitation(token: "c0", V2Journeys(links: [:]))), correlationId: id))
        #expect(failure.kind == .generalError && failure.details.message?.contains("sign_in") == true)
    }
}
