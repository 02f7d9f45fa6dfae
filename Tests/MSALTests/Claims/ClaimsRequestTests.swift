import Foundation
import MSAL
import Testing

/// MSALClaimsRequest as MSAL's "request custom claims" documentation uses it.
@Suite struct ClaimsRequestTests {
    @Test func theDocumentationSnippetsCompileAndWork() throws {
        // From the documentation, as written (the NSError out-parameter initialiser)…
        var requestError: NSError? = nil
        let request = MSALClaimsRequest(
            jsonString: "{\"id_token\":{\"auth_time\":{\"essential\":true},\"acr\":{\"values\":[\"urn:mace:incommon:iap:silver\"]}}}",
            error: &requestError)
        #expect(requestError == nil)

        // …and the builder.
        let individualClaimRequest = MSALIndividualClaimRequest(name: "custom-claim")
        individualClaimRequest.additionalInfo = MSALIndividualClaimRequestAdditionalInfo()
        individualClaimRequest.additionalInfo?.essential = 1
        individualClaimRequest.additionalInfo?.value = "myvalue"
        do {
            try request.requestClaim(individualClaimRequest, for: .idToken)
        } catch let error as NSError {
            Issue.record("unexpected \(error)")
        }

        #expect(
            request.jsonString()
                == #"{"id_token":{"acr":{"values":["urn:mace:incommon:iap:silver"]},"auth_time":{"essential":true},"custom-claim":{"essential":true,"value":"myvalue"}}}"#
        )
        #expect(request.claimsRequests(for: .idToken).map(\.name) == ["acr", "auth_time", "custom-claim"])
    }

    @Test func invalidJSONReportsThroughEitherInitialiser() {
        var error: NSError?
        let empty = MSALClaimsRequest(jsonString: "{not json", error: &error)
        #expect(error?.domain == "MSALErrorDomain")
        #expect(empty.jsonString() == "{}")
        _ = MSALClaimsRequest(jsonString: "{}", error: nil)
        #expect(thrownError { _ = try MSALClaimsRequest(jsonString: "[1,2]") }?.msalInternalCode == .internalErrorInvalidParameter)
        #expect(thrownError { _ = try MSALClaimsRequest(jsonString: #"{"token":{}}"#) }?.msalInternalCode == .internalErrorInvalidParameter)
        #expect(
            thrownError { _ = try MSALClaimsRequest(jsonString: #"{"id_token":{"x":5}}"#) }?.msalInternalCode
                == .internalErrorInvalidParameter)
    }

    @Test func targetsValuesAndRemoval() throws {
        let request = MSALClaimsRequest()
        let capolids = MSALIndividualClaimRequest(name: "capolids")
        capolids.additionalInfo = MSALIndividualClaimRequestAdditionalInfo()
        capolids.additionalInfo?.essential = true
        capolids.additionalInfo?.values = ["00000000-0000-0000-0000-000000000001"]
        try request.requestClaim(capolids, for: .accessToken)
        try request.requestClaim(MSALIndividualClaimRequest(name: "email"), for: .userinfo)
        #expect(
            request.jsonString()
                == #"{"access_token":{"capolids":{"essential":true,"values":["00000000-0000-0000-0000-000000000001"]}},"userinfo":{"email":null}}"#
        )
        let parsed = try MSALClaimsRequest(jsonString: request.jsonString())
        #expect(parsed.jsonString() == request.jsonString())
        #expect(
            parsed.claimsRequests(for: .accessToken).first?.additionalInfo?.values as? [String] == ["00000000-0000-0000-0000-000000000001"])
        #expect(request.removeClaimRequest(withName: "email", for: .userinfo))
        #expect(!request.removeClaimRequest(withName: "email", for: .userinfo))
        #expect(
            request.jsonString() == #"{"access_token":{"capolids":{"essential":true,"values":["00000000-0000-0000-0000-000000000001"]}}}"#)
    }

    @Test func valuesThatCannotBeJSONAreRefused() {
        let request = MSALClaimsRequest()
        let bad = MSALIndividualClaimRequest(name: "when")
        bad.additionalInfo = MSALIndividualClaimRequestAdditionalInfo()
        bad.additionalInfo?.value = Date()
        #expect(thrownError { try request.requestClaim(bad, for: .idToken) }?.msalInternalCode == .internalErrorInvalidParameter)
        let both = MSALIndividualClaimRequest(name: "both")
        both.additionalInfo = MSALIndividualClaimRequestAdditionalInfo()
        both.additionalInfo?.value = "a"
        both.additionalInfo?.values = ["a", "b"]
        #expect(thrownError { try request.requestClaim(both, for: .idToken) }?.msalInternalCode == .internalErrorInvalidParameter)
        #expect(request.jsonString() == "{}")
    }
}
