import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The V2 sign-in rules without the SDK or a network: replies in, requests and outcomes out.
@Suite struct V2FlowMachineTests {
    let id = Answer.first
    let link = URL(string: "https://contoso.ciamlogin.com/t/api/v2.0/x")!
    let log = LogCapture()

    func machine(_ scenario: MSALNativeAuthFlowScenario = .signIn) -> V2FlowMachine {
        V2FlowMachine(username: Fixture.username, scopes: ["openid"], claims: nil, scenario: scenario, logger: log.config)
    }

    func method(_ id: String, _ type: String) -> V2Method { V2Method(id: id, type: type, hint: nil, link: link.appendingPathComponent(id)) }

    func verification(_ type: String) -> V2Verification {
        V2Verification(
            methodId: "m", type: type, hint: "h", codeLength: 8, submit: link.appendingPathComponent("verify"), resend: nil, recover: nil)
    }

    /// A machine that has sent `signin/start` with `password` (`resetpassword/start` for a reset).
    func started(password: String? = nil, _ scenario: MSALNativeAuthFlowScenario = .signIn) throws -> V2FlowMachine {
        var m = machine(scenario)
        _ = m.start(password: password, correlationId: id)
        let journeys = V2Journeys(links: ["sign_in": .success(link), "reset_password": .success(link)])
        guard
            case .interact(_, .startSignIn(Fixture.username), _) = try call(
                m.entered(.answer(.entryInvitation(token: "c0", journeys)), correlationId: id))
        else { throw UnexpectedOutcome("expected the journey's start") }
        return m
    }

    /// A controller error names the machine's state (`expect`, the events' guards): never the
    /// up-front password a sign-in's state carries.
    @Test func aStateNamesItselfWithoutThePassword() throws {
        var m = try started(password: "up-front-pw")
        #expect("\(m.state)" == "interacting(start)")
        m.state = .entering(password: "up-front-pw")
        #expect("\(m.state)" == "entering")
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

    /// docs/decisions.md#native-auth-v2 (method filtering): a known type the step does not support is dropped with a warning naming its type
    /// and id, never its hint; each context's list is filtered through the same rule.
    @Test func methodsTheContextDoesNotSupportAreDroppedWithAWarning() throws {
        let hinted = { (id: String, type: String) in V2Method(id: id, type: type, hint: "+*******0100", link: self.link) }
        var first = try started()
        let firstOutcome = try result(
            first.interacted(
                .answer(.challenge(.singleFactor, [method("m-p", "password"), hinted("m-s", "sms"), method("m-e", "email")], token: "c1")),
                correlationId: id))
        guard case .selectionRequired(.firstFactor, let firstMethods, _) = firstOutcome else { throw UnexpectedOutcome("\(firstOutcome)") }
        #expect(firstMethods.map(\.id) == ["m-p", "m-e"])

        var mfa = try started()
        let mfaOutcome = try result(
            mfa.interacted(
                .answer(.challenge(.multiFactor, [hinted("m-p2", "password"), method("m-e2", "email")], token: "c3")), correlationId: id))
        guard case .selectionRequired(.mfa, let mfaMethods, _) = mfaOutcome else { throw UnexpectedOutcome("\(mfaOutcome)") }
        #expect(mfaMethods.map(\.id) == ["m-e2"])

        var reset = try started(.passwordReset)
        let resetOutcome = try result(
            reset.interacted(
                .answer(
                    .challenge(.singleFactor, [method("m-e3", "email"), hinted("m-p3", "password"), method("m-s3", "sms")], token: "p1")),
                correlationId: id))
        guard case .selectionRequired(.recovery, let recoveryMethods, _) = resetOutcome else { throw UnexpectedOutcome("\(resetOutcome)") }
        #expect(recoveryMethods.map(\.id) == ["m-e3", "m-s3"])

        var jit = try started()
        let jitOutcome = try result(
            jit.interacted(.answer(.register([hinted("m-p4", "password"), method("m-s4", "sms")], token: "j1")), correlationId: id))
        guard case .registrationRequired(let jitMethods, _) = jitOutcome else { throw UnexpectedOutcome("\(jitOutcome)") }
        #expect(jitMethods.map(\.id) == ["m-s4"])

        var none = try started()
        let failure = try failure(none.interacted(.answer(.register([hinted("m-p5", "password")], token: "j1")), correlationId: id))
        #expect(failure.kind == .generalError)

        let warnings = log.all.filter { $0.contains("WARNING") }
        #expect(
            warnings.map { $0.components(separatedBy: "Skipped").last ?? "" } == [
                " a V2 authentication method of type 'sms' (id m-s), not supported for firstFactor",
                " a V2 authentication method of type 'password' (id m-p2), not supported for mfa",
                " a V2 authentication method of type 'password' (id m-p3), not supported for recovery",
                " a V2 authentication method of type 'password' (id m-p4), not supported for registration",
                " a V2 authentication method of type 'password' (id m-p5), not supported for registration",
            ], "\(warnings)")
        #expect(!log.text.contains("0100"))
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
