import Foundation
import MSAL
import Testing

@testable import MSAL

@Suite struct EncodingTests {
    @Test func formEncodingMatchesTheSpec() {
        let body = FormEncoding.encode([
            ("challenge_type", "oob password redirect"), ("absent", nil), ("username", "a+b@c.com"),
            ("attributes", #"{"city":"Zürich"}"#), ("safe", "A-z_0.9~"),
        ])
        #expect(
            String(decoding: body, as: UTF8.self)
                == "challenge_type=oob+password+redirect&username=a%2Bb%40c.com&attributes=%7B%22city%22%3A%22Z%C3%BCrich%22%7D&safe=A-z_0.9~"
        )
    }

    @Test func formDecodingAcceptsBothSpaces() throws {
        let fields = try #require(FormEncoding.decode(Data("a=x+y&b=x%20y&c=&d&e=%C3%BC".utf8)))
        #expect(fields.map(\.0) == ["a", "b", "c", "d", "e"])
        #expect(fields.map(\.1) == ["x y", "x y", "", "", "ü"])
    }

    @Test(arguments: ["a=%ZZ", "a=%4", "a=%FF%FE"])
    func malformedFormIsRejected(body: String) {
        #expect(FormEncoding.decode(Data(body.utf8)) == nil)
    }

    @Test func base64URLRoundTripWithAndWithoutPadding() {
        let data = Data([0xfb, 0xff, 0x00, 0x10])
        let encoded = Base64URL.encode(data)
        #expect(encoded == "-_8AEA")
        #expect(Base64URL.decode(encoded) == data)
        #expect(Base64URL.decode("-_8AEA==") == data)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("a.b") == nil)
    }

    @Test func clientInfoDecoding() throws {
        let info = try ClientInfo(encoded: Fixture.clientInfo)
        #expect(info.homeAccountId == "\(Fixture.uid).\(Fixture.utid)")
        #expect(throws: NativeAuthDecodingError.self) { try ClientInfo(encoded: Base64URL.encode(Data("[]".utf8))) }
        #expect(throws: NativeAuthDecodingError.self) { try ClientInfo(encoded: Base64URL.encode(Data(#"{"uid":"","utid":"x"}"#.utf8))) }
    }

    @Test func idTokenClaimsAreMergedAndTyped() throws {
        let token = try IDToken(raw: Fixture.idToken(extra: ["email_verified": true, "roles": ["a", "b"], "age": 42]))
        #expect(token.username == Fixture.username)
        #expect(token.objectId == Fixture.uid)
        #expect(token.claims["alg"] == .string("RS256"))
        #expect(token.claims["email_verified"] == .bool(true))
        #expect(token.claims["age"] == .number(42))
        let account = MSALAccount(username: nil, identifier: nil, environment: "e", homeAccountId: nil, claims: token.claims)
        #expect(account.accountClaims?["email_verified"] as? Bool == true)
        #expect(account.accountClaims?["age"] as? Int == 42)
        #expect(account.accountClaims?["roles"] as? [String] == ["a", "b"])
    }

    @Test func idTokenWithoutPreferredUsernameFallsBackToSub() throws {
        let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
        let payload = Base64URL.encode(Data(#"{"sub":"s1"}"#.utf8))
        let token = try IDToken(raw: "\(header).\(payload).")
        #expect(token.username == "s1" && token.objectId == "s1")
    }

    @Test func claimsRequestRejectsNonObjects() {
        #expect(thrownError { _ = try MSALClaimsRequest(jsonString: "[1]") }?.msalInternalCode == .internalErrorInvalidParameter)
        #expect(thrownError { _ = try MSALClaimsRequest(jsonString: "{") }?.msalInternalCode == .internalErrorInvalidParameter)
    }
}
